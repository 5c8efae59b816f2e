import { PodSpecValidation } from '../../src';

// Cases transcribed from Kubernetes' own validation tests (k8s.io/kubernetes v1.37.2,
// pkg/apis/core/validation/validation_test.go): the test and case names are cited on each. The integration suite
// (test/cluster) checks the same rules against a real API server.

const c = (name: string, extra: any = {}) => ({ name, image: 'image:1', ...extra });
const fields = (spec: any) => PodSpecValidation.check(spec).map((v) => v.field);

describe('required fields (validateContainers, validateInitContainers)', () => {
  // the API server's answers, checked in test/cluster/bad-input.test.ts: "spec.template.spec.containers: Required value",
  // "...containers[0].image: Required value", "...containers[0].name: Required value"
  test('at least one container; each container and init container with a name and an image', () => {
    expect(PodSpecValidation.check({})).toEqual([
      { field: 'containers', message: 'has no containers, and a pod needs at least one', fix: 'add a container with a name and an image to spec.containers' },
    ]);
    expect(fields({ containers: [] })).toEqual(['containers']);
    expect(PodSpecValidation.check({ containers: [{ name: 'a', image: '' }, { image: 'x' }] })).toEqual([
      { field: 'containers[0].image', container: 'a', message: 'has no image, which the API server requires', fix: 'set spec.containers[0].image' },
      { field: 'containers[1].name', message: 'spec.containers[1] has no name, which the API server requires', fix: 'set spec.containers[1].name' },
    ]);
    expect(fields({ initContainers: [{ name: 'i' }], containers: [c('a')] })).toEqual(['initContainers[0].image']);
  });

  test('an ephemeral container is not checked (a pod template cannot carry one; the server judges it on its own)', () => {
    expect(fields({ containers: [c('a')], ephemeralContainers: [{ name: 'debug' }] })).toEqual([]);
  });
});

describe('host port conflicts (checkHostPortConflicts)', () => {
  test('TestValidateContainers "host port not unique": the second container\'s port is the duplicate', () => {
    const spec = {
      containers: [
        c('abc', { ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }] }),
        c('def', { ports: [{ containerPort: 81, hostPort: 80, protocol: 'TCP' }] }),
      ],
    };
    const [v, ...rest] = PodSpecValidation.check(spec);
    expect(rest).toEqual([]);
    expect(v).toMatchObject({ field: 'containers[1].ports[0].hostPort', container: 'def' });
    expect(v.message).toBe('host port 80/TCP is also bound by container "abc": a node has each port once');
  });

  test('TestValidateContainers success "same-host-port-different-protocol": TCP and UDP are two ports', () => {
    expect(fields({ containers: [c('a', { ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }] })] })).toEqual([]);
  });

  test('an unset protocol is TCP, as defaulting makes it', () => {
    expect(fields({ containers: [c('a', { ports: [{ containerPort: 80, hostPort: 80 }] }), c('b', { ports: [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }] })] }))
      .toEqual(['containers[1].ports[0].hostPort']);
  });

  test('two hostIPs are two ports (the key is protocol/hostIP/hostPort)', () => {
    expect(fields({
      containers: [
        c('a', { ports: [{ containerPort: 80, hostPort: 80, hostIP: '10.0.0.1' }] }),
        c('b', { ports: [{ containerPort: 80, hostPort: 80, hostIP: '10.0.0.2' }] }),
      ],
    })).toEqual([]);
  });

  test('TestValidateInitContainers success "container-1/2-same-host-port-different-protocol": init containers are checked one by one', () => {
    const ports = [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }, { containerPort: 80, hostPort: 80, protocol: 'UDP' }];
    expect(fields({ initContainers: [c('container-1', { ports }), c('container-2', { ports })], containers: [c('main', { ports })] })).toEqual([]);
  });

  test('TestValidateInitContainers "duplicate ports": twice within one init container', () => {
    const ports = [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }, { containerPort: 8080, hostPort: 8080, protocol: 'TCP' }];
    expect(fields({ initContainers: [c('abc', { ports })], containers: [c('main')] })).toEqual(['initContainers[0].ports[1].hostPort']);
  });
});

describe('hostPort on the host network (validatePodHostNetworkDeps)', () => {
  test('TestValidatePodSpec "with hostNetwork hostPort not equal to containerPort"', () => {
    const violations = PodSpecValidation.check({ hostNetwork: true, containers: [c('ctr', { ports: [{ name: 'metrics', hostPort: 8080, containerPort: 2600, protocol: 'TCP' }] })] });
    expect(violations).toEqual([expect.objectContaining({
      field: 'containers[0].ports[0].hostPort',
      container: 'ctr',
      message: 'port metrics: on the host network hostPort (8080) must equal containerPort (2600)',
    })]);
  });

  test('an unset hostPort in a pod template is accepted (it is defaulted on the pod) and an equal one too', () => {
    expect(fields({ hostNetwork: true, containers: [c('ctr', { ports: [{ containerPort: 2600 }, { containerPort: 9100, hostPort: 9100 }] })] })).toEqual([]);
  });

  test('init containers are not checked, as the server does not check them', () => {
    expect(fields({ hostNetwork: true, initContainers: [c('i', { ports: [{ containerPort: 1, hostPort: 2 }] })], containers: [c('m')] })).toEqual([]);
  });

  test('off the host network, any hostPort goes', () => {
    expect(fields({ containers: [c('ctr', { ports: [{ containerPort: 2600, hostPort: 8080 }] })] })).toEqual([]);
  });
});

