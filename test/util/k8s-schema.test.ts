import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse } from 'yaml';
import { CORE_KINDS, expectValidManifests, reachableModels, rootModelFor, synthValid, validateManifest } from './k8s-schema';

// ---------------------------------------------------------------------------------------------
// The source document's manifests (seed 000_3980c8bbcf63a0f8, "DaemonSet 节点级服务"), verbatim.

const SECTION_2_1 = `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
  namespace: observability
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: node-agent
  template:
    metadata:
      labels:
        app.kubernetes.io/name: node-agent
    spec:
      nodeSelector:
        node-role.kubernetes.io/worker: ""
      containers:
        - name: agent
          image: registry.example.com/node-agent:1.2.0
`;

const SECTION_2_2 = `
spec:
  template:
    spec:
      tolerations:
        - key: node-role.kubernetes.io/control-plane
          operator: Exists
          effect: NoSchedule
        - key: dedicated
          operator: Equal
          value: gpu
          effect: NoSchedule
      containers:
        - name: agent
          image: registry.example.com/node-agent:1.2.0
`;

const SECTION_2_3 = `
spec:
  template:
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: topology.kubernetes.io/zone
                    operator: In
                    values:
                      - ap-guangzhou-3
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              preference:
                matchExpressions:
                  - key: disk-type
                    operator: In
                    values:
                      - ssd
`;

const SECTION_3 = `
spec:
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      # 同时最多有几个节点在更新；对于关键 Agent 建议设为 1
      maxUnavailable: 1
`;

/** Section 4.2 as published: \`drop\` sits beside \`capabilities\` instead of inside it. */
const SECTION_4_2_AS_PUBLISHED = `
spec:
  template:
    spec:
      containers:
        - name: agent
          image: registry.example.com/node-agent:1.2.0
          securityContext:
            capabilities:
              add:
                - NET_ADMIN     # 仅网络管理
                - SYS_PTRACE    # 仅进程追踪（如 Falco）
            drop:
              - ALL
            readOnlyRootFilesystem: true
            runAsNonRoot: true
          volumeMounts:
            - name: varlog
              mountPath: /var/log
              readOnly: true
      volumes:
        - name: varlog
          hostPath:
            path: /var/log
            type: Directory
`;

/** Section 4.2 fixed: \`drop\` moved into \`capabilities\`. */
const SECTION_4_2_FIXED = `
spec:
  template:
    spec:
      containers:
        - name: agent
          image: registry.example.com/node-agent:1.2.0
          securityContext:
            capabilities:
              add:
                - NET_ADMIN     # 仅网络管理
                - SYS_PTRACE    # 仅进程追踪（如 Falco）
              drop:
                - ALL
            readOnlyRootFilesystem: true
            runAsNonRoot: true
          volumeMounts:
            - name: varlog
              mountPath: /var/log
              readOnly: true
      volumes:
        - name: varlog
          hostPath:
            path: /var/log
            type: Directory
`;

/** Objects merge key by key; arrays and scalars of the fragment replace the base's. */
function merge(base: any, fragment: any): any {
  if (typeof base !== 'object' || base === null || Array.isArray(base) || typeof fragment !== 'object' || fragment === null || Array.isArray(fragment)) {
    return fragment;
  }
  const out: any = { ...base };
  for (const [k, v] of Object.entries(fragment)) {
    out[k] = k in base ? merge(base[k], v) : v;
  }
  return out;
}

/** A fragment of the source document completed into a full DaemonSet (section 2.1 as the base). */
function completeDaemonSet(fragmentYaml: string): any {
  return merge(parse(SECTION_2_1), parse(fragmentYaml));
}

const STRICT_DROP_PROBLEM = 'spec.template.spec.containers[0].securityContext.drop: unknown field "drop"';

function deployment(podSpec: any = {}, spec: any = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27-alpine' }], ...podSpec },
      },
      ...spec,
    },
  };
}

