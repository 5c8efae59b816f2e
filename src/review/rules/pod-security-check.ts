import { HostRisk, PodSecurity, PodSecurityCheck, PodSecurityLevel } from '../../model';
import { descriptorOf } from '../../model/_host-privileges';
import { hostAccessOf, podSecurityOf } from '../_memo';
import { describePrivilege } from '../_privileges';
import { podField } from '../_workload';
import { HostPrivilege, IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severities, Severity } from '../severity';

interface CheckText {
  readonly severity: Severity;
  readonly title: string;
  readonly explanation: string;
  readonly fix: string;
  /** the pod spec field the check is about, relative to the pod spec. */
  readonly field?: string;
}

const NOT_FOR_AGENTS = 'A node agent that needs it cannot run in a namespace enforcing this level: label the agent\'s own namespace ' +
  'with the level it needs, never a shared one.';

const TEXTS: { [check: string]: CheckText } = {
  [PodSecurityCheck.HOST_NAMESPACES]: {
    severity: Severity.HIGH,
    title: 'The pod does not share the host\'s network, PID or IPC namespace',
    explanation: `Host namespaces let the pod see and reach the node's network stack, processes or shared memory. ${NOT_FOR_AGENTS}`,
    fix: 'remove hostNetwork, hostPID and hostIPC unless the agent needs them (CNI, kube-proxy, node-exporter, runtime security)',
  },
  [PodSecurityCheck.PRIVILEGED]: {
    severity: Severity.CRITICAL,
    title: 'No container is privileged',
    explanation: 'Privileged containers disable most security mechanisms and are root on the node.',
    fix: 'remove privileged: true and add the capabilities the agent needs instead (to a root container: a non-root process gets none of them)',
  },
  [PodSecurityCheck.CAPABILITIES_BASELINE]: {
    severity: Severity.MEDIUM,
    title: 'Containers add only the baseline capabilities',
    explanation: 'Baseline allows adding only the container runtime\'s default capabilities (AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, ' +
      `KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT). NA-CAPABILITIES rates each capability by risk. ${NOT_FOR_AGENTS}`,
    fix: 'add only the capabilities the agent needs and label its own namespace privileged, or drop them',
  },
  [PodSecurityCheck.HOST_PATH_VOLUMES]: {
    severity: Severity.MEDIUM,
    title: 'The pod has no hostPath volume',
    explanation: 'Baseline forbids hostPath volumes, read-only or not. Node agents that read host files cannot meet it; the NA-HOSTPATH-* ' +
      `rules judge each path by its risk. ${NOT_FOR_AGENTS}`,
    fix: 'mount only the host paths the agent needs, read-only, and label its own namespace privileged; or use a CSI or projected volume',
    field: 'volumes',
  },
  [PodSecurityCheck.HOST_PORTS]: {
    severity: Severity.MEDIUM,
    title: 'No container binds a host port',
    explanation: `A hostPort binds the node's address: the container is reachable from outside the cluster. ${NOT_FOR_AGENTS}`,
    fix: 'expose the port through a Service, or keep the hostPort and label the agent\'s namespace privileged',
  },
  [PodSecurityCheck.APP_ARMOR_PROFILE]: {
    severity: Severity.MEDIUM,
    title: 'No container overrides AppArmor to unconfined',
    explanation: 'The runtime\'s default AppArmor profile blocks writes to sensitive kernel interfaces; unconfined lifts it.',
    fix: 'remove the unconfined AppArmor profile (field or container.apparmor.security.beta.kubernetes.io annotation), or use a Localhost profile',
  },
  [PodSecurityCheck.SE_LINUX_OPTIONS]: {
    severity: Severity.MEDIUM,
    title: 'SELinux options use an allowed type and no custom user or role',
    explanation: 'A custom SELinux type, user or role can run the container in a less confined domain (spc_t is unconfined).',
    fix: 'remove seLinuxOptions, or use type container_t, container_init_t or container_kvm_t (container_engine_t too at policy version 1.31 and later) without user or role',
  },
  [PodSecurityCheck.PROC_MOUNT]: {
    severity: Severity.MEDIUM,
    title: 'Containers keep the default /proc mount',
    explanation: 'An Unmasked /proc exposes kernel interfaces that the default mask hides.',
    fix: 'remove procMount or set it to Default',
  },
  [PodSecurityCheck.SECCOMP_PROFILE_BASELINE]: {
    severity: Severity.MEDIUM,
    title: 'No container sets seccomp Unconfined',
    explanation: 'Unconfined allows every system call, including those behind most container escapes.',
    fix: 'set seccompProfile.type to RuntimeDefault or Localhost',
  },
  [PodSecurityCheck.SYSCTLS]: {
    severity: Severity.MEDIUM,
    title: 'The pod sets only safe sysctls',
    explanation: 'Unsafe sysctls change kernel settings that other pods on the node share.',
    fix: 'set only the sysctls Pod Security lists as safe, or configure the node instead',
    field: 'securityContext.sysctls',
  },
  [PodSecurityCheck.WINDOWS_HOST_PROCESS]: {
    severity: Severity.CRITICAL,
    title: 'No Windows HostProcess container',
    explanation: 'A Windows HostProcess container runs directly on the node, with host-level access.',
    fix: 'remove windowsOptions.hostProcess',
  },
  [PodSecurityCheck.HOST_PROBES_AND_HOST_LIFECYCLE]: {
    severity: Severity.MEDIUM,
    title: 'Probes and lifecycle handlers do not set a host',
    explanation: 'A probe or handler with a host makes the kubelet send requests to any address, a server-side request forgery from the node.',
    fix: 'remove host from httpGet and tcpSocket probes and lifecycle handlers',
  },
  [PodSecurityCheck.RESTRICTED_VOLUMES]: {
    severity: Severity.LOW,
    title: 'The pod uses only restricted volume types',
    explanation: 'Restricted allows only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret (and image) ' +
      'volumes. hostPath volumes fail it, as does any other volume type.',
    fix: 'replace the volume with one of the allowed types, or label the agent\'s namespace baseline or privileged',
    field: 'volumes',
  },
  [PodSecurityCheck.ALLOW_PRIVILEGE_ESCALATION]: {
    severity: Severity.LOW,
    title: 'Containers set allowPrivilegeEscalation: false',
    explanation: 'Restricted requires every container to set allowPrivilegeEscalation: false. NA-PRIVILEGE-ESCALATION checks the same for node agents.',
    fix: 'set securityContext.allowPrivilegeEscalation: false on every container',
  },
  [PodSecurityCheck.RUN_AS_NON_ROOT]: {
    severity: Severity.LOW,
    title: 'The pod or every container sets runAsNonRoot: true',
    explanation: 'Restricted requires runAsNonRoot: true, so that the kubelet refuses to run the image as root.',
    fix: 'set runAsNonRoot: true on the pod security context',
  },
  [PodSecurityCheck.RUN_AS_USER]: {
    severity: Severity.MEDIUM,
    title: 'No container sets runAsUser: 0',
    explanation: 'Restricted forbids running as UID 0 explicitly.',
    fix: 'set a non-zero runAsUser',
  },
  [PodSecurityCheck.SECCOMP_PROFILE_RESTRICTED]: {
    severity: Severity.LOW,
    title: 'The pod or every container sets a RuntimeDefault or Localhost seccomp profile',
    explanation: 'Restricted requires an explicit seccomp profile. NA-SECCOMP checks the same for node agents.',
    fix: 'set securityContext.seccompProfile.type: RuntimeDefault on the pod',
  },
  [PodSecurityCheck.CAPABILITIES_RESTRICTED]: {
    severity: Severity.LOW,
    title: 'Containers drop ALL capabilities and add at most NET_BIND_SERVICE',
    explanation: 'Restricted requires capabilities.drop: [ALL], allows adding back only NET_BIND_SERVICE, and requires a non-root user, ' +
      'for whom an added capability takes effect only through the file capabilities of the program (NA-CAPABILITY-INERT).',
    fix: 'set capabilities.drop: [ALL] on every container and add back only what the agent needs',
  },
  [PodSecurityCheck.PROC_MOUNT_RESTRICTED]: {
    severity: Severity.LOW,
    title: 'Containers keep the default /proc mount, even in a user namespace',
    explanation: 'From policy version 1.35 restricted forbids procMount Unmasked even for pods with hostUsers: false.',
    fix: 'remove procMount or set it to Default',
  },
};

