/**
 * Internal: the Pod Security Standards checks, one per pod-security-admission check ID
 * (staging/src/k8s.io/pod-security-admission/policy/check_*.go), over plain PodSpec JSON.
 *
 * Each check returns undefined when it passes, or PSA's forbidden reason and detail when it fails.
 */
import { ContainerRef, list, object } from './_pod-spec';

export type CheckLevel = 'baseline' | 'restricted';

/** what a check sees. */
export interface CheckContext {
  readonly spec: any;
  /** pod-level securityContext, or {}. */
  readonly podSc: any;
  readonly annotations: { readonly [key: string]: string };
  readonly containers: ContainerRef[];
  readonly volumes: any[];
  /** the policy version's minor number (1.x). */
  readonly minor: number;
  /** the minor number of the pod-security-admission code the cluster runs. */
  readonly codeMinor: number;
  /** `spec.os.name: windows`. */
  readonly windows: boolean;
  /** `spec.hostUsers: false` (a user-namespaced pod). */
  readonly userNamespace: boolean;
}

export interface CheckFailure {
  readonly reason: string;
  readonly detail: string;
}

export interface CheckDefinition {
  readonly id: string;
  readonly level: CheckLevel;
  /** first policy minor version (1.x) at which the check exists. */
  readonly since: number;
  /** the baseline check this restricted check replaces at restricted level. */
  readonly overrides?: string;
  run(ctx: CheckContext): CheckFailure | undefined;
}

// ---------------------------------------------------------------------------------------------
// helpers, as in pod-security-admission's helpers.go

function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

