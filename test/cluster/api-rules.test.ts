// The API server's validation of workloads, as the review's NA-API-REJECTED transcribes it (src/model/_pod-spec-api-rules.ts,
// src/model/_workload-api-rules.ts): for each case, the invalid manifest and its valid variant are created with a
// dry run; the review reports NA-API-REJECTED exactly for the one the server refuses, on the field the server names,
// and the server's own message is the one written here. The review's rules are the server's: not looser, and not
// stricter by accident.
import { agentDaemonSet, dryRunCreate, withNamespace } from './cluster';
import { Kube } from './kube';
import { SecurityReview } from '../../src';

const kube = Kube.fromKubeconfig();
const NAMESPACE = 'api-rules';
const image = 'registry.example.com/node-agent:1.2.0';
withNamespace(kube, NAMESPACE);

/** a DaemonSet the server and the review accept: a port, a hostPath mount, a toleration to vary. */
function daemonSet(): any {
  return agentDaemonSet(NAMESPACE, {
    containers: [{
      name: 'agent',
      image,
      ports: [{ name: 'metrics', containerPort: 9100, protocol: 'TCP' }],
      volumeMounts: [{ name: 'logs', mountPath: '/host/logs', readOnly: true }],
    }],
    volumes: [{ name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } }],
    tolerations: [{ key: 'example.com/dedicated', operator: 'Exists', effect: 'NoSchedule' }],
  });
}

const pod = (ds: any) => ds.spec.template.spec;
const container = (ds: any) => pod(ds).containers[0];

/** another workload kind around the DaemonSet's pod spec. */
function asKind(kind: 'Deployment' | 'StatefulSet' | 'Job' | 'CronJob', change: (podSpec: any) => void = () => undefined): any {
  const ds = daemonSet();
  const template = ds.spec.template;
  change(template.spec);
  const metadata = { name: 'agent', namespace: NAMESPACE };
  switch (kind) {
    case 'Deployment': return { apiVersion: 'apps/v1', kind, metadata, spec: { selector: ds.spec.selector, template } };
    case 'StatefulSet': return { apiVersion: 'apps/v1', kind, metadata, spec: { serviceName: 'agent', selector: ds.spec.selector, template } };
    case 'Job': return { apiVersion: 'batch/v1', kind, metadata, spec: { template } };
    case 'CronJob': return { apiVersion: 'batch/v1', kind, metadata, spec: { schedule: '0 * * * *', jobTemplate: { spec: { template } } } };
  }
}

function withName<T>(manifest: T & { metadata: any }, name: string): T {
  manifest.metadata.name = name;
  return manifest;
}

function changed(change: (ds: any) => void): any {
  const ds = daemonSet();
  change(ds);
  return ds;
}

interface Case {
  readonly name: string;
  readonly valid: any;
  readonly invalid: any;
  /** the field of the review's finding. */
  readonly field: string;
  /** the server's cause for the invalid manifest (its field, when it names another, and the end of its message). */
  readonly server: { field?: string; message: string };
}