describe('Bidirectional mount propagation (TestValidateMountPropagation)', () => {
  const volumes = [{ name: 'foo', hostPath: { path: '/foo/baz' } }];
  const mount = (mountPropagation?: string) => ({ name: 'foo', mountPath: '/foo', mountPropagation });
  test.each([
    ['implicitly non-privileged container + no propagation', {}, undefined, false],
    ['implicitly non-privileged container + HostToContainer', {}, 'HostToContainer', false],
    ['non-privileged container + None', {}, 'None', false],
    ['implicitly non-privileged container + Bidirectional', {}, 'Bidirectional', true],
    ['explicitly non-privileged container + no propagation', { privileged: false }, undefined, false],
    ['explicitly non-privileged container + HostToContainer', { privileged: false }, 'HostToContainer', false],
    ['explicitly non-privileged container + Bidirectional', { privileged: false }, 'Bidirectional', true],
    ['privileged container + no propagation', { privileged: true }, undefined, false],
    ['privileged container + HostToContainer', { privileged: true }, 'HostToContainer', false],
    ['privileged container + Bidirectional', { privileged: true }, 'Bidirectional', false],
  ])('%s', (_, sc, propagation, rejected) => {
    const violations = PodSpecValidation.check({ volumes, containers: [c('ctr', { securityContext: sc, volumeMounts: [mount(propagation)] })] });
    expect(violations.length > 0).toBe(rejected);
    if (rejected) {
      expect(violations).toEqual([expect.objectContaining({
        field: 'containers[0].volumeMounts[0].mountPropagation',
        message: 'mounts /foo/baz with Bidirectional propagation, which Kubernetes allows only in privileged containers',
      })]);
    }
  });

  test('init containers too, and a volume that is not a hostPath is named', () => {
    const spec = { volumes: [{ name: 'scratch', emptyDir: {} }], initContainers: [c('i', { volumeMounts: [{ name: 'scratch', mountPath: '/s', mountPropagation: 'Bidirectional' }] })], containers: [c('m')] };
    expect(PodSpecValidation.check(spec).map((v) => [v.field, v.message])).toEqual([
      ['initContainers[0].volumeMounts[0].mountPropagation', 'mounts volume "scratch" with Bidirectional propagation, which Kubernetes allows only in privileged containers'],
    ]);
  });
});

describe('allowPrivilegeEscalation: false (TestValidateSecurityContext)', () => {
  test('"with privileged and allowPrivilegeEscalation false"', () => {
    expect(PodSpecValidation.check({ containers: [c('a', { securityContext: { privileged: true, allowPrivilegeEscalation: false } })] }))
      .toEqual([expect.objectContaining({ field: 'containers[0].securityContext', message: expect.stringMatching(/^sets privileged: true beside allowPrivilegeEscalation: false/) })]);
  });

  test('"with CAP_SYS_ADMIN and allowPrivilegeEscalation false": the capability as written', () => {
    expect(fields({ containers: [c('a', { securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] } } })] }))
      .toEqual(['containers[0].securityContext']);
    // the server compares the string: SYS_ADMIN (which container runtimes accept too) passes this rule
    expect(fields({ containers: [c('a', { securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['SYS_ADMIN'] } } })] })).toEqual([]);
  });

  test('privileged with allowPrivilegeEscalation unset or true is accepted', () => {
    expect(fields({ containers: [c('a', { securityContext: { privileged: true } }), c('b', { securityContext: { privileged: true, allowPrivilegeEscalation: true } })] })).toEqual([]);
  });
});

describe('input', () => {
  test('a spec that is not an object, or a list field that is not a list, fails naming the field', () => {
    expect(() => PodSpecValidation.check(null)).toThrow(/pod spec must be an object/);
    expect(() => PodSpecValidation.check({ containers: [c('a', { ports: 'oops' })] })).toThrow(/spec\.containers\[0\]\.ports must be a list/);
  });

  test('several violations come in rule order, then spec order', () => {
    const spec = {
      hostNetwork: true,
      containers: [
        c('a', { ports: [{ containerPort: 1, hostPort: 80 }] }),
        c('b', { ports: [{ containerPort: 2, hostPort: 80 }], securityContext: { privileged: true, allowPrivilegeEscalation: false } }),
      ],
    };
    expect(fields(spec)).toEqual(['containers[1].ports[0].hostPort', 'containers[0].ports[0].hostPort', 'containers[1].ports[0].hostPort', 'containers[1].securityContext']);
  });
});

