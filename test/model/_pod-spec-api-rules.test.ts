import { PodSpecValidation } from '../../src';

// Cases transcribed from Kubernetes' own validation tests (k8s.io/kubernetes v1.37.2,
// pkg/apis/core/validation/validation_test.go), cited by test and case name; the integration suite
// (test/cluster/api-rules.test.ts) checks each rule and its valid variant against a real API server.

const c = (name: string, extra: any = {}) => ({ name, image: 'image:1', ...extra });
const fields = (spec: any) => PodSpecValidation.check(spec).map((v) => v.field);
const withPorts = (...ports: any[]) => ({ containers: [c('abc', { ports })] });
const withTolerations = (...tolerations: any[]) => ({ containers: [c('abc')], tolerations });
const withHostPath = (hostPath: any) => ({ containers: [c('abc', { volumeMounts: [{ name: 'host', mountPath: '/host' }] })], volumes: [{ name: 'host', hostPath }] });

describe('container names', () => {
  test('TestValidateContainers "zero-length name": the container has no name (one finding, the required field\'s; an ephemeral container\'s too)', () => {
    expect(PodSpecValidation.check({ containers: [{ image: 'image:1' }] })).toEqual([expect.objectContaining({
      field: 'containers[0].name', message: 'spec.containers[0] has no name, which the API server requires',
    })]);
    expect(PodSpecValidation.check({ containers: [c('abc')], ephemeralContainers: [{ image: 'image:1' }] })).toEqual([expect.objectContaining({
      field: 'ephemeralContainers[0].name', message: 'ephemeralContainers[0] has no name, which every container requires',
    })]);
  });

  test('TestValidateContainers "name > 63 characters" and "name not a DNS label"', () => {
    expect(fields({ containers: [c('a'.repeat(64))] })).toEqual(['containers[0].name']);
    const [v] = PodSpecValidation.check({ containers: [c('a.b.c')] });
    expect(v).toMatchObject({ field: 'containers[0].name', container: 'a.b.c', message: 'its name "a.b.c" must not contain dots', fix: 'rename it, e.g. to "a-b-c"' });
    expect(PodSpecValidation.check({ containers: [c('Agent_1')] })[0].message).toBe(
      'its name "Agent_1" is not a lowercase RFC 1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)');
    expect(fields({ containers: [c('a'.repeat(63)), c('123-abc')] })).toEqual([]);
  });

  test('TestValidateContainers "name not unique"; TestValidateInitContainers "duplicate name" (an init container named as a container)', () => {
    expect(PodSpecValidation.check({ containers: [c('abc'), c('abc')] })).toEqual([expect.objectContaining({
      field: 'containers[1].name', container: 'abc', message: 'its name is also the name of containers[0]: container names are unique across initContainers, containers and ephemeralContainers',
    })]);
    expect(fields({ initContainers: [c('abc')], containers: [c('abc')] })).toEqual(['initContainers[0].name']);
    expect(fields({ initContainers: [c('init')], containers: [c('abc')], ephemeralContainers: [c('abc')] })).toEqual(['ephemeralContainers[0].name']);
  });
});

