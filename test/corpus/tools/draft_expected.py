#!/usr/bin/env python3
"""Draft the mechanical part of <name>.expected.yaml straight from a manifest (an aid to reading it, not an oracle).

This is an independent reading of the manifest: it shares no code with cdk8s-node-agents and never runs it.
It lists what can be read off the YAML mechanically (host paths with every mount, host namespaces, ports, privileged,
capabilities, user/group settings, images, update strategy, env literals, the ServiceAccount's bindings and their
rules). Everything it writes was then checked by hand against the manifest, and the judgments (which rights matter,
which tags float, which env values are secrets, notes) were written or corrected by hand; see README.md.

usage: draft_expected.py NAME   (reads .corpus/NAME.yaml, which test/corpus/fetch.js writes at the repository's
       root, and prints a draft on stdout)
"""
import re
import sys
from pathlib import Path

import yaml

WORKLOAD_KINDS = {'DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod'}
FLOATING = re.compile(r'^(latest|main|master|edge|nightly|canary|dev|develop|stable|head|rolling|snapshot)([-_.].*)?$|'
                      r'.*[-_.](latest|nightly|canary|edge|snapshot)$', re.I)
SECRETISH = re.compile(r'PASS(WORD)?|SECRET|TOKEN|API_?KEY|AUTH|CREDENTIAL|PRIVATE', re.I)
READ = {'get', 'list', 'watch'}


def docs(path):
    for d in yaml.safe_load_all(Path(path).read_text()):
        if not isinstance(d, dict):
            continue
        if d.get('kind') == 'List':
            yield from (i for i in d.get('items') or [] if isinstance(i, dict))
        else:
            yield d


def image_info(ref):
    digest = None
    if '@' in ref:
        ref, digest = ref.split('@', 1)
    last = ref.rsplit('/', 1)[-1]
    tag = last.split(':', 1)[1] if ':' in last else None
    floating = digest is None and (tag is None or bool(FLOATING.match(tag)))
    return {'tag': tag, 'digest': digest, 'pinned': not floating, 'floating': floating}