function shortCheck(check: string): string {
  return check.replace(/_(baseline|restricted)$/, '');
}

/**
 * `PSS-<LEVEL>-<check>`: one Pod Security Standards check, evaluated by `PodSecurity.evaluate` at the review's policy
 * version. A check that fails on host privileges alone (host namespaces, privileged, capabilities, hostPath volumes, host
 * ports, HostProcess) is one part per privilege, which joins the privilege's finding (one privilege, one finding), at the
 * check's severity or the privilege's risk, whichever is lower; any other failure is one finding for the pod whose
 * message is pod-security-admission's.
 *
 * The rule ID is the level and the check ID without its `_baseline`/`_restricted` suffix: `PSS-BASELINE-hostNamespaces`,
 * `PSS-BASELINE-capabilities` (check `capabilities_baseline`), `PSS-RESTRICTED-capabilities` (check
 * `capabilities_restricted`). A check newer than the policy version (hostProbesAndHostLifecycle from 1.34,
 * procMount_restricted from 1.35) finds nothing at older versions.
 */
export class PodSecurityCheckRule implements IReviewRule {
  /** every check, baseline then restricted, in `PodSecurityCheck` order. */
  public static allChecks(): PodSecurityCheck[] {
    return Object.values(PodSecurityCheck);
  }