describe('ports (validateContainerPorts)', () => {
  test('TestValidatePorts success cases: TCP, UDP, SCTP, a hostPort, no name', () => {
    expect(fields(withPorts(
      { name: 'abc', containerPort: 80, hostPort: 80, protocol: 'TCP' }, { name: 'easy', containerPort: 82, protocol: 'TCP' },
      { name: 'as', containerPort: 83, protocol: 'UDP' }, { name: 'do-re-me', containerPort: 84, protocol: 'SCTP' }, { containerPort: 85, protocol: 'TCP' },
    ))).toEqual([]);
    // an unset protocol is TCP by defaulting
    expect(fields(withPorts({ containerPort: 80 }))).toEqual([]);
  });

  test('TestValidatePorts "zero container port" and "invalid container port"', () => {
    expect(PodSpecValidation.check(withPorts({ containerPort: 0, protocol: 'TCP' }))[0]).toMatchObject({
      field: 'containers[0].ports[0].containerPort', message: 'port 0 has no containerPort, which every port requires',
    });
    expect(fields(withPorts({ protocol: 'TCP' }))).toEqual(['containers[0].ports[0].containerPort']);
    expect(PodSpecValidation.check(withPorts({ containerPort: 65536, protocol: 'TCP' }))[0].message).toBe('containerPort 65536 is not a port number (1 to 65535)');
    expect(fields(withPorts({ containerPort: -1 }))).toEqual(['containers[0].ports[0].containerPort']);
  });

  test('TestValidatePorts "invalid host port"', () => {
    expect(PodSpecValidation.check(withPorts({ containerPort: 80, hostPort: 65536, protocol: 'TCP' }))[0]).toMatchObject({
      field: 'containers[0].ports[0].hostPort', message: 'hostPort 65536 is not a port number (1 to 65535)',
    });
    expect(fields(withPorts({ containerPort: 80, hostPort: 0 }))).toEqual([]);
  });

  test('TestValidatePorts "invalid protocol case" and "invalid protocol": compared exactly', () => {
    expect(PodSpecValidation.check(withPorts({ containerPort: 80, protocol: 'tcp' }))[0]).toMatchObject({
      field: 'containers[0].ports[0].protocol',
      message: 'protocol "tcp" is none of TCP, UDP, SCTP (the server compares them exactly, in capitals)',
      fix: 'write protocol: TCP',
    });
    expect(PodSpecValidation.check(withPorts({ containerPort: 80, protocol: 'ICMP' }))[0].fix).toBe('set protocol to TCP, UDP or SCTP, or remove it (TCP)');
  });
});

describe('volumes and their mounts (ValidateVolumes, ValidateVolumeMounts)', () => {
  test('TestValidateContainers "unknown volume name"', () => {
    expect(PodSpecValidation.check({ containers: [c('abc', { volumeMounts: [{ name: 'anything', mountPath: '/foo' }] })] })).toEqual([expect.objectContaining({
      field: 'containers[0].volumeMounts[0].name', container: 'abc', message: 'mounts volume "anything", which the pod does not have', fix: 'add the volume to spec.volumes, or remove the mount',
    })]);
  });

  test('TestValidateVolumes "name not unique" and "name not a DNS label"', () => {
    const spec = (volumes: any[]) => ({ containers: [c('abc')], volumes });
    expect(PodSpecValidation.check(spec([{ name: 'abc', emptyDir: {} }, { name: 'abc', emptyDir: {} }]))).toEqual([expect.objectContaining({
      field: 'volumes[1].name', message: 'volume name "abc" is used twice: each volume of a pod has its own name',
    })]);
    expect(fields(spec([{ name: 'a.b.c', emptyDir: {} }]))).toEqual(['volumes[0].name']);
    expect(fields(spec([{ emptyDir: {} }]))).toEqual(['volumes[0].name']);
    expect(fields(spec([{ name: 'abc-123', emptyDir: {} }]))).toEqual([]);
  });
});

describe('host paths (validateHostPathVolumeSource)', () => {
  test('TestValidateVolumes "invalid HostPath backsteps": a ".." segment, anywhere', () => {
    expect(PodSpecValidation.check(withHostPath({ path: '/mnt/path/..', type: 'Directory' }))).toEqual([expect.objectContaining({
      field: 'volumes[0].hostPath.path', message: 'host path "/mnt/path/.." contains "..", which the API server refuses in a hostPath',
    })]);
    expect(fields(withHostPath({ path: '../etc' }))).toEqual(['volumes[0].hostPath.path']);
  });

  test('a segment that only starts with ".." and a relative path are accepted, as by the server', () => {
    expect(fields(withHostPath({ path: '/var/lib/..data' }))).toEqual([]);
    expect(fields(withHostPath({ path: 'var/log' }))).toEqual([]);
  });

  test('TestValidateVolumes "invalid HostPath type": an unknown type', () => {
    expect(PodSpecValidation.check(withHostPath({ path: '/mnt/path', type: 'invalid' }))[0]).toMatchObject({
      field: 'volumes[0].hostPath.type', fix: 'set type to Directory, File, Socket (or another of the types listed), or remove it',
    });
    expect(PodSpecValidation.check(withHostPath({ path: '/mnt/path', type: 'socket' }))[0].fix).toBe('write type: Socket');
    for (const type of ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice']) {
      expect(fields(withHostPath({ path: '/mnt/path', type }))).toEqual([]);
    }
  });
});