describe('the source document (sections 2.1-4.2)', () => {
  test('4.2 as published is rejected at the path of the misplaced "drop", and only there', () => {
    expect(validateManifest(completeDaemonSet(SECTION_4_2_AS_PUBLISHED))).toEqual([STRICT_DROP_PROBLEM]);
  });

  test('4.2 with "drop" inside "capabilities" passes', () => {
    const ds = completeDaemonSet(SECTION_4_2_FIXED);
    expect(ds.spec.template.spec.containers[0].securityContext.capabilities.drop).toEqual(['ALL']);
    expect(validateManifest(ds)).toEqual([]);
  });

  test.each([
    ['2.1 nodeSelector', SECTION_2_1],
    ['2.2 tolerations', SECTION_2_2],
    ['2.3 nodeAffinity', SECTION_2_3],
    ['3 updateStrategy', SECTION_3],
    ['4.2 least privilege (fixed)', SECTION_4_2_FIXED],
  ])('section %s, completed into a full DaemonSet, passes', (_section, fragment) => {
    const ds = completeDaemonSet(fragment);
    expect(ds.kind).toBe('DaemonSet');
    expect(ds.spec.template.spec.containers).toHaveLength(1);
    expect(validateManifest(ds)).toEqual([]);
  });

  test('all sections combined into one DaemonSet pass', () => {
    const ds = [SECTION_2_2, SECTION_2_3, SECTION_3, SECTION_4_2_FIXED].reduce((acc, f) => merge(acc, parse(f)), parse(SECTION_2_1));
    expect(Object.keys(ds.spec.template.spec).sort()).toEqual(['affinity', 'containers', 'nodeSelector', 'tolerations', 'volumes']);
    expect(validateManifest(ds)).toEqual([]);
  });
});

describe('validateManifest rejects', () => {
  test('wrong types', () => {
    expect(validateManifest(deployment({}, { replicas: '3' }))).toEqual(['spec.replicas: must be integer']);
    expect(validateManifest(deployment({ hostNetwork: 'yes' }))).toEqual(['spec.template.spec.hostNetwork: must be boolean']);
  });

  test('an IntOrString of the wrong type, once', () => {
    const ds = completeDaemonSet(SECTION_3);
    ds.spec.updateStrategy.rollingUpdate.maxUnavailable = true;
    expect(validateManifest(ds)).toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable: must be string or integer']);
    ds.spec.updateStrategy.rollingUpdate.maxUnavailable = '10%';
    expect(validateManifest(ds)).toEqual([]);
  });

  test('a value outside an enum, naming the allowed values', () => {
    const ds = completeDaemonSet(SECTION_3);
    ds.spec.updateStrategy.type = 'Rolling';
    expect(validateManifest(ds)).toEqual(['spec.updateStrategy.type: must be equal to one of the allowed values ("OnDelete", "RollingUpdate")']);
  });

  test('a container without a name (schema) or without an image (API server)', () => {
    expect(validateManifest(deployment({ containers: [{ image: 'nginx:1.27-alpine' }] })))
      .toEqual(['spec.template.spec.containers[0]: must have required property name']);
    expect(validateManifest(deployment({ initContainers: [{ name: 'init' }] })))
      .toEqual(['spec.template.spec.initContainers[0].image: required value (the API server rejects a container without an image)']);
    expect(validateManifest(deployment({ containers: [{}] }))).toEqual([
      'spec.template.spec.containers[0]: must have required property name',
      'spec.template.spec.containers[0].image: required value (the API server rejects a container without an image)',
    ]);
  });

  test('a missing required top-level field', () => {
    const ds = parse(SECTION_2_1);
    delete ds.spec.selector;
    expect(validateManifest(ds)).toEqual(['spec: must have required property selector']);
  });

  test.each([
    ['a misspelled kind', { apiVersion: 'apps/v1', kind: 'DaemonSett' }, '"apps/v1"/"DaemonSett"'],
    ['a kind in the wrong group', { apiVersion: 'v1', kind: 'DaemonSet' }, '"v1"/"DaemonSet"'],
    ['a schema type that is not a kind', { apiVersion: 'apps/v1', kind: 'DaemonSetSpec' }, '"apps/v1"/"DaemonSetSpec"'],
    ['a removed apiVersion', { apiVersion: 'extensions/v1beta1', kind: 'DaemonSet' }, '"extensions/v1beta1"/"DaemonSet"'],
    ['no apiVersion', { kind: 'DaemonSet' }, 'undefined/"DaemonSet"'],
    ['a path in the apiVersion', { apiVersion: '../../apps/v1', kind: 'DaemonSet' }, '"../../apps/v1"/"DaemonSet"'],
  ])('an unknown apiVersion/kind: %s', (_case, obj, shown) => {
    expect(validateManifest({ ...obj, metadata: { name: 'x' } })).toEqual([`(root): unknown apiVersion/kind ${shown}`]);
  });

  test('a misspelled field (hostPid instead of hostPID)', () => {
    const ds = parse(SECTION_2_1);
    ds.spec.template.spec.hostPid = true;
    expect(validateManifest(ds)).toEqual(['spec.template.spec.hostPid: unknown field "hostPid"']);
    delete ds.spec.template.spec.hostPid;
    ds.spec.template.spec.hostPID = true;
    expect(validateManifest(ds)).toEqual([]);
  });

  test('a field that exists elsewhere but not on this kind (replicas on a DaemonSet)', () => {
    const ds = parse(SECTION_2_1);
    ds.spec.replicas = 3;
    expect(validateManifest(ds)).toEqual(['spec.replicas: unknown field "replicas"']);
  });

  test('unknown fields inside list items', () => {
    const ds = completeDaemonSet(SECTION_2_2);
    ds.spec.template.spec.tolerations[1].efect = 'NoExecute';
    const fixed = completeDaemonSet(SECTION_4_2_FIXED);
    fixed.spec.template.spec.volumes[0].hostPath.readOnly = true;
    expect(validateManifest(ds)).toEqual(['spec.template.spec.tolerations[1].efect: unknown field "efect"']);
    expect(validateManifest(fixed)).toEqual(['spec.template.spec.volumes[0].hostPath.readOnly: unknown field "readOnly"']);
  });

  test('unknown fields and wrong types inside map values', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'agents.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Agent', plural: 'agents' },
        scope: 'Namespaced',
        versions: [{
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { replicas: { type: 'integer', minimun: 1 } } } },
        }],
      },
    };
    expect(validateManifest(crd)).toEqual(['spec.versions[0].schema.openAPIV3Schema.properties.replicas.minimun: unknown field "minimun"']);

    const ds = parse(SECTION_2_1);
    ds.spec.template.spec.nodeSelector['node-role.kubernetes.io/worker'] = { enabled: true };
    expect(validateManifest(ds)).toEqual(['spec.template.spec.nodeSelector["node-role.kubernetes.io/worker"]: must be string']);
  });

  test('every problem, not only the first', () => {
    const ds = completeDaemonSet(SECTION_4_2_AS_PUBLISHED);
    ds.spec.template.spec.hostNetwork = 'yes';
    ds.spec.template.spec.hostPid = true;
    ds.spec.template.metadata.annotation = {};
    ds.spec.template.spec.containers.push({ name: 'sidecar', image: 'busybox:1.36', volumeMount: [] });
    expect(validateManifest(ds).sort()).toEqual([
      'spec.template.metadata.annotation: unknown field "annotation"',
      STRICT_DROP_PROBLEM,
      'spec.template.spec.containers[1].volumeMount: unknown field "volumeMount"',
      'spec.template.spec.hostNetwork: must be boolean',
      'spec.template.spec.hostPid: unknown field "hostPid"',
    ]);
  });

  test('something that is not an object', () => {
    expect(validateManifest([])).toEqual(['(root): a manifest must be an object, got an array']);
    expect(validateManifest('kind: Pod')).toEqual(['(root): a manifest must be an object, got "kind: Pod"']);
  });
});

