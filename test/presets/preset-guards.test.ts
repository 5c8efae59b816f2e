/**
 * The presets' guards: their own props and factories are checked like NodeAgent's (see test/agent/guards.test.ts), with
 * the preset's construct path, before any default is merged; null keeps the preset's default.
 */
import { Testing } from 'cdk8s';
import { chart, podSpec, synthOf } from './preset-helpers';
import {
  CniFlavor, CniPlugin, CsiNodePlugin, FalcoDriver, LogCollector, LogOutput, NodeMonitor, SecurityAgent, Toleration,
} from '../../src';
import { errorOf } from '../util/errors';


describe("the presets' props", () => {
  test.each([
    ['a misspelled LogCollector prop', () => new LogCollector(chart(), 'logs', { outptu: LogOutput.stdout() } as any),
      '[test/logs] LogCollectorProps has no property "outptu": did you mean "output"?'],
    ['a LogCollector output that is a string', () => new LogCollector(chart(), 'logs', { output: 'loki' } as any),
      '[test/logs] output must be created with LogOutput.stdout(), forward(), loki() or custom(), got "loki"'],
    ['a NodeMonitor toleration that is not in a list', () => new NodeMonitor(chart(), 'monitor', { tolerations: Toleration.everything() } as any),
      /^\[test\/monitor\] tolerations must be a list of tolerations/],
    ['a misspelled NodeMonitor prop', () => new NodeMonitor(chart(), 'monitor', { hostNetwrok: { reason: 'r' } } as any),
      '[test/monitor] NodeMonitorProps has no property "hostNetwrok": did you mean "hostNetwork"?'],
    ['a CniPlugin flavor given by name', () => new CniPlugin(chart(), 'cni', { flavor: 'calico' } as any),
      '[test/cni] flavor must be created with CniFlavor.flannel(), calico(), cilium() or custom(), got "calico"'],
    ['a misspelled CniPlugin prop', () => new CniPlugin(chart(), 'cni', { flavour: CniFlavor.calico() } as any),
      '[test/cni] CniPluginProps has no property "flavour": did you mean "flavor"?'],
    ['a CsiNodePlugin driver name that is a number', () => new CsiNodePlugin(chart(), 'csi', { driverName: 42 } as any),
      "[test/csi] driverName must be a string (e.g. 'ebs.csi.aws.com'), got 42"],
    ['a misspelled CsiNodePlugin prop', () => new CsiNodePlugin(chart(), 'csi', { driverNmae: 'ebs.csi.aws.com' } as any),
      '[test/csi] CsiNodePluginProps has no property "driverNmae": did you mean "driverName"?'],
    ['SecurityAgent sockets as a string (was: each character a socket)', () => new SecurityAgent(chart(), 'falco', { containerRuntimeSockets: '/run/crio/crio.sock' } as any),
      /^\[test\/falco\] containerRuntimeSockets must be a list of host paths .*, got "\/run\/crio\/crio\.sock": write a list, e\.g\. \["\/run\/crio\/crio\.sock"\]$/],
    ['a SecurityAgent driver given by name', () => new SecurityAgent(chart(), 'falco', { driver: 'kmod' } as any),
      '[test/falco] driver must be created with FalcoDriver.modernEbpf() or FalcoDriver.kernelModule(reason), got "kmod"'],
    ['a misspelled SecurityAgent prop', () => new SecurityAgent(chart(), 'falco', { containerRuntimeSocket: ['/run/crio/crio.sock'] } as any),
      '[test/falco] SecurityAgentProps has no property "containerRuntimeSocket": did you mean "containerRuntimeSockets"?'],
    ['preset props that are not an object', () => new NodeMonitor(chart(), 'monitor', 'node-exporter' as any),
      '[test/monitor] props must be a NodeMonitorProps object, got "node-exporter"'],
  ])('%s', (_, f, message) => {
    if (typeof message === 'string') expect(errorOf(f)).toBe(message);
    else expect(errorOf(f)).toMatch(message);
  });

  test("null keeps the preset's default (was: null replaced it, and the tolerations were gone)", () => {
    const withNull = podSpec(synthOf((c) => new NodeMonitor(c, 'monitor', { tolerations: null, hostMounts: null } as any)));
    const without = podSpec(synthOf((c) => new NodeMonitor(c, 'monitor')));
    expect(withNull).toEqual(without);
    expect(withNull.tolerations).toEqual([{ operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test("null keeps the acknowledgements of the preset's defaults too", () => {
    const c = chart();
    const csi = new CsiNodePlugin(c, 'csi', { privileged: null, hostMounts: null } as any);
    expect(() => Testing.synth(c)).not.toThrow();
    expect(csi.review().workloads[0].findings.filter((f) => !f.acknowledged && f.severity === 'critical')).toEqual([]);
  });
});

describe("the presets' factories", () => {
  test.each([
    ['CniFlavor.flannel with a number', () => CniFlavor.flannel({ podNetwork: 10 } as any), "CniFlavor.flannel: podNetwork must be a string (e.g. '10.244.0.0/16'), got 10"],
    ['CniFlavor.flannel with a misspelled option', () => CniFlavor.flannel({ backnd: 'host-gw' } as any), 'CniFlavor.flannel: FlannelOptions has no property "backnd": did you mean "backend"?'],
    ['CniFlavor.calico with options as a string', () => CniFlavor.calico('192.168.0.0/16' as any),
      /^CniFlavor\.calico: options must be a CalicoOptions object \(e\.g\. \{ podNetwork: '192\.168\.0\.0\/16' \}\), got "192\.168\.0\.0\/16"$/],
    ['CniFlavor.cilium with a misspelled option', () => CniFlavor.cilium({ cluster: 'prod' } as any), /^CniFlavor\.cilium: CiliumOptions has no property "cluster"/],
    ['CniFlavor.custom without options', () => (CniFlavor.custom as any)(), /^CniFlavor\.custom: options are required/],
    ['CniFlavor.custom without an image', () => CniFlavor.custom({ name: 'my-cni' } as any), /^CniFlavor\.custom: image is required: give the agent's image/],
    ['CniFlavor.custom with an installer that is not in a list', () => CniFlavor.custom({ name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0', installers: { name: 'install' } } as any),
      /^CniFlavor\.custom: installers must be a list of containers/],
    ['CniFlavor.custom with capabilities as strings', () => CniFlavor.custom({ name: 'my-cni', image: 'registry.example.com/my-cni:1.0.0', capabilities: ['NET_ADMIN'] } as any),
      /^CniFlavor\.custom: capabilities\[0\] must be a capability with its reason/],
    ['LogOutput.forward with the port as text', () => LogOutput.forward('fluentd.logging.svc', '24224' as any),
      'LogOutput.forward: port must be a whole number from 1 to 65535, got "24224"'],
    ['LogOutput.forward with a number as host', () => LogOutput.forward(10 as any), /^LogOutput\.forward: host 10 is not a host name/],
    ['LogOutput.loki with an object', () => LogOutput.loki({ url: 'http://loki' } as any), /^LogOutput\.loki: the URL must be a string .*, got \{"url":"http:\/\/loki"\}$/],
    ['LogOutput.custom with a list', () => LogOutput.custom(['http'] as any), /^LogOutput\.custom: the properties must be an object of strings/],
    ['LogOutput.custom with a number', () => LogOutput.custom({ name: 'http', port: 443 } as any), 'LogOutput.custom: property "port" must be a string, got 443'],
    ['LogCollector.renderConfig with a string', () => LogCollector.renderConfig('stdout' as any), /^LogCollector\.renderConfig: output must be created with LogOutput\.stdout\(\)/],
    ['FalcoDriver.kernelModule with a number', () => FalcoDriver.kernelModule(4.14 as any), /^FalcoDriver\.kernelModule: the reason must be one non-empty line .*, got 4\.14$/],
    ['CsiNodePlugin.standardHostMounts with an object', () => CsiNodePlugin.standardHostMounts({ name: 'x' } as any), /^CsiNodePlugin: driver name \{"name":"x"\} is invalid/],
  ])('%s', (_, f, message) => {
    if (typeof message === 'string') expect(errorOf(f)).toBe(message);
    else expect(errorOf(f)).toMatch(message);
  });
});