describe('tolerations (ValidateTolerations)', () => {
  test('TestValidatePod "invalid toleration key"', () => {
    expect(fields(withTolerations({ key: 'nospecialchars^=@', operator: 'Equal', value: 'bar', effect: 'NoSchedule' }))).toEqual(['tolerations[0].key']);
  });

  test('TestValidatePod "invalid toleration operator"', () => {
    expect(PodSpecValidation.check(withTolerations({ key: 'foo', operator: 'In', value: 'bar', effect: 'NoSchedule' }))).toEqual([expect.objectContaining({
      field: 'tolerations[0].operator', message: 'toleration 0: operator "In" is neither Equal nor Exists (compared exactly)',
    })]);
    expect(PodSpecValidation.check(withTolerations({ key: 'foo', operator: 'exists' }))[0].fix).toBe('write operator: Exists');
  });

  test('TestValidatePod "value must be empty when `operator` is \'Exists\'"', () => {
    expect(PodSpecValidation.check(withTolerations({ key: 'foo', operator: 'Exists', value: 'bar', effect: 'NoSchedule' }))).toEqual([expect.objectContaining({
      field: 'tolerations[0].value',
      message: 'toleration 0 has operator Exists with value "bar": Exists matches any value and takes none',
      fix: 'remove the value, or use operator: Equal to match "bar" only',
    })]);
  });

  test('TestValidatePod "operator must be \'Exists\' when `key` is empty"', () => {
    expect(fields(withTolerations({ operator: 'Equal', value: 'bar', effect: 'NoSchedule' }))).toEqual(['tolerations[0].operator']);
    expect(fields(withTolerations({ value: 'bar' }))).toEqual(['tolerations[0].operator']);
    expect(fields(withTolerations({ operator: 'Exists' }))).toEqual([]);
  });

  test('TestValidatePod "effect must be \'NoExecute\' when `TolerationSeconds` is set"', () => {
    expect(fields(withTolerations({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 20 }))).toEqual(['tolerations[0].effect']);
    expect(fields(withTolerations({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }))).toEqual([]);
  });

  test('an Equal value must be a label value; an effect one of NoSchedule, PreferNoSchedule, NoExecute', () => {
    expect(fields(withTolerations({ key: 'foo', operator: 'Equal', value: 'a b' }))).toEqual(['tolerations[0].value']);
    expect(fields(withTolerations({ key: 'foo', value: 'a'.repeat(64) }))).toEqual(['tolerations[0].value']);
    expect(PodSpecValidation.check(withTolerations({ key: 'foo', operator: 'Exists', effect: 'noexecute' }))[0]).toMatchObject({
      field: 'tolerations[0].effect', fix: 'write effect: NoExecute',
    });
    expect(fields(withTolerations({ key: 'foo', operator: 'Exists', effect: 'PreferNoSchedule' }, { key: 'foo', value: 'bar', effect: 'NoExecute' }))).toEqual([]);
  });
});

describe('the pod\'s restartPolicy (validateRestartPolicy)', () => {
  test('TestValidateRestartPolicy: Always, OnFailure, Never; anything else is refused', () => {
    for (const restartPolicy of ['Always', 'OnFailure', 'Never']) expect(fields({ containers: [c('abc')], restartPolicy })).toEqual([]);
    expect(PodSpecValidation.check({ containers: [c('abc')], restartPolicy: 'UnknowPolicy' })).toEqual([expect.objectContaining({
      field: 'restartPolicy', message: 'restartPolicy "UnknowPolicy" is none of Always, OnFailure, Never (compared exactly)',
    })]);
  });
});
