import { HostAccessReasonRule, Severity } from '../../../src/review';
import { agent, agentWithContainer, findingsOf, goodContainer, hostPathVolume } from '../util';

const rule = new HostAccessReasonRule();
const KEY = 'node-agents.cdk8s.io/host-access';

describe('NA-HOST-ACCESS-REASON: Every host privilege has a recorded reason', () => {
  test('Noncompliance 1: hostPID without a reason is high', () => {
    const findings = findingsOf(rule, [agent({ hostPID: true })]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: Severity.HIGH, field: 'spec.template.spec.hostPID' });
    expect(findings[0].message).toContain('takes hostPID, which is high risk: sees every process on the node with its command line; ');
    expect(findings[0].message).toContain('; no reason is recorded for it in annotation node-agents.cdk8s.io/host-access');
    expect(findings[0].fix).toMatch(/^add \{"type":"hostPID","detail":"","reason":"\.\.\."\} to the node-agents\.cdk8s\.io\/host-access annotation, or drop the privilege: /);
  });

  test('Noncompliance 2: the severity follows each privilege\'s risk', () => {
    const ds = agent({
      hostNetwork: true,
      containers: [goodContainer({
        securityContext: { privileged: true, capabilities: { add: ['NET_BIND_SERVICE'] } },
        ports: [{ containerPort: 9100, hostPort: 9100 }],
        volumeMounts: [{ name: 'id', mountPath: '/etc/machine-id', readOnly: true }],
      })],
      volumes: [hostPathVolume('id', '/etc/machine-id', 'File')],
    });
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, f.message.replace(/^.*?: takes /, '').replace(/ risk: .*$/, ''), f.field])).toEqual([
      [Severity.CRITICAL, 'privileged, which is critical', 'spec.template.spec.containers[0].securityContext.privileged'],
      [Severity.HIGH, 'hostNetwork, which is high', 'spec.template.spec.hostNetwork'],
      [Severity.LOW, 'hostPort 9100/TCP, which is low', 'spec.template.spec.containers[0].ports'],
      [Severity.LOW, 'capability NET_BIND_SERVICE, which is low', 'spec.template.spec.containers[0].securityContext.capabilities.add'],
      [Severity.LOW, 'hostPath /etc/machine-id (read-only), which is low', 'spec.template.spec.volumes[0].hostPath'],
    ]);
  });

  test('Noncompliance 3: a reason for another container, an empty reason, and a malformed annotation', () => {
    const caps = { securityContext: { capabilities: { add: ['NET_ADMIN'] }, allowPrivilegeEscalation: false } };
    const wrong = JSON.stringify([{ type: 'capability', detail: 'NET_ADMIN', container: 'other', reason: 'x' }]);
    expect(findingsOf(rule, [agentWithContainer(caps, {}, { annotations: { [KEY]: wrong } })])).toHaveLength(1);
    const empty = JSON.stringify([{ type: 'capability', detail: 'NET_ADMIN', container: 'agent', reason: ' ' }]);
    expect(findingsOf(rule, [agentWithContainer(caps, {}, { annotations: { [KEY]: empty } })])).toHaveLength(1);
    const broken = findingsOf(rule, [agentWithContainer(caps, {}, { annotations: { [KEY]: '{not json' } })]);
    expect(broken.map((f) => [f.rule, f.severity])).toContainEqual(['NA-HOST-ACCESS-REASON', Severity.CRITICAL]);
    expect(broken.find((f) => f.rule === 'NA-HOST-ACCESS-REASON')!.message).toContain('rule NA-HOST-ACCESS-REASON could not evaluate it: annotation node-agents.cdk8s.io/host-access is not valid JSON');
  });

  test('Noncompliance 4: a Windows HostProcess container is critical, and not called root', () => {
    const ds = agent({ hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } }, containers: [{ name: 'agent', image: 'x:1' }] },
      { annotations: { [KEY]: JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'HostProcess pods need it' }]) } });
    expect(findingsOf(rule, [ds]).map((f) => [f.severity, f.container, f.field])).toEqual([
      [Severity.CRITICAL, 'agent', 'spec.template.spec.securityContext.windowsOptions.hostProcess'],
    ]);
    expect(findingsOf(rule, [ds])[0].message).toContain('takes hostProcess (a Windows HostProcess container), which is critical risk: ');
  });

  test('Compliance: a container port on the host network is explained by the hostNetwork\'s reason', () => {
    const ds = agentWithContainer({ ports: [{ containerPort: 8081 }] }, { hostNetwork: true },
      { annotations: { [KEY]: JSON.stringify([{ type: 'hostNetwork', detail: '', reason: 'programs routes' }]) } });
    expect(findingsOf(rule, [ds])).toEqual([]);
  });

  test('Compliance: every privilege explained (a reason without a container covers every container); no privileges at all', () => {
    const reasons = JSON.stringify([
      { type: 'hostPath', detail: '/var/log (read-only)', container: 'agent', reason: 'reads node and container logs' },
      { type: 'capability', detail: 'NET_ADMIN', reason: 'programs routes' },
    ]);
    const ds = agentWithContainer(
      { securityContext: { capabilities: { add: ['net_admin'] } }, volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] },
      { volumes: [hostPathVolume('varlog', '/var/log', 'Directory')] },
      { annotations: { [KEY]: reasons } },
    );
    expect(findingsOf(rule, [ds])).toEqual([]);
    expect(findingsOf(rule, [agent()])).toEqual([]);
  });
});
