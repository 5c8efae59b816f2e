// What the real-node tests share: the node cluster:up started (cluster/node.js), putting the library's DaemonSets
// on it, waiting for the kubelet's answer, and reading what the container saw from the kubelet's log files.
//
// Two changes to what the library renders, and only these, put a DaemonSet on the real node: a toleration of the
// node's own taint (added with the agent's addToleration, as a user would for a tainted node), and
// spec.template.spec.schedulerName set to the real node's scheduler profile (the library renders none; the profile
// has its own name so that the tests playing the scheduler for API-only Nodes are never raced by it).
import * as fs from 'fs';
import * as path from 'path';
import { TaintEffect } from 'cdk8s-plus-28';
import { RealNode, dsPath, isReady, ownedPods, realNode, resetCluster } from './cluster';
import { Kube, ROOT, eventually } from './kube';
import { NodeAgent, Toleration } from '../../src';

/** the real node, or a clear error: these tests need cluster:up's node. */
export function requireRealNode(): RealNode {
  const node = realNode();
  if (!node) throw new Error('.cluster/state.json names no real node: start the cluster with npm run cluster:up (it starts containerd, kube-scheduler and a kubelet)');
  return node;
}

/** the agent tolerates the real node's taint (NoExecute, which no preset tolerates but those tolerating everything). */
export function tolerateRealNode(agent: NodeAgent): void {
  const { taint } = requireRealNode();
  agent.addToleration(Toleration.exists(taint.key, { effect: TaintEffect.NO_EXECUTE }));
}

/** the synthesized objects with every DaemonSet's pods asking for the real node's scheduler. */
export function onRealNode(objects: any[]): any[] {
  const { schedulerName } = requireRealNode();
  return objects.map((o) => (o.kind !== 'DaemonSet' ? o : {
    ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: { ...o.spec.template.spec, schedulerName } } },
  }));
}

/** the DaemonSet's pod on the real node once `done` holds for it (default: Ready); the error shows the pod's last status. */
export async function podOnRealNode(kube: Kube, ds: any, done: (pod: any) => boolean = isReady, timeoutMs = 120_000): Promise<any> {
  const { name } = requireRealNode();
  let last: any;
  return eventually(`${ds.metadata.namespace}/${ds.metadata.name}'s pod on ${name}`, async () => {
    const pods = (await ownedPods(kube, ds)).filter((p) => p.spec.nodeName === name && !p.metadata.deletionTimestamp);
    last = pods[0]?.status;
    return pods.length === 1 && done(pods[0]) ? pods[0] : undefined;
  }, { timeoutMs, intervalMs: 250, last: () => last });
}

/**
 * A container's output as the kubelet stored it (CRI log format: `<time> <stream> <P|F> <text>`, joined), read from
 * the node's pod log directory: the API server cannot reach this kubelet for `kubectl logs`, which listens on
 * loopback while the Node's address is the host's.
 */
export function containerLog(pod: any, container: string, restart = 0): string {
  const file = path.join(ROOT, '.cluster', 'node', 'pod-logs', `${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid}`, container, `${restart}.log`);
  if (!fs.existsSync(file)) return '';
  let out = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const m = /^\S+ (?:stdout|stderr) ([PF]) (.*)$/.exec(line);
    if (m) out += m[2] + (m[1] === 'F' ? '\n' : '');
  }
  return out;
}

/** waits until the container has written a line matching `done`, and returns all it wrote. */
export async function waitForLog(pod: any, container: string, done: RegExp, timeoutMs = 60_000): Promise<string> {
  let last = '';
  return eventually(`${pod.metadata.name}/${container} to log ${done}`, async () => {
    last = containerLog(pod, container);
    return done.test(last) ? last : undefined;
  }, { timeoutMs, intervalMs: 250, last: () => last });
}

/** `/proc/<pid>/status` as fields: `Uid` → ['1000', '1000', '1000', '1000'], `CapEff` → ['0000000000003000'] ... */
export function procStatus(text: string): { [field: string]: string[] } {
  const out: { [field: string]: string[] } = {};
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s+(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].trim().split(/\s+/);
  }
  return out;
}

/** the host's processes running `argv0`, with their /proc status. */
export function hostProcesses(argv0: string): { pid: number; status: { [f: string]: string[] } }[] {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === argv0) {
        out.push({ pid: Number(pid), status: procStatus(fs.readFileSync(`/proc/${pid}/status`, 'utf8')) });
      }
    } catch { /* exited */ }
  }
  return out;
}

/** Linux capability numbers (include/uapi/linux/capability.h), for reading CapEff and CapBnd masks. */
const CAPABILITY_NUMBERS: { [name: string]: number } = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  DAC_READ_SEARCH: 2,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
  SETPCAP: 8,
  LINUX_IMMUTABLE: 9,
  NET_BIND_SERVICE: 10,
  NET_BROADCAST: 11,
  NET_ADMIN: 12,
  NET_RAW: 13,
  IPC_LOCK: 14,
  IPC_OWNER: 15,
  SYS_MODULE: 16,
  SYS_RAWIO: 17,
  SYS_CHROOT: 18,
  SYS_PTRACE: 19,
  SYS_PACCT: 20,
  SYS_ADMIN: 21,
  SYS_BOOT: 22,
  SYS_NICE: 23,
  SYS_RESOURCE: 24,
  SYS_TIME: 25,
  SYS_TTY_CONFIG: 26,
  MKNOD: 27,
  LEASE: 28,
  AUDIT_WRITE: 29,
  AUDIT_CONTROL: 30,
  SETFCAP: 31,
  MAC_OVERRIDE: 32,
  MAC_ADMIN: 33,
  SYSLOG: 34,
  WAKE_ALARM: 35,
  BLOCK_SUSPEND: 36,
  AUDIT_READ: 37,
  PERFMON: 38,
  BPF: 39,
  CHECKPOINT_RESTORE: 40,
};

/** the capability names in a /proc status mask (hex), sorted. */
export function capabilityNames(mask: string): string[] {
  // the mask as binary digits, lowest capability last
  const bits = BigInt(`0x${mask}`).toString(2);
  const isSet = (n: number) => bits[bits.length - 1 - n] === '1';
  return Object.entries(CAPABILITY_NUMBERS).filter(([, n]) => isSet(n)).map(([name]) => name).sort();
}

/** deletes the test's DaemonSets and pods, waiting for the real node to have stopped them (a reset, then a wait). */
export async function cleanUp(kube: Kube): Promise<void> {
  const { name } = requireRealNode();
  await resetCluster(kube);
  await eventually(`${name} to have no test pods`, async () => {
    const pods = await kube.list('/api/v1/pods', { fieldSelector: `spec.nodeName=${name}` });
    return pods.length === 0 ? true : undefined;
  }, { timeoutMs: 60_000, intervalMs: 250 });
}

export { dsPath };