BASELINE_CAPS = {'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
                 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT'}
SAFE_SYSCTLS = {'kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies',
                'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.ip_local_reserved_ports',
                'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
                'net.ipv4.tcp_keepalive_probes', 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'}


def baseline_failures(ps, annotations, version):
    """The baseline checks a pod spec fails, by the Pod Security Standards (version: (1, minor))."""
    out = set()
    psc = ps.get('securityContext') or {}
    cs = (ps.get('initContainers') or []) + (ps.get('containers') or []) + (ps.get('ephemeralContainers') or [])
    scs = [c.get('securityContext') or {} for c in cs]
    if (psc.get('windowsOptions') or {}).get('hostProcess') or any((sc.get('windowsOptions') or {}).get('hostProcess') for sc in scs):
        out.add('windowsHostProcess')
    if ps.get('hostNetwork') or ps.get('hostPID') or ps.get('hostIPC'):
        out.add('hostNamespaces')
    if any(sc.get('privileged') for sc in scs):
        out.add('privileged')
    if any(set((sc.get('capabilities') or {}).get('add') or []) - BASELINE_CAPS for sc in scs):
        out.add('capabilities_baseline')
    if any('hostPath' in v for v in ps.get('volumes') or []):
        out.add('hostPathVolumes')
    if any(p.get('hostPort') for c in cs for p in c.get('ports') or []):
        out.add('hostPorts')
    aa = [(psc.get('appArmorProfile') or {}).get('type')] + [(sc.get('appArmorProfile') or {}).get('type') for sc in scs]
    if 'Unconfined' in aa or any(k.startswith('container.apparmor.security.beta.kubernetes.io/') and v == 'unconfined'
                                 for k, v in (annotations or {}).items()):
        out.add('appArmorProfile')
    sel_types = {'', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'}
    for so in [psc.get('seLinuxOptions')] + [sc.get('seLinuxOptions') for sc in scs]:
        if so and (so.get('type', '') not in sel_types or so.get('user') or so.get('role')):
            out.add('seLinuxOptions')
    if any(sc.get('procMount') not in (None, 'Default') for sc in scs):
        out.add('procMount')
    sp = [(psc.get('seccompProfile') or {}).get('type')] + [(sc.get('seccompProfile') or {}).get('type') for sc in scs]
    if 'Unconfined' in sp:
        out.add('seccompProfile_baseline')
    if any(s['name'] not in SAFE_SYSCTLS for s in psc.get('sysctls') or []):
        out.add('sysctls')
    if version >= (1, 34):
        for c in cs:
            handlers = [c.get(k) for k in ('livenessProbe', 'readinessProbe', 'startupProbe')]
            handlers += [(c.get('lifecycle') or {}).get(k) for k in ('postStart', 'preStop')]
            for h in handlers:
                if h and ((h.get('httpGet') or {}).get('host') or (h.get('tcpSocket') or {}).get('host')):
                    out.add('hostProbesAndHostLifecycle')
    return sorted(out)


def restricted_failures(ps):
    """The restricted-only checks a pod spec fails (for pods that pass baseline)."""
    out = set()
    psc = ps.get('securityContext') or {}
    cs = (ps.get('initContainers') or []) + (ps.get('containers') or []) + (ps.get('ephemeralContainers') or [])
    scs = [c.get('securityContext') or {} for c in cs]
    windows = (ps.get('os') or {}).get('name') == 'windows'
    ok_vols = {'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret', 'image'}
    for v in ps.get('volumes') or []:
        if not set(v) - {'name'} <= ok_vols:
            out.add('restrictedVolumes')
    if not windows and any(sc.get('allowPrivilegeEscalation') is not False for sc in scs):
        out.add('allowPrivilegeEscalation')
    if psc.get('runAsNonRoot') is False or any(sc.get('runAsNonRoot') is False for sc in scs) or (
            psc.get('runAsNonRoot') is not True and any(sc.get('runAsNonRoot') is not True for sc in scs)):
        out.add('runAsNonRoot')
    if psc.get('runAsUser') == 0 or any(sc.get('runAsUser') == 0 for sc in scs):
        out.add('runAsUser')
    if not windows:
        pt = (psc.get('seccompProfile') or {}).get('type')
        if pt is not None and pt not in ('RuntimeDefault', 'Localhost'):
            out.add('seccompProfile_restricted')
        for sc in scs:
            ct = (sc.get('seccompProfile') or {}).get('type')
            if (ct or pt) not in ('RuntimeDefault', 'Localhost'):
                out.add('seccompProfile_restricted')
        for sc in scs:
            caps = sc.get('capabilities') or {}
            if 'ALL' not in (caps.get('drop') or []) or set(caps.get('add') or []) - {'NET_BIND_SERVICE'}:
                out.add('capabilities_restricted')
    return sorted(out)


def pod_spec(w):
    spec = w.get('spec') or {}
    if w['kind'] == 'Pod':
        return spec
    if w['kind'] == 'CronJob':
        return ((spec.get('jobTemplate') or {}).get('spec') or {}).get('template', {}).get('spec') or {}
    return (spec.get('template') or {}).get('spec') or {}


def effective_ns(w, all_docs):
    ns = (w.get('metadata') or {}).get('namespace')
    if ns:
        return ns, 'metadata'
    others = {(d.get('metadata') or {}).get('namespace') for d in all_docs if (d.get('metadata') or {}).get('namespace')}
    if len(others) == 1:
        return others.pop(), 'file'
    return None, 'unset'


def rule_rights(rule):
    groups = rule.get('apiGroups') or []
    res = rule.get('resources') or []
    verbs = set(rule.get('verbs') or [])
    names = rule.get('resourceNames')
    core = '' in groups or '*' in groups
    allv = '*' in verbs

    def has(resource, group_core=True):
        return (core if group_core else True) and (resource in res or '*' in res)

    out = []
    if has('secrets') and (allv or verbs & READ):
        out.append(('secrets-read', sorted(verbs & READ) if not allv else ['*']))
    if has('secrets') and (allv or verbs & {'create', 'update', 'patch', 'delete', 'deletecollection'}):
        out.append(('secrets-write', None))
    for sub, rid in (('pods/exec', 'pods-exec'), ('pods/attach', 'pods-attach'), ('nodes/proxy', 'nodes-proxy'),
                     ('serviceaccounts/token', 'serviceaccount-token'), ('pods/ephemeralcontainers', 'pods-ephemeral')):
        if core and (sub in res or '*' in res) and (allv or verbs & {'create', 'get', 'update', 'patch'}):
            out.append((rid, sorted(verbs) if not allv else ['*']))
    if has('pods') and (allv or 'create' in verbs):
        out.append(('create-pods', None))
    wl = {'deployments', 'daemonsets', 'statefulsets', 'replicasets', 'jobs', 'cronjobs', 'replicationcontrollers'}
    wlg = {'apps', 'batch', 'extensions', '', '*'}
    if set(groups) & wlg and (set(res) & wl or '*' in res) and (allv or verbs & {'create', 'update', 'patch'}):
        out.append(('write-workloads', sorted(set(res) & wl) or ['*']))
    if set(groups) & {'rbac.authorization.k8s.io', '*'}:
        rbac_res = set(res) & {'roles', 'clusterroles', '*'}
        if rbac_res and (allv or 'escalate' in verbs):
            out.append(('escalate', None))
        if rbac_res and (allv or 'bind' in verbs):
            out.append(('bind', None))
        if set(res) & {'rolebindings', 'clusterrolebindings', 'roles', 'clusterroles', '*'} and (
                allv or verbs & {'create', 'update', 'patch'}):
            out.append(('rbac-write', None))
    if (allv or 'impersonate' in verbs) and set(groups) & {'', 'authentication.k8s.io', '*'}:
        if set(res) & {'users', 'groups', 'serviceaccounts', 'uids', '*'} or any(r.startswith('userextras') for r in res):
            out.append(('impersonate', None))
    if (set(groups) & {'admissionregistration.k8s.io', '*'}) and (
            set(res) & {'mutatingwebhookconfigurations', 'validatingwebhookconfigurations', '*'}) and (
            allv or verbs & {'create', 'update', 'patch', 'delete'}):
        out.append(('webhook-config-write', None))
    if (set(groups) & {'certificates.k8s.io', '*'}) and (
            set(res) & {'certificatesigningrequests/approval', 'signers', '*'}) and (
            allv or verbs & {'update', 'patch', 'approve'}):
        out.append(('csr-approval', None))
    if '*' in groups or '*' in res or allv:
        # a wildcard grants Secrets only if it reaches the core group's secrets with a read verb
        grants = core and ('*' in res or 'secrets' in res) and (allv or bool(verbs & READ))
        out.append(('wildcard', {'grantsSecrets': grants, 'coreGroup': core}))
    if has('nodes') and (allv or verbs & {'update', 'patch', 'delete'}):
        out.append(('nodes-write', None))
    if has('pods') and (allv or verbs & {'delete', 'update', 'patch'}):
        out.append(('pods-write', None))
    return out, names


def rbac_for(sa, ns, all_docs):
    roles = {}
    for d in all_docs:
        if d.get('kind') in ('Role', 'ClusterRole'):
            # a ClusterRole is cluster-scoped: a metadata.namespace on it is ignored by the API server
            rns = (d['metadata'] or {}).get('namespace') if d['kind'] == 'Role' else None
            roles[(d['kind'], rns, d['metadata']['name'])] = d
    bindings = []
    for d in all_docs:
        if d.get('kind') not in ('RoleBinding', 'ClusterRoleBinding'):
            continue
        bns = (d['metadata'] or {}).get('namespace')
        for s in d.get('subjects') or []:
            if s.get('kind') != 'ServiceAccount' or s.get('name') != sa:
                continue
            sns = s.get('namespace') or (bns if d['kind'] == 'RoleBinding' else None)
            if sns != ns:
                continue
            bindings.append(d)
    out = []
    for b in bindings:
        ref = b['roleRef']
        bns = (b['metadata'] or {}).get('namespace')
        key = (ref['kind'], bns if ref['kind'] == 'Role' else None, ref['name'])
        role = roles.get(key)
        scope = 'cluster' if b['kind'] == 'ClusterRoleBinding' else 'namespace ' + str(bns)
        entry = {'binding': '%s %s%s' % (b['kind'], (bns + '/') if bns else '', b['metadata']['name']),
                 'role': '%s %s' % (ref['kind'], ref['name']), 'scope': scope}
        if role is None:
            entry['roleInFile'] = False
            out.append(entry)
            continue
        rules = list(role.get('rules') or [])
        if role.get('aggregationRule'):
            entry['aggregationRule'] = role['aggregationRule']
            for d in all_docs:
                if d.get('kind') != 'ClusterRole':
                    continue
                labels = (d['metadata'] or {}).get('labels') or {}
                for sel in role['aggregationRule'].get('clusterRoleSelectors') or []:
                    ml = sel.get('matchLabels') or {}
                    if ml and all(labels.get(k) == v for k, v in ml.items()):
                        entry.setdefault('aggregated', []).append(d['metadata']['name'])
                        rules += d.get('rules') or []
        entry['rights'] = []
        for r in rules:
            rights, names = rule_rights(r)
            for rid, extra in rights:
                e = {'right': rid, 'rule': {k: r[k] for k in ('apiGroups', 'resources', 'verbs', 'resourceNames') if k in r}}
                if rid == 'wildcard':
                    e.update(extra)
                entry['rights'].append(e)
        out.append(entry)
    return out


def draft(name):
    path = Path(__file__).resolve().parents[3] / '.corpus' / (name + '.yaml')
    all_docs = list(docs(path))
    result = {'manifest': name + '.yaml', 'workloads': []}
    for w in all_docs:
        if w.get('kind') not in WORKLOAD_KINDS:
            continue
        ps = pod_spec(w)
        ns, ns_from = effective_ns(w, all_docs)
        psc = ps.get('securityContext') or {}
        inits = [(c, True) for c in ps.get('initContainers') or []]
        mains = [(c, False) for c in ps.get('containers') or []]
        wl = {'kind': w['kind'], 'apiVersion': w.get('apiVersion'), 'namespace': ns, 'namespaceFrom': ns_from,
              'name': w['metadata']['name']}
        ann = ((w.get('spec') or {}).get('template') or {}).get('metadata', {}).get('annotations') or {}
        b128, b134 = baseline_failures(ps, ann, (1, 28)), baseline_failures(ps, ann, (1, 34))
        if b128 or b134:
            wl['podSecurity'] = {'level': 'privileged', 'violations': {'v1.28': b128, 'v1.34': b134}}
        else:
            r = restricted_failures(ps)
            wl['podSecurity'] = {'level': 'baseline' if r else 'restricted', 'violations': {'v1.28': r, 'v1.34': r}}
        us = (w.get('spec') or {}).get('updateStrategy')
        if w['kind'] == 'DaemonSet':
            us = us or {}
            ru = us.get('rollingUpdate') or {}
            norm = {'type': us.get('type', 'RollingUpdate'), 'explicit': 'type' in us or 'rollingUpdate' in us}
            if norm['type'] == 'RollingUpdate':
                norm['maxUnavailable'] = ru.get('maxUnavailable', 1)
                norm['maxSurge'] = ru.get('maxSurge', 0)
            wl['updateStrategy'] = norm
        host = []
        vols = {v['name']: v for v in ps.get('volumes') or []}
        for v in ps.get('volumes') or []:
            if 'hostPath' not in v:
                continue
            mounts = []
            for c, init in inits + mains:
                for m in c.get('volumeMounts') or []:
                    if m['name'] == v['name']:
                        mm = {'container': c['name'], 'init': init, 'mountPath': m['mountPath'],
                              'readOnly': bool(m.get('readOnly', False))}
                        if m.get('subPath'):
                            mm['subPath'] = m['subPath']
                        if m.get('mountPropagation'):
                            mm['mountPropagation'] = m['mountPropagation']
                        mounts.append(mm)
            host.append({'type': 'hostPath', 'volume': v['name'], 'path': v['hostPath']['path'],
                         'hostPathType': v['hostPath'].get('type', ''), 'mounts': mounts})
        for f in ('hostNetwork', 'hostPID', 'hostIPC'):
            if ps.get(f):
                host.append({'type': f})
        for c, init in inits + mains:
            for p in c.get('ports') or []:
                if p.get('hostPort') or ps.get('hostNetwork'):
                    host.append({'type': 'hostPort', 'container': c['name'], 'init': init,
                                 'port': p.get('hostPort') or p['containerPort'], 'protocol': p.get('protocol', 'TCP'),
                                 'via': 'hostPort' if p.get('hostPort') else 'hostNetwork'})
        wo = psc.get('windowsOptions') or {}
        if wo.get('hostProcess'):
            host.append({'type': 'hostProcess', 'level': 'pod', 'containers': [c['name'] for c, _ in inits + mains]})
        for c, init in inits + mains:
            sc = c.get('securityContext') or {}
            if (sc.get('windowsOptions') or {}).get('hostProcess'):
                host.append({'type': 'hostProcess', 'container': c['name'], 'init': init})
            if sc.get('privileged'):
                host.append({'type': 'privileged', 'container': c['name'], 'init': init})
            for cap in ((sc.get('capabilities') or {}).get('add') or []):
                host.append({'type': 'capability', 'capability': cap, 'container': c['name'], 'init': init})
            uid = sc.get('runAsUser', psc.get('runAsUser'))
            nonroot = sc.get('runAsNonRoot', psc.get('runAsNonRoot'))
            gid = sc.get('runAsGroup', psc.get('runAsGroup'))
            if wo.get('hostProcess') or (sc.get('windowsOptions') or {}).get('hostProcess'):
                pass
            elif uid == 0:
                host.append({'type': 'runAsRoot', 'container': c['name'], 'init': init, 'explicit': True, 'how': 'runAsUser: 0'})
            elif uid is None and nonroot is not True:
                host.append({'type': 'runAsRoot', 'container': c['name'], 'init': init, 'explicit': False,
                             'how': 'not excluded (no runAsUser, runAsNonRoot not true): the image decides'})
            if gid == 0:
                host.append({'type': 'rootGroup', 'container': c['name'], 'init': init, 'how': 'runAsGroup: 0'})
        if psc.get('fsGroup') == 0:
            host.append({'type': 'rootGroup', 'level': 'pod', 'how': 'fsGroup: 0'})
        if 0 in (psc.get('supplementalGroups') or []):
            host.append({'type': 'rootGroup', 'level': 'pod', 'how': 'supplementalGroups contains 0'})
        wl['hostAccess'] = host
        wl['containers'] = []
        for c, init in inits + mains:
            sc = c.get('securityContext') or {}
            ce = {'name': c['name'], 'init': init, 'image': c.get('image')}
            info = image_info(c.get('image', ''))
            ce.update({'tag': info['tag'], 'digest': info['digest'], 'floating': info['floating']})
            if 'allowPrivilegeEscalation' in sc:
                ce['allowPrivilegeEscalation'] = sc['allowPrivilegeEscalation']
            lits = [{'name': e['name'], 'value': e['value']} for e in c.get('env') or []
                    if 'value' in e and e['value'] not in (None, '') and SECRETISH.search(e['name'])]
            if lits:
                ce['secretLookingEnvLiterals'] = lits
            wl['containers'].append(ce)
        unused = [v for v in vols if v in {h['volume'] for h in host if h['type'] == 'hostPath' and not h['mounts']}]
        if unused:
            wl['unusedHostPathVolumes'] = unused
        sa = ps.get('serviceAccountName') or ps.get('serviceAccount') or 'default'
        wl['serviceAccount'] = sa
        if 'automountServiceAccountToken' in ps:
            wl['automountServiceAccountToken'] = ps['automountServiceAccountToken']
        wl['rbac'] = rbac_for(sa, ns, all_docs)
        result['workloads'].append(wl)
    return result


if __name__ == '__main__':
    yaml.safe_dump(draft(sys.argv[1]), sys.stdout, sort_keys=False, width=120)