  public readonly id: string;
  public readonly severity: Severity;
  public readonly title: string;
  public readonly explanation: string;
  public readonly fix: string;
  /** the pod-security-admission check ID. */
  public readonly check: string;
  /** the level the check belongs to. */
  public readonly level: PodSecurityLevel;

  /**
   * @param check the pod-security-admission check (a `PodSecurityCheck` value)
   * @throws when the check is not known
   */
  constructor(check: PodSecurityCheck) {
    const text = Object.prototype.hasOwnProperty.call(TEXTS, check) ? TEXTS[check] : undefined;
    if (!text) {
      throw new Error(`unknown pod security check ${JSON.stringify(check)}: use a PodSecurityCheck value (${Object.values(PodSecurityCheck).join(', ')})`);
    }
    this.check = check;
    this.level = PodSecurity.levelOfCheck(check);
    this.id = `PSS-${this.level.toUpperCase()}-${shortCheck(check)}`;
    this.severity = text.severity;
    this.title = text.title;
    this.explanation = `Pod Security Standards, ${this.level} level, check ${check}: ${text.explanation}`;
    this.fix = text.fix;
  }

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const result = podSecurityOf(workload);
    const text = TEXTS[this.check];
    const failed = result.violations.filter((v) => v.check === this.check);
    if (failed.length === 0) return [];
    // the host privileges whose presence alone fails this check. The restricted checks fail on hardening that is missing,
    // not on a privilege taken: none.
    const items = hostAccessOf(workload).filter((i) => descriptorOf(i.type).podSecurityCheck(i) === this.check);
    if (items.length === 0) {
      return failed.map((v) => ({
        message: `fails Pod Security ${v.level} (policy ${result.version}): ${v.message}`,
        field: text.field ? podField(workload, text.field) : workload.podSpecPath,
      }));
    }
    // one privilege, one finding: the check's part for each privilege that fails it, which joins that privilege's finding
    // (the merge); a reason recorded for the privilege explains it. Its severity is the check's, at most the privilege's
    // risk: the check forbids every host path alike, the review rates each by what it holds.
    const level = failed[0].level;
    return items.map((item) => {
      const privilege: HostPrivilege = item.container === undefined ? { type: item.type, detail: item.detail }
        : { type: item.type, detail: item.detail, container: item.container };
      const assessed = HostRisk.assess(item).risk;
      const risk = Severities.ofRisk(assessed);
      return {
        message: `takes ${describePrivilege(item)} (risk ${assessed}), which Pod Security ${level} forbids (check ${this.check}, policy ${result.version})`,
        container: item.container,
        field: podField(workload, descriptorOf(item.type).field(item, workload.podSpec)),
        severity: Severities.rank(risk) < Severities.rank(text.severity) ? risk : text.severity,
        privileges: [privilege],
        cause: privilege,
      };
    });
  }
}