describe('core kinds', () => {
  const minimal: Record<string, any> = {
    Namespace: {},
    ServiceAccount: { automountServiceAccountToken: false },
    ConfigMap: { data: { 'agent.conf': 'level=info' } },
    Secret: { type: 'Opaque', stringData: { token: 'x' } },
    Service: { spec: { selector: { app: 'a' }, ports: [{ port: 80, targetPort: 'http' }] } },
    Pod: { spec: { containers: [{ name: 'a', image: 'a:1' }] } },
    DaemonSet: { spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'a:1' }] } } } },
    Deployment: { spec: deployment().spec },
    StatefulSet: { spec: { serviceName: 'a', selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'a:1' }] } } } },
    Job: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'a:1' }] } } } },
    CronJob: { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'a', image: 'a:1' }] } } } } } },
    ClusterRole: { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }] },
    ClusterRoleBinding: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'a' }, subjects: [{ kind: 'ServiceAccount', name: 'a', namespace: 'obs' }] },
    Role: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
    RoleBinding: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a' }, subjects: [{ kind: 'ServiceAccount', name: 'a' }] },
    PriorityClass: { value: 1000000, globalDefault: false, description: 'node agents' },
    NetworkPolicy: { spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 9100, protocol: 'TCP' }] }] } },
  };

  test('every required kind is mapped, fully resolvable and has a minimal example here', () => {
    expect(CORE_KINDS.map(k => k.kind).sort()).toEqual(Object.keys(minimal).sort());
    for (const { apiVersion, kind } of CORE_KINDS) {
      const root = rootModelFor(apiVersion, kind);
      expect(root).toBe(`V1${kind}`);
      expect(reachableModels(root!).unsupported).toEqual([]);
    }
  });

  test.each(CORE_KINDS.map(k => [k.kind, k.apiVersion]))('%s (%s): a minimal object passes, a stray field fails', (kind, apiVersion) => {
    const obj = { apiVersion, kind, metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'a' } }, ...minimal[kind] };
    expect(validateManifest(obj)).toEqual([]);
    expect(validateManifest({ ...obj, sepc: {} })).toEqual(['sepc: unknown field "sepc"']);
    expect(validateManifest({ ...obj, metadata: { ...obj.metadata, label: {} } })).toEqual(['metadata.label: unknown field "label"']);
  });

  test('other kinds resolve by convention', () => {
    expect(rootModelFor('autoscaling/v2', 'HorizontalPodAutoscaler')).toBe('V2HorizontalPodAutoscaler');
    expect(rootModelFor('policy/v1', 'PodDisruptionBudget')).toBe('V1PodDisruptionBudget');
    expect(rootModelFor('v1', 'PodSpec')).toBeUndefined();
    expect(rootModelFor('v1', 'NoSuchKind')).toBeUndefined();
  });
});

