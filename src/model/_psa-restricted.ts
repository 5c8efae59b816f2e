/**
 * Internal: the Pod Security Standards restricted checks, one per pod-security-admission check ID
 * (staging/src/k8s.io/pod-security-admission/policy/check_*.go), over plain PodSpec JSON: undefined when the check passes,
 * or PSA's forbidden reason and detail when it fails.
 */
import { object } from './_pod-spec';
import { procMountFailure } from './_psa-baseline';
import {
  CheckDefinition, allowedVolumeSources, capabilityList, containerPath, containersPhrase, isSet, joinQuote, pluralize,
  setters, sortedSet, str, validSeccomp, volumeSources,
} from './_psa-common';
// ---------------------------------------------------------------------------------------------
// restricted checks

export const restrictedVolumes: CheckDefinition = {
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

export const allowPrivilegeEscalation: CheckDefinition = {
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

export const runAsNonRoot: CheckDefinition = {
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

export const runAsUser: CheckDefinition = {
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

export const seccompProfileRestricted: CheckDefinition = {
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

export const capabilitiesRestricted: CheckDefinition = {
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

export const procMountRestricted: CheckDefinition = {
  id: 'procMount_restricted',
  level: 'restricted',
  since: 35,
  overrides: 'procMount',
  run(ctx) {
    // no user-namespace relaxation at restricted level.
    return procMountFailure(ctx);
  },
};