function joinQuote(items: string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

/** `container "a"` / `containers "a", "b"`. */
function containersPhrase(names: string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function str(value: unknown): string {
  return isSet(value) ? String(value) : '';
}

function containerPath(c: ContainerRef): string {
  return `spec.${c.list}[name=${c.name}]`;
}

// ---------------------------------------------------------------------------------------------
// version-dependent data

/** sysctls allowed by the baseline profile, by the policy minor version that added them. */
const SAFE_SYSCTLS: Array<{ since: number; names: string[] }> = [
  {
    since: 0,
    names: [
      'kernel.shm_rmid_forced',
      'net.ipv4.ip_local_port_range',
      'net.ipv4.tcp_syncookies',
      'net.ipv4.ping_group_range',
      'net.ipv4.ip_unprivileged_port_start',
    ],
  },
  { since: 27, names: ['net.ipv4.ip_local_reserved_ports'] },
  { since: 29, names: ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'] },
  { since: 32, names: ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'] },
  { since: 37, names: ['net.ipv4.tcp_slow_start_after_idle', 'net.ipv4.tcp_notsent_lowat'] },
];

/** the sysctl names the baseline profile allows at a policy minor version. */
export function safeSysctls(minor: number): Set<string> {
  return new Set(SAFE_SYSCTLS.filter((s) => minor >= s.since).flatMap((s) => s.names));
}

/** capabilities the baseline profile allows in `capabilities.add` (exact, case-sensitive). */
export const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

function seLinuxTypes(minor: number): Set<string> {
  const types = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
  if (minor >= 31) types.add('container_engine_t');
  return types;
}

/** inline volume sources the restricted profile allows. */
function allowedVolumeSources(codeMinor: number): Set<string> {
  const sources = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
  if (codeMinor >= 33) sources.add('image');
  return sources;
}

function validSeccomp(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

function validAppArmorType(type: unknown): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function validAppArmorAnnotation(value: string): boolean {
  return value === '' || value === 'runtime/default' || value.startsWith('localhost/');
}

/** capabilities listed under `capabilities.<field>` of a container, as strings. */
function capabilityList(c: ContainerRef, field: 'add' | 'drop'): string[] {
  const caps = object(c.sc.capabilities, `${containerPath(c)}.securityContext.capabilities`);
  return list(caps?.[field], `${containerPath(c)}.securityContext.capabilities.${field}`).map((x) => String(x));
}

/** `pod and containers "a", "b"`: the setters of a bad value, PSA style. */
function setters(pod: boolean, containers: string[]): string[] {
  const result: string[] = [];
  if (pod) result.push('pod');
  if (containers.length > 0) result.push(containersPhrase(containers));
  return result;
}

/** the source fields of a volume (everything set except its name). */
function volumeSources(volume: any): string[] {
  return Object.keys(volume).filter((k) => k !== 'name' && isSet(volume[k]));
}

// ---------------------------------------------------------------------------------------------
// baseline checks

const windowsHostProcess: CheckDefinition = {
  id: 'windowsHostProcess',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const pod = ctx.podSc.windowsOptions?.hostProcess === true;
    const bad = ctx.containers.filter((c) => c.sc.windowsOptions?.hostProcess === true).map((c) => c.name);
    if (!pod && bad.length === 0) return undefined;
    return {
      reason: 'hostProcess',
      detail: `${setters(pod, bad).join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
    };
  },
};

const hostNamespaces: CheckDefinition = {
  id: 'hostNamespaces',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const ns: string[] = [];
    if (ctx.spec.hostNetwork === true) ns.push('hostNetwork=true');
    if (ctx.spec.hostPID === true) ns.push('hostPID=true');
    if (ctx.spec.hostIPC === true) ns.push('hostIPC=true');
    return ns.length === 0 ? undefined : { reason: 'host namespaces', detail: ns.join(', ') };
  },
};

const privileged: CheckDefinition = {
  id: 'privileged',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad = ctx.containers.filter((c) => c.sc.privileged === true).map((c) => c.name);
    if (bad.length === 0) return undefined;
    return { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
  },
};

const capabilitiesBaseline: CheckDefinition = {
  id: 'capabilities_baseline',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad: string[] = [];
    const forbidden: string[] = [];
    for (const c of ctx.containers) {
      const added = capabilityList(c, 'add').filter((cap) => !BASELINE_CAPABILITIES.has(cap));
      if (added.length > 0) {
        bad.push(c.name);
        forbidden.push(...added);
      }
    }
    if (bad.length === 0) return undefined;
    return {
      reason: 'non-default capabilities',
      detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`,
    };
  },
};

const hostPathVolumes: CheckDefinition = {
  id: 'hostPathVolumes',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad = ctx.volumes.filter((v) => isSet(v.hostPath)).map((v) => str(v.name));
    if (bad.length === 0) return undefined;
    return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}` };
  },
};

const hostPorts: CheckDefinition = {
  id: 'hostPorts',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad: string[] = [];
    const ports = new Set<number>();
    for (const c of ctx.containers) {
      const used = list(c.container.ports, `${containerPath(c)}.ports`)
        .map((p) => Number(p?.hostPort ?? 0))
        .filter((p) => p !== 0);
      if (used.length > 0) {
        bad.push(c.name);
        used.forEach((p) => ports.add(p));
      }
    }
    if (bad.length === 0) return undefined;
    const sorted = [...ports].sort((a, b) => a - b);
    return {
      reason: 'hostPort',
      detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', sorted.length)} ${sorted.join(', ')}`,
    };
  },
};

const appArmorProfile: CheckDefinition = {
  id: 'appArmorProfile',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const badTypes: string[] = [];
    const podProfile = object(ctx.podSc.appArmorProfile, 'spec.securityContext.appArmorProfile');
    const pod = podProfile !== undefined && !validAppArmorType(podProfile.type);
    if (pod) badTypes.push(str(podProfile.type));
    const bad: string[] = [];
    for (const c of ctx.containers) {
      const profile = object(c.sc.appArmorProfile, `${containerPath(c)}.securityContext.appArmorProfile`);
      if (profile !== undefined && !validAppArmorType(profile.type)) {
        bad.push(c.name);
        badTypes.push(str(profile.type));
      }
    }
    // worded as pod-security-admission (v0.30 and later) words it: every setter, then every bad value (field
    // types, then `key="value"` annotations, each sorted), e.g. `container "agent" and annotation must not set
    // AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/agent="unconfined""`.
    const badAnnotations = Object.keys(ctx.annotations)
      .filter((k) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !validAppArmorAnnotation(ctx.annotations[k]))
      .map((k) => `${k}=${JSON.stringify(ctx.annotations[k])}`)
      .sort();
    const who = setters(pod, bad);
    if (badAnnotations.length > 0) who.push(pluralize('annotation', 'annotations', badAnnotations.length));
    if (who.length === 0) return undefined;
    const values = [...sortedSet(badTypes), ...badAnnotations];
    return {
      reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
      detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
    };
  },
};

