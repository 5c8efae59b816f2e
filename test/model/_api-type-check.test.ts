import { apiDefinitionOf, apiTypeErrors } from '../../src/model/_api-type-check';
import { API_DEFINITIONS } from '../../src/model/_api-types';

// What encoding/json into the API's Go types refuses (the integration suite, test/cluster/api-types.test.ts, checks the
// cases against a real API server).

const fields = (value: unknown, definition: string) => apiTypeErrors(value, definition).map((e) => e.field);

describe('the type table', () => {
  test('holds the definitions the library reads, with the schema\'s types', () => {
    expect(API_DEFINITIONS.SecurityContext.privileged).toBe('boolean');
    expect(API_DEFINITIONS.ContainerPort.containerPort).toBe('int32');
    expect(API_DEFINITIONS.Toleration.tolerationSeconds).toBe('integer');
    expect(API_DEFINITIONS.Capabilities.add).toBe('[]string');
    expect(API_DEFINITIONS.RollingUpdateDaemonSet.maxUnavailable).toBe('int-or-string');
    expect(API_DEFINITIONS.ResourceRequirements.requests).toBe('{}quantity');
    expect(API_DEFINITIONS.PolicyRule.verbs).toBe('[]string');
    expect(API_DEFINITIONS.NodeSpec.taints).toBe('[]Taint');
  });

  test('the kinds by apiVersion and kind; other versions are not checked', () => {
    expect(apiDefinitionOf({ apiVersion: 'apps/v1', kind: 'DaemonSet' })).toBe('DaemonSet');
    expect(apiDefinitionOf({ apiVersion: 'v1', kind: 'Node' })).toBe('Node');
    expect(apiDefinitionOf({ apiVersion: 'extensions/v1beta1', kind: 'DaemonSet' })).toBeUndefined();
    expect(apiDefinitionOf({ kind: 'DaemonSet' })).toBeUndefined();
  });
});

describe('apiTypeErrors', () => {
  test('scalars: a string is no boolean or integer, a number no string; the message names the field and the value', () => {
    expect(apiTypeErrors({ privileged: 'true', runAsUser: '0', procMount: 1 }, 'SecurityContext')).toEqual([
      { field: 'privileged', message: 'privileged must be a boolean, got "true"', fix: 'write true without quotes: "true" is a string, not a boolean' },
      { field: 'runAsUser', message: 'runAsUser must be an integer, got "0"', fix: 'write 0 without quotes: "0" is a string, not a number' },
      { field: 'procMount', message: 'procMount must be a string, got 1', fix: 'quote it ("1"): YAML reads an unquoted 1 as a number' },
    ]);
  });

  test('integers are whole, int32 within 32 bits', () => {
    expect(fields({ containerPort: 80.5 }, 'ContainerPort')).toEqual(['containerPort']);
    expect(fields({ containerPort: 2 ** 31 }, 'ContainerPort')).toEqual(['containerPort']);
    expect(fields({ containerPort: 2 ** 31 - 1 }, 'ContainerPort')).toEqual([]);
    expect(fields({ tolerationSeconds: 2 ** 40 }, 'Toleration')).toEqual([]);
  });

  test('IntOrString takes an integer or a string, a quantity a string or a number', () => {
    expect(fields({ maxUnavailable: 1, maxSurge: '10%' }, 'RollingUpdateDaemonSet')).toEqual([]);
    expect(fields({ maxUnavailable: true, maxSurge: 1.5 }, 'RollingUpdateDaemonSet')).toEqual(['maxUnavailable', 'maxSurge']);
    expect(fields({ requests: { cpu: 0.5, memory: '1Gi' }, limits: { memory: [1] } }, 'ResourceRequirements')).toEqual(['limits.memory']);
  });

  test('lists and mappings, item by item, with their paths; keys that are no identifiers are quoted', () => {
    expect(fields({ add: [1, null, 'NET_RAW'], drop: 'ALL' }, 'Capabilities')).toEqual(['add[0]', 'drop']);
    expect(fields({ labels: { 'app.kubernetes.io/name': 1, 'tier': 'node' } }, 'ObjectMeta')).toEqual(['labels["app.kubernetes.io/name"]']);
    expect(fields({ containers: [{ name: { a: 1 } }] }, 'PodSpec')).toEqual(['containers[0].name']);
  });

  test('null is unset anywhere; fields the schema does not know are left alone', () => {
    expect(fields({ containers: null, hostNetwork: null, volumes: [null], unknownField: 'x' }, 'PodSpec')).toEqual([]);
  });

  test('a whole workload: the path from its root, at most the number asked', () => {
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a' }, spec: { template: { spec: { hostPID: 'yes', containers: [{ name: 'a', ports: [{ containerPort: '80' }] }] } } } };
    // in the order the manifest writes them
    expect(fields(ds, 'DaemonSet')).toEqual(['spec.template.spec.hostPID', 'spec.template.spec.containers[0].ports[0].containerPort']);
    expect(apiTypeErrors(ds, 'DaemonSet', '', 1)).toHaveLength(1);
    expect(apiTypeErrors(ds.spec, 'DaemonSetSpec', 'spec')[0].field).toBe('spec.template.spec.hostPID');
  });
});
