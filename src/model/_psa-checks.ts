/**
 * Internal: every Pod Security Standards check, one per pod-security-admission check ID
 * (staging/src/k8s.io/pod-security-admission/policy/check_*.go): baseline in `_psa-baseline.ts`, restricted in
 * `_psa-restricted.ts`, what they share in `_psa-common.ts`.
 */
import {
  appArmorProfile, capabilitiesBaseline, hostNamespaces, hostPathVolumes, hostPorts, hostProbesAndHostLifecycle,
  privileged, procMount, seLinuxOptions, seccompProfileBaseline, sysctls, windowsHostProcess,
} from './_psa-baseline';
import { CheckDefinition } from './_psa-common';
import {
  allowPrivilegeEscalation, capabilitiesRestricted, procMountRestricted, restrictedVolumes, runAsNonRoot, runAsUser,
  seccompProfileRestricted,
} from './_psa-restricted';


/** every check, baseline first, each level in check-ID order. */
export const CHECKS: CheckDefinition[] = [
  appArmorProfile,
  capabilitiesBaseline,
  hostNamespaces,
  hostPathVolumes,
  hostPorts,
  hostProbesAndHostLifecycle,
  privileged,
  procMount,
  seLinuxOptions,
  seccompProfileBaseline,
  sysctls,
  windowsHostProcess,
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  procMountRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
];