const seLinuxOptions: CheckDefinition = {
  id: 'seLinuxOptions',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const allowed = seLinuxTypes(ctx.minor);
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (opts: any): boolean => {
      let ok = true;
      const type = str(opts.type);
      if (!allowed.has(type)) {
        ok = false;
        badTypes.push(type);
      }
      if (str(opts.user).length > 0) {
        ok = false;
        setUser = true;
      }
      if (str(opts.role).length > 0) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const podOpts = object(ctx.podSc.seLinuxOptions, 'spec.securityContext.seLinuxOptions');
    const pod = podOpts !== undefined && !valid(podOpts);
    const bad: string[] = [];
    for (const c of ctx.containers) {
      const opts = object(c.sc.seLinuxOptions, `${containerPath(c)}.securityContext.seLinuxOptions`);
      if (opts !== undefined && !valid(opts)) bad.push(c.name);
    }
    if (!pod && bad.length === 0) return undefined;
    const data: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
    return {
      reason: 'seLinuxOptions',
      detail: `${setters(pod, bad).join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
    };
  },
};

function procMountFailure(ctx: CheckContext): CheckFailure | undefined {
  const bad: string[] = [];
  const values: string[] = [];
  for (const c of ctx.containers) {
    if (isSet(c.sc.procMount) && c.sc.procMount !== 'Default') {
      bad.push(c.name);
      values.push(str(c.sc.procMount));
    }
  }
  if (bad.length === 0) return undefined;
  return { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(values))}` };
}

const procMount: CheckDefinition = {
  id: 'procMount',
  level: 'baseline',
  since: 0,
  run(ctx) {
    // from 1.35, any procMount is allowed at baseline for user-namespaced pods (hostUsers: false).
    if (ctx.minor >= 35 && ctx.userNamespace) return undefined;
    return procMountFailure(ctx);
  },
};

const seccompProfileBaseline: CheckDefinition = {
  id: 'seccompProfile_baseline',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const badValues: string[] = [];
    const podProfile = object(ctx.podSc.seccompProfile, 'spec.securityContext.seccompProfile');
    // an explicit pod-level bad value fails even when every container overrides it.
    const pod = podProfile !== undefined && !validSeccomp(podProfile.type);
    if (pod) badValues.push(str(podProfile.type));
    const bad: string[] = [];
    for (const c of ctx.containers) {
      const profile = object(c.sc.seccompProfile, `${containerPath(c)}.securityContext.seccompProfile`);
      if (profile !== undefined && !validSeccomp(profile.type)) {
        bad.push(c.name);
        badValues.push(str(profile.type));
      }
    }
    if (!pod && bad.length === 0) return undefined;
    return {
      reason: 'seccompProfile',
      detail: `${setters(pod, bad).join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    };
  },
};

const sysctls: CheckDefinition = {
  id: 'sysctls',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const allowed = safeSysctls(ctx.minor);
    // names are compared exactly as written: the slash form (net/ipv4/...) is not normalized.
    const forbidden = list(ctx.podSc.sysctls, 'spec.securityContext.sysctls')
      .map((s) => str(s?.name))
      .filter((name) => !allowed.has(name));
    return forbidden.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: forbidden.join(', ') };
  },
};

function probeHosts(handler: any): string[] {
  if (!handler || typeof handler !== 'object') return [];
  const hosts: string[] = [];
  for (const kind of ['httpGet', 'tcpSocket']) {
    const host = handler[kind]?.host;
    if (isSet(host) && str(host) !== '') hosts.push(str(host));
  }
  return hosts;
}

const hostProbesAndHostLifecycle: CheckDefinition = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  since: 34,
  run(ctx) {
    const bad = new Set<string>();
    const hosts = new Set<string>();
    for (const c of ctx.containers) {
      const found = [
        ...probeHosts(c.container.livenessProbe),
        ...probeHosts(c.container.readinessProbe),
        ...probeHosts(c.container.startupProbe),
        ...probeHosts(c.container.lifecycle?.postStart),
        ...probeHosts(c.container.lifecycle?.preStop),
      ];
      if (found.length > 0) {
        bad.add(c.name);
        found.forEach((h) => hosts.add(h));
      }
    }
    if (bad.size === 0) return undefined;
    const names = sortedSet(bad);
    const hostList = sortedSet(hosts);
    return {
      reason: 'probe or lifecycle host',
      detail: `${containersPhrase(names)} ${pluralize('uses', 'use', names.length)} ` +
        `${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hostList.length)} ${joinQuote(hostList)}`,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// restricted checks

const restrictedVolumes: CheckDefinition = {
  id: 'restrictedVolumes',
  level: 'restricted',
  since: 0,
  overrides: 'hostPathVolumes',
  run(ctx) {
    const allowed = allowedVolumeSources(ctx.codeMinor);
    const bad: string[] = [];
    const types: string[] = [];
    for (const v of ctx.volumes) {
      const sources = volumeSources(v);
      // a volume without a source is defaulted to emptyDir by the API server.
      if (sources.length === 0 || sources.some((s) => allowed.has(s))) continue;
      bad.push(str(v.name));
      types.push(sources.includes('hostPath') ? 'hostPath' : sources[0]);
    }
    if (bad.length === 0) return undefined;
    const typeList = sortedSet(types);
    return {
      reason: 'restricted volume types',
      detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ` +
        `${pluralize('restricted volume type', 'restricted volume types', typeList.length)} ${joinQuote(typeList)}`,
    };
  },
};