describe('Windows HostProcess pods (validateWindowsHostProcessPod)', () => {
  const hp = (value?: boolean) => (value === undefined ? {} : { securityContext: { windowsOptions: { hostProcess: value } } });

  test('TestValidateWindowsHostProcessPod "pod-wide HostProcess=true, and HostNetwork unset should not validate"', () => {
    expect(PodSpecValidation.check({ ...hp(true), containers: [c('container')] }).map((v) => [v.field, v.message])).toEqual([
      ['hostNetwork', 'has HostProcess containers without hostNetwork: true, which they require'],
    ]);
  });

  test('TestValidateWindowsHostProcessPod "pod-wide HostProcess=ture, and HostNetwork set should validate"; all containers setting it, too', () => {
    expect(fields({ hostNetwork: true, ...hp(true), containers: [c('container')] })).toEqual([]);
    expect(fields({ hostNetwork: true, containers: [c('a', hp(true)), c('b', hp(true))] })).toEqual([]);
  });

  test('TestValidateWindowsHostProcessPod "some containers setting HostProcess=true, and other leaving HostProcess unset should not validate"', () => {
    const [v, ...rest] = PodSpecValidation.check({ hostNetwork: true, containers: [c('a', hp(true)), c('b')] });
    expect(rest).toEqual([]);
    expect(v).toMatchObject({ field: 'securityContext.windowsOptions.hostProcess', message: expect.stringContaining('has 1 HostProcess container beside 1 that is not') });
  });

  test('TestValidateWindowsHostProcessPod "pod-wide HostProcess=true, some containers setting HostProcess=true, and others setting HostProcess=false should not validate"', () => {
    expect(fields({ hostNetwork: true, ...hp(true), containers: [c('a', hp(true)), c('b', hp(false))] })).toEqual([
      'containers[1].securityContext.windowsOptions.hostProcess', 'securityContext.windowsOptions.hostProcess',
    ]);
  });

  test('TestValidateWindowsHostProcessPod "Non-HostProcess ephemeral container in HostProcess pod should not validate"', () => {
    expect(fields({ hostNetwork: true, ...hp(true), containers: [c('a')], ephemeralContainers: [c('debug', hp(false))] })).toEqual([
      'ephemeralContainers[0].securityContext.windowsOptions.hostProcess', 'securityContext.windowsOptions.hostProcess',
    ]);
  });
});

describe('the pod\'s OS (validateWindows, validateLinux)', () => {
  test('TestValidateWindowsSecurityContext: Linux settings cannot be set for a windows pod; windowsOptions can', () => {
    const spec = {
      os: { name: 'windows' },
      securityContext: { runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }] },
      hostPID: true,
      containers: [c('a', { securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, privileged: false, windowsOptions: { runAsUserName: 'dummy' } } })],
    };
    const violations = PodSpecValidation.check(spec);
    expect(violations.map((v) => v.field)).toEqual([
      'securityContext.seccompProfile', 'securityContext.runAsUser', 'securityContext.sysctls', 'hostPID',
      'containers[0].securityContext.readOnlyRootFilesystem', 'containers[0].securityContext.privileged', 'containers[0].securityContext.allowPrivilegeEscalation',
    ]);
    expect(violations[4]).toMatchObject({
      container: 'a',
      message: 'sets securityContext.readOnlyRootFilesystem, which cannot be set for a windows pod (spec.os.name: windows): Windows has no such setting',
    });
    expect(fields({ os: { name: 'windows' }, containers: [c('a', { securityContext: { windowsOptions: { runAsUserName: 'dummy' }, runAsNonRoot: true } })] })).toEqual([]);
  });

  test('TestValidateLinuxPodSecurityContext: windowsOptions cannot be set for a linux pod; without spec.os nothing is checked', () => {
    expect(fields({ os: { name: 'linux' }, securityContext: { windowsOptions: { runAsUserName: 'myUser' } }, containers: [c('a')] })).toEqual(['securityContext.windowsOptions']);
    expect(fields({ securityContext: { windowsOptions: { runAsUserName: 'myUser' }, runAsUser: 0 }, containers: [c('a', { securityContext: { privileged: true } })] })).toEqual([]);
  });
});

describe('toleration values for Lt and Gt (ValidateTolerations, content.IsDecimalInteger)', () => {
  const spec = (value: any) => ({ containers: [c('a')], tolerations: [{ key: 'cores', operator: 'Gt', value, effect: 'NoSchedule' }] });
  test.each(['0100', '+100', '-0', '', '1.5', '1e3', ' 1', '9223372036854775808'])('%j is rejected', (value) => {
    expect(PodSpecValidation.check(spec(value))).toEqual([expect.objectContaining({ field: 'tolerations[0].value' })]);
  });
  test.each(['0', '100', '-5', '9223372036854775807', '-9223372036854775808'])('%j is accepted', (value) => {
    expect(PodSpecValidation.check(spec(value))).toEqual([]);
  });
  test('Equal and Exists values are not read as numbers', () => {
    expect(PodSpecValidation.check({ containers: [c('a')], tolerations: [{ key: 'k', operator: 'Equal', value: '0100' }] })).toEqual([]);
  });
});