const TPL = 'spec.template.spec';
const CASES: Case[] = [
  // object names: ValidateDaemonSetName / ValidateStatefulSetName / the CronJob's 52 characters
  {
    name: 'a DaemonSet name with capitals and "_"',
    valid: withName(daemonSet(), 'node-agent.v1'),
    invalid: withName(daemonSet(), 'Node_Agent'),
    field: 'metadata.name',
    server: { message: 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')' },
  },
  {
    name: 'a StatefulSet name with a dot (a DNS label is required)',
    valid: withName(asKind('StatefulSet'), 'node-agent-v1'),
    invalid: withName(asKind('StatefulSet'), 'node-agent.v1'),
    field: 'metadata.name',
    server: { message: 'must not contain dots' },
  },
  {
    name: 'a CronJob name of 53 characters',
    valid: withName(asKind('CronJob', (p) => { p.restartPolicy = 'OnFailure'; }), 'a'.repeat(52)),
    invalid: withName(asKind('CronJob', (p) => { p.restartPolicy = 'OnFailure'; }), 'a'.repeat(53)),
    field: 'metadata.name',
    server: { message: 'must be no more than 52 characters' },
  },
  // container names: validateContainerCommon, validateContainers, validateInitContainers
  {
    name: 'a container name with capitals',
    valid: changed((ds) => { container(ds).name = 'agent-1'; }),
    invalid: changed((ds) => { container(ds).name = 'Agent'; }),
    field: `${TPL}.containers[0].name`,
    server: { message: 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')' },
  },
  {
    name: 'a container name with a dot',
    valid: changed((ds) => { container(ds).name = 'agent-v1'; }),
    invalid: changed((ds) => { container(ds).name = 'agent.v1'; }),
    field: `${TPL}.containers[0].name`,
    server: { message: 'must not contain dots' },
  },
  {
    name: 'two containers with one name',
    valid: changed((ds) => { pod(ds).containers.push({ name: 'sidecar', image }); }),
    invalid: changed((ds) => { pod(ds).containers.push({ name: 'agent', image }); }),
    field: `${TPL}.containers[1].name`,
    server: { message: 'Duplicate value: "agent"' },
  },
  {
    name: 'an init container named as a container',
    valid: changed((ds) => { pod(ds).initContainers = [{ name: 'setup', image }]; }),
    invalid: changed((ds) => { pod(ds).initContainers = [{ name: 'agent', image }]; }),
    field: `${TPL}.initContainers[0].name`,
    server: { message: 'Duplicate value: "agent"' },
  },
  // ports: validateContainerPorts
  {
    name: 'a containerPort above 65535',
    valid: changed((ds) => { container(ds).ports[0].containerPort = 65535; }),
    invalid: changed((ds) => { container(ds).ports[0].containerPort = 65536; }),
    field: `${TPL}.containers[0].ports[0].containerPort`,
    server: { message: 'must be between 1 and 65535, inclusive' },
  },
  {
    name: 'a hostPort above 65535',
    valid: changed((ds) => { container(ds).ports[0].hostPort = 9100; }),
    invalid: changed((ds) => { container(ds).ports[0].hostPort = 91000; }),
    field: `${TPL}.containers[0].ports[0].hostPort`,
    server: { message: 'must be between 1 and 65535, inclusive' },
  },
  {
    name: 'a port without containerPort',
    valid: changed((ds) => { container(ds).ports[0].containerPort = 1; }),
    invalid: changed((ds) => { delete container(ds).ports[0].containerPort; }),
    field: `${TPL}.containers[0].ports[0].containerPort`,
    server: { message: 'Required value' },
  },
  {
    name: 'protocol udp in lowercase',
    valid: changed((ds) => { container(ds).ports[0].protocol = 'UDP'; }),
    invalid: changed((ds) => { container(ds).ports[0].protocol = 'udp'; }),
    field: `${TPL}.containers[0].ports[0].protocol`,
    server: { message: 'Unsupported value: "udp": supported values: "SCTP", "TCP", "UDP"' },
  },
  {
    name: 'protocol HTTP',
    valid: changed((ds) => { container(ds).ports[0].protocol = 'SCTP'; }),
    invalid: changed((ds) => { container(ds).ports[0].protocol = 'HTTP'; }),
    field: `${TPL}.containers[0].ports[0].protocol`,
    server: { message: 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"' },
  },
  // restart policies: ValidateDaemonSetSpec, ValidatePodTemplateSpecForReplicaSet, ValidateJobSpec
  {
    name: 'restartPolicy Never in a DaemonSet',
    valid: changed((ds) => { pod(ds).restartPolicy = 'Always'; }),
    invalid: changed((ds) => { pod(ds).restartPolicy = 'Never'; }),
    field: `${TPL}.restartPolicy`,
    server: { message: 'Unsupported value: "Never": supported values: "Always"' },
  },
  {
    name: 'restartPolicy OnFailure in a Deployment',
    valid: asKind('Deployment'),
    invalid: asKind('Deployment', (p) => { p.restartPolicy = 'OnFailure'; }),
    field: `${TPL}.restartPolicy`,
    server: { message: 'Unsupported value: "OnFailure": supported values: "Always"' },
  },
  {
    name: 'a Job without restartPolicy',
    valid: asKind('Job', (p) => { p.restartPolicy = 'Never'; }),
    invalid: asKind('Job'),
    field: `${TPL}.restartPolicy`,
    server: { message: 'Required value: valid values: "OnFailure", "Never"' },
  },
  {
    name: 'restartPolicy in lowercase',
    valid: asKind('Job', (p) => { p.restartPolicy = 'OnFailure'; }),
    invalid: asKind('Job', (p) => { p.restartPolicy = 'onFailure'; }),
    field: `${TPL}.restartPolicy`,
    server: { message: 'Unsupported value: "onFailure": supported values: "Always", "OnFailure", "Never"' },
  },
  // volumes: ValidateVolumes, ValidateVolumeMounts
  {
    name: 'a mount of a volume the pod does not have',
    valid: changed((ds) => { container(ds).volumeMounts[0].name = 'logs'; }),
    invalid: changed((ds) => { container(ds).volumeMounts[0].name = 'log'; }),
    field: `${TPL}.containers[0].volumeMounts[0].name`,
    server: { message: 'Not found: "log"' },
  },
  {
    // ValidateStatefulSetSpec validates the template with a volume for each volumeClaimTemplate
    name: 'a StatefulSet mounting a volume that is neither a pod volume nor a volumeClaimTemplate',
    valid: (() => {
      const sts = asKind('StatefulSet', (spec) => { spec.containers[0].volumeMounts.push({ name: 'data', mountPath: '/data' }); });
      sts.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } }];
      return sts;
    })(),
    invalid: (() => {
      const sts = asKind('StatefulSet', (spec) => { spec.containers[0].volumeMounts.push({ name: 'data', mountPath: '/data' }); });
      sts.spec.volumeClaimTemplates = [{ metadata: { name: 'state' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } }];
      return sts;
    })(),
    field: `${TPL}.containers[0].volumeMounts[1].name`,
    server: { message: 'Not found: "data"' },
  },
  {
    name: 'two volumes with one name',
    valid: changed((ds) => { pod(ds).volumes.push({ name: 'journal', hostPath: { path: '/run/log/journal', type: 'Directory' } }); }),
    invalid: changed((ds) => { pod(ds).volumes.push({ name: 'logs', hostPath: { path: '/run/log/journal', type: 'Directory' } }); }),
    field: `${TPL}.volumes[1].name`,
    server: { message: 'Duplicate value: "logs"' },
  },
  {
    name: 'a volume name with capitals',
    valid: changed((ds) => { pod(ds).volumes[0].name = 'var-log'; container(ds).volumeMounts[0].name = 'var-log'; }),
    invalid: changed((ds) => { pod(ds).volumes[0].name = 'varLog'; container(ds).volumeMounts[0].name = 'varLog'; }),
    field: `${TPL}.volumes[0].name`,
    server: { message: 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')' },
  },
  // host paths: validateHostPathVolumeSource
  {
    name: '".." in a host path',
    valid: changed((ds) => { pod(ds).volumes[0].hostPath.path = '/var/log/..data'; }),
    invalid: changed((ds) => { pod(ds).volumes[0].hostPath.path = '/var/log/../lib'; }),
    field: `${TPL}.volumes[0].hostPath.path`,
    server: { message: 'must not contain \'..\'' },
  },
  {
    name: 'a relative host path (the server accepts it) against ".." alone',
    valid: changed((ds) => { pod(ds).volumes[0].hostPath.path = 'var/log'; }),
    invalid: changed((ds) => { pod(ds).volumes[0].hostPath.path = '..'; }),
    field: `${TPL}.volumes[0].hostPath.path`,
    server: { message: 'must not contain \'..\'' },
  },
  {
    name: 'a host path type in lowercase',
    valid: changed((ds) => { pod(ds).volumes[0].hostPath.type = 'DirectoryOrCreate'; }),
    invalid: changed((ds) => { pod(ds).volumes[0].hostPath.type = 'directory'; }),
    field: `${TPL}.volumes[0].hostPath.type`,
    server: { message: 'Unsupported value: "directory": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"' },
  },
  // tolerations: ValidateTolerations
  {
    name: 'a toleration with operator Exists and a value',
    valid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { operator: 'Equal', value: 'agents' }); }),
    invalid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { value: 'agents' }); }),
    field: `${TPL}.tolerations[0].value`,
    server: { field: `${TPL}.tolerations[0].operator`, message: 'Invalid value: "agents": value must be empty when `operator` is \'Exists\'' },
  },
  {
    name: 'a toleration effect in lowercase',
    valid: changed((ds) => { pod(ds).tolerations[0].effect = 'PreferNoSchedule'; }),
    invalid: changed((ds) => { pod(ds).tolerations[0].effect = 'noSchedule'; }),
    field: `${TPL}.tolerations[0].effect`,
    server: { message: 'Unsupported value: "noSchedule": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"' },
  },
  {
    name: 'a toleration operator in lowercase',
    valid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { operator: 'Equal', value: 'true' }); }),
    invalid: changed((ds) => { pod(ds).tolerations[0].operator = 'exists'; }),
    field: `${TPL}.tolerations[0].operator`,
    server: { message: 'Unsupported value: "exists": supported values: "Equal", "Exists"' },
  },
  {
    name: 'a toleration key that is no label key',
    valid: changed((ds) => { pod(ds).tolerations[0].key = 'example.com/dedicated_pool'; }),
    invalid: changed((ds) => { pod(ds).tolerations[0].key = 'example.com/dedicated pool'; }),
    field: `${TPL}.tolerations[0].key`,
    server: { message: 'name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')' },
  },
  {
    name: 'a toleration without key and operator Equal',
    valid: changed((ds) => { pod(ds).tolerations[0] = { operator: 'Exists' }; }),
    invalid: changed((ds) => { pod(ds).tolerations[0] = { operator: 'Equal', effect: 'NoSchedule' }; }),
    field: `${TPL}.tolerations[0].operator`,
    server: { message: 'operator must be Exists when `key` is empty, which means "match all values and all keys"' },
  },
  {
    name: 'tolerationSeconds with effect NoSchedule',
    valid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { effect: 'NoExecute', tolerationSeconds: 300 }); }),
    invalid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { tolerationSeconds: 300 }); }),
    field: `${TPL}.tolerations[0].effect`,
    server: { message: 'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set' },
  },
  {
    name: 'a toleration value that is no label value',
    valid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { operator: 'Equal', value: 'pool_a.1' }); }),
    invalid: changed((ds) => { Object.assign(pod(ds).tolerations[0], { operator: 'Equal', value: 'pool a' }); }),
    field: `${TPL}.tolerations[0].value`,
    server: { field: `${TPL}.tolerations[0].operator`, message: 'a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')' },
  },
];

const serverSays = (manifest: any) => dryRunCreate(kube, manifest);

function rejectedFields(manifest: any): string[] {
  return SecurityReview.review([manifest]).workloads.flatMap((w) => w.findings).filter((f) => f.rule === 'NA-API-REJECTED').map((f) => f.field ?? '');
}

describe.each(CASES.map((c) => [c.name, c]))('%s', (_name, c) => {
  test('the server accepts the valid variant, and the review reports no NA-API-REJECTED', async () => {
    expect(rejectedFields(c.valid)).toEqual([]);
    expect(await serverSays(c.valid)).toEqual({ status: 201, causes: [] });
  });

  test('the server refuses the invalid one with its message, and the review reports NA-API-REJECTED on that field', async () => {
    expect(rejectedFields(c.invalid)).toEqual([c.field]);
    const answer = await serverSays(c.invalid);
    expect(answer.status).toBe(422);
    expect(answer.causes).toContainEqual({ field: c.server.field ?? c.field, message: expect.stringContaining(c.server.message) });
  });
});