describe('expectValidManifests', () => {
  test('passes valid manifests', () => {
    expect(() => expectValidManifests([parse(SECTION_2_1), completeDaemonSet(SECTION_4_2_FIXED)])).not.toThrow();
  });

  test('fails listing every problem with kind, namespace and name', () => {
    const broken = completeDaemonSet(SECTION_4_2_AS_PUBLISHED);
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [{ verbs: ['get'], resource: ['pods'] }] };
    let message = '';
    try {
      expectValidManifests([parse(SECTION_2_1), broken, role]);
    } catch (e: any) {
      message = e.message;
    }
    expect(message).toBe([
      'Invalid Kubernetes manifests (strict schema check):',
      '#1 DaemonSet observability/node-agent:',
      `  - ${STRICT_DROP_PROBLEM}`,
      '#2 ClusterRole reader:',
      '  - rules[0].resource: unknown field "resource"',
    ].join('\n'));
  });

  test('fails on nothing to validate', () => {
    expect(() => expectValidManifests([])).toThrow(/non-empty array/);
  });
});

describe('synthValid', () => {
  test('returns the manifests of a valid chart', () => {
    const chart = new Chart(Testing.app(), 'observability');
    new ApiObject(chart, 'ds', completeDaemonSet(SECTION_4_2_FIXED));
    const manifests = synthValid(chart);
    expect(manifests).toHaveLength(1);
    expect(manifests[0].spec.template.spec.containers[0].securityContext.capabilities.drop).toEqual(['ALL']);
  });

  test('fails a chart with a misplaced field', () => {
    const chart = new Chart(Testing.app(), 'observability');
    new ApiObject(chart, 'ds', completeDaemonSet(SECTION_4_2_AS_PUBLISHED));
    expect(() => synthValid(chart)).toThrow(STRICT_DROP_PROBLEM);
  });

  test('accepts what cdk8s-plus-28 and its L1 render for a node agent', () => {
    const chart = new Chart(Testing.app(), 'observability', { namespace: 'observability' });
    const sa = new kplus.ServiceAccount(chart, 'sa');
    const ds = new kplus.DaemonSet(chart, 'ds', { serviceAccount: sa, containers: [{ image: 'registry.example.com/node-agent:1.2.0' }] });
    const varlog = kplus.Volume.fromHostPath(chart, 'varlog', 'varlog', { path: '/var/log', type: kplus.HostPathVolumeType.DIRECTORY });
    ds.containers[0].mount('/var/log', varlog, { readOnly: true });
    ds.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('node-role.kubernetes.io/control-plane')));
    const role = new kplus.ClusterRole(chart, 'reader');
    role.allowRead(kplus.ApiResource.PODS);
    role.bind(sa);
    new kplus.k8s.KubeDaemonSet(chart, 'l1', {
      metadata: { name: 'l1' },
      spec: {
        selector: { matchLabels: { app: 'l1' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: kplus.k8s.IntOrString.fromNumber(1) } },
        template: {
          metadata: { labels: { app: 'l1' } },
          spec: { hostPid: true, containers: [{ name: 'a', image: 'a:1', resources: { limits: { cpu: kplus.k8s.Quantity.fromString('100m') } } }] },
        },
      },
    });
    const kinds = synthValid(chart).map(m => m.kind).sort();
    expect(kinds).toEqual(['ClusterRole', 'ClusterRoleBinding', 'DaemonSet', 'DaemonSet', 'ServiceAccount']);
  });
});