const allowPrivilegeEscalation: CheckDefinition = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  since: 0,
  run(ctx) {
    if (ctx.windows) return undefined;
    const bad = ctx.containers.filter((c) => c.sc.allowPrivilegeEscalation !== false).map((c) => c.name);
    if (bad.length === 0) return undefined;
    return { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` };
  },
};

const runAsNonRoot: CheckDefinition = {
  id: 'runAsNonRoot',
  level: 'restricted',
  since: 0,
  run(ctx) {
    if (ctx.minor >= 35 && ctx.userNamespace) return undefined;
    const badSetters: string[] = [];
    let podTrue = false;
    if (isSet(ctx.podSc.runAsNonRoot)) {
      if (ctx.podSc.runAsNonRoot === true) podTrue = true;
      else badSetters.push('pod');
    }
    const explicit: string[] = [];
    const implicit: string[] = [];
    for (const c of ctx.containers) {
      if (isSet(c.sc.runAsNonRoot)) {
        if (c.sc.runAsNonRoot !== true) explicit.push(c.name);
      } else if (!podTrue) {
        implicit.push(c.name);
      }
    }
    if (explicit.length > 0) badSetters.push(containersPhrase(explicit));
    if (badSetters.length > 0) {
      return { reason: 'runAsNonRoot != true', detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
    }
    if (implicit.length > 0) {
      return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
    }
    return undefined;
  },
};

const runAsUser: CheckDefinition = {
  id: 'runAsUser',
  level: 'restricted',
  since: 0,
  run(ctx) {
    if (ctx.minor >= 35 && ctx.userNamespace) return undefined;
    const pod = ctx.podSc.runAsUser === 0;
    const bad = ctx.containers.filter((c) => c.sc.runAsUser === 0).map((c) => c.name);
    if (!pod && bad.length === 0) return undefined;
    return { reason: 'runAsUser=0', detail: `${setters(pod, bad).join(' and ')} must not set runAsUser=0` };
  },
};

const seccompProfileRestricted: CheckDefinition = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  since: 0,
  overrides: 'seccompProfile_baseline',
  run(ctx) {
    if (ctx.windows) return undefined;
    const badValues: string[] = [];
    const podProfile = object(ctx.podSc.seccompProfile, 'spec.securityContext.seccompProfile');
    let pod = false;
    let podValid = false;
    if (podProfile !== undefined) {
      if (validSeccomp(podProfile.type)) {
        podValid = true;
      } else {
        pod = true;
        badValues.push(str(podProfile.type));
      }
    }
    const explicit: string[] = [];
    const implicit: string[] = [];
    for (const c of ctx.containers) {
      const profile = object(c.sc.seccompProfile, `${containerPath(c)}.securityContext.seccompProfile`);
      if (profile !== undefined) {
        if (!validSeccomp(profile.type)) {
          explicit.push(c.name);
          badValues.push(str(profile.type));
        }
      } else if (!podValid) {
        implicit.push(c.name);
      }
    }
    if (pod || explicit.length > 0) {
      return {
        reason: 'seccompProfile',
        detail: `${setters(pod, explicit).join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
      };
    }
    if (implicit.length > 0) {
      return {
        reason: 'seccompProfile',
        detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      };
    }
    return undefined;
  },
};

const capabilitiesRestricted: CheckDefinition = {
  id: 'capabilities_restricted',
  level: 'restricted',
  since: 0,
  overrides: 'capabilities_baseline',
  run(ctx) {
    if (ctx.windows) return undefined;
    const missingDropAll: string[] = [];
    const addingForbidden: string[] = [];
    const forbidden: string[] = [];
    for (const c of ctx.containers) {
      if (object(c.sc.capabilities, `${containerPath(c)}.securityContext.capabilities`) === undefined) {
        missingDropAll.push(c.name);
        continue;
      }
      // the exact string "ALL": "all" or "CAP_ALL" do not count.
      if (!capabilityList(c, 'drop').includes('ALL')) missingDropAll.push(c.name);
      const added = capabilityList(c, 'add').filter((cap) => cap !== 'NET_BIND_SERVICE');
      if (added.length > 0) {
        addingForbidden.push(c.name);
        forbidden.push(...added);
      }
    }
    const details: string[] = [];
    if (missingDropAll.length > 0) {
      details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
    }
    if (addingForbidden.length > 0) {
      details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`);
    }
    return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
  },
};

const procMountRestricted: CheckDefinition = {
  id: 'procMount_restricted',
  level: 'restricted',
  since: 35,
  overrides: 'procMount',
  run(ctx) {
    // no user-namespace relaxation at restricted level.
    return procMountFailure(ctx);
  },
};

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
