/**
 * Internal: the Pod Security Standards baseline checks, one per pod-security-admission check ID
 * (staging/src/k8s.io/pod-security-admission/policy/check_*.go), over plain PodSpec JSON: undefined when the check passes,
 * or PSA's forbidden reason and detail when it fails.
 */
import { list, object } from './_pod-spec';
import {
  APPARMOR_ANNOTATION_PREFIX, BASELINE_CAPABILITIES, CheckContext, CheckDefinition, CheckFailure, capabilityList,
  containerPath, containersPhrase, isSet, joinQuote, pluralize, safeSysctls, seLinuxTypes, setters, sortedSet, str,
  validAppArmorAnnotation, validAppArmorType, validSeccomp,
} from './_psa-common';
// ---------------------------------------------------------------------------------------------
// baseline checks

export const windowsHostProcess: CheckDefinition = {
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

export const hostNamespaces: CheckDefinition = {
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

export const privileged: CheckDefinition = {
  id: 'privileged',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad = ctx.containers.filter((c) => c.sc.privileged === true).map((c) => c.name);
    if (bad.length === 0) return undefined;
    return { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
  },
};

export const capabilitiesBaseline: CheckDefinition = {
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

export const hostPathVolumes: CheckDefinition = {
  id: 'hostPathVolumes',
  level: 'baseline',
  since: 0,
  run(ctx) {
    const bad = ctx.volumes.filter((v) => isSet(v.hostPath)).map((v) => str(v.name));
    if (bad.length === 0) return undefined;
    return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}` };
  },
};

export const hostPorts: CheckDefinition = {
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

export const appArmorProfile: CheckDefinition = {
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

export const seLinuxOptions: CheckDefinition = {
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

export function procMountFailure(ctx: CheckContext): CheckFailure | undefined {
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

export const procMount: CheckDefinition = {
  id: 'procMount',
  level: 'baseline',
  since: 0,
  run(ctx) {
    // from 1.35, any procMount is allowed at baseline for user-namespaced pods (hostUsers: false).
    if (ctx.minor >= 35 && ctx.userNamespace) return undefined;
    return procMountFailure(ctx);
  },
};

export const seccompProfileBaseline: CheckDefinition = {
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

export const sysctls: CheckDefinition = {
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

export const hostProbesAndHostLifecycle: CheckDefinition = {
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
