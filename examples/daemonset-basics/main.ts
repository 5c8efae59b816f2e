// The classic DaemonSet manifests (nodeSelector, tolerations, node affinity, RollingUpdate, a least-privilege agent and
// two placement exercises), one app per section (dist/<section>/), each written with cdk8s-node-agents. Every field of
// the hand-written YAML they replace is in the output with the same value; the library adds what production needs
// (namespace, ServiceAccount, resources, security context), and puts a misplaced `drop: [ALL]` (written beside
// `capabilities` in the securityContext, where Kubernetes has no such field) in `capabilities`, where it takes effect.
// One field of section 4.2 is changed, because on a node it would make the section's capabilities do nothing: see below.
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import { Capability, HostPathVolumeType, PercentOrAbsolute, TaintEffect } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AgentUpdateStrategy, HostMount, NodeAgent, NodeRequirement, SecurityCheck, Toleration,
} from 'cdk8s-node-agents';

const image = 'registry.example.com/node-agent:1.2.0';

/** 2.1 nodeSelector: only nodes labelled `node-role.kubernetes.io/worker=""`. */
export class NodeSelectorChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'node-agent', {
      namespace: 'observability',
      image,
      nodeSelector: { 'node-role.kubernetes.io/worker': '' },
    });
  }
}

/** 2.2 tolerations: also run on control-plane nodes and on nodes dedicated to GPUs. */
export class TolerationsChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'node-agent', {
      namespace: 'observability',
      image,
      tolerations: [
        Toleration.controlPlane(),
        Toleration.equal('dedicated', 'gpu', { effect: TaintEffect.NO_SCHEDULE }),
      ],
    });
  }
}

/** 2.3 node affinity: required zone, preferred SSD nodes. */
export class AffinityChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'node-agent', {
      namespace: 'observability',
      image,
      requiredNodeAffinity: [
        { requirements: [NodeRequirement.isIn('topology.kubernetes.io/zone', ['ap-guangzhou-3'])] },
      ],
      preferredNodeAffinity: [
        { weight: 100, requirements: [NodeRequirement.isIn('disk-type', ['ssd'])] },
      ],
    });
  }
}

/** 3 update strategy: RollingUpdate, one node at a time. */
export class RollingUpdateChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'node-agent', {
      namespace: 'observability',
      image,
      updateStrategy: AgentUpdateStrategy.rollingUpdate({ maxUnavailable: PercentOrAbsolute.absolute(1) }),
    });
  }
}

/**
 * 4.2 least privilege: two capabilities with their reasons, /var/log read-only and typed.
 *
 * What happens on a node: the section's YAML (`runAsNonRoot: true`, `capabilities.add: [NET_ADMIN, SYS_PTRACE]`) gives
 * the process neither capability. A real kubelet v1.37.2 with containerd and runc started it with both in the bounding
 * set but none permitted or effective (CapBnd 0000000000081000, CapPrm 0, CapEff 0, NoNewPrivs 1): Kubernetes sets no
 * ambient capabilities, so Linux gives a non-root process an added capability only through the file capabilities of the
 * program it runs (and, with allowPrivilegeEscalation: false, of its entrypoint only). NodeAgent refuses that
 * combination; the agent runs as root instead, with every other capability dropped, which gives it exactly NET_ADMIN and
 * SYS_PTRACE. That is the one field that differs from the section (`runAsNonRoot: false`, `runAsUser: 0`), with its reason.
 */
export class LeastPrivilegeChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'node-agent', {
      namespace: 'observability',
      image,
      runAsRoot: { reason: 'NET_ADMIN and SYS_PTRACE take effect only for root (Kubernetes sets no ambient capabilities); every other capability is dropped' },
      capabilities: [
        { capability: Capability.NET_ADMIN, reason: 'network management only (仅网络管理)' },
        { capability: Capability.SYS_PTRACE, reason: 'process tracing only, as Falco does (仅进程追踪)' },
      ],
      hostMounts: [
        HostMount.readOnly('/var/log', { type: HostPathVolumeType.DIRECTORY, volumeName: 'varlog', reason: 'reads node and container logs' }),
      ],
    });
  }
}

/** the stock nginx image starts as root and writes to a few directories: said explicitly. */
const nginx = {
  image: 'nginx:1.27-alpine',
  runAsRoot: { reason: 'the stock nginx image starts its master process as root' },
  capabilities: [
    { capability: Capability.CHOWN, reason: 'nginx chowns its cache directories at start' },
    { capability: Capability.SETUID, reason: 'nginx workers switch to the nginx user' },
    { capability: Capability.SETGID, reason: 'nginx workers switch to the nginx group' },
    { capability: Capability.NET_BIND_SERVICE, reason: 'nginx listens on port 80' },
  ],
  scratchDirs: ['/var/cache/nginx', '/var/run'],
};

/** exercise A: nginx on nodes labelled agent=enabled. */
export class ExerciseAChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'nginx-agent', { namespace: 'exercises', ...nginx, nodeSelector: { agent: 'enabled' } });
  }
}

/** exercise B: the same DaemonSet as exercise A, now also tolerating the control-plane taint. */
export class ExerciseBChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new NodeAgent(this, 'nginx-agent', {
      namespace: 'exercises',
      ...nginx,
      nodeSelector: { agent: 'enabled' },
      tolerations: [Toleration.controlPlane()],
    });
  }
}

/**
 * The sections. They are alternatives, not parts of one deployment: each writes the same DaemonSet
 * (observability/node-agent, or exercises/nginx-agent) the way its section shows, so each is an app of its own, written
 * to dist/<section>/ (applied together, one would replace the other).
 */
export const SECTIONS: Array<[string, new (scope: Construct, id: string) => Chart]> = [
  ['2-1-node-selector', NodeSelectorChart],
  ['2-2-tolerations', TolerationsChart],
  ['2-3-node-affinity', AffinityChart],
  ['3-rolling-update', RollingUpdateChart],
  ['4-2-least-privilege', LeastPrivilegeChart],
  ['exercise-a', ExerciseAChart],
  ['exercise-b', ExerciseBChart],
];

/** builds the app of one section: its chart, and the security review of every workload at synth. */
export function buildBasicsApp(app: App, section: string): void {
  const found = SECTIONS.find(([id]) => id === section);
  if (!found) throw new Error(`no section ${section}: use one of ${SECTIONS.map(([id]) => id).join(', ')}`);
  new found[1](app, section);
  // review every workload at synth and write security-review.md and .json next to the manifest.
  SecurityCheck.apply(app);
}

if (require.main === module) {
  for (const [section] of SECTIONS) {
    const app = new App({ outdir: path.join(process.env.CDK8S_OUTDIR ?? 'dist', section) });
    buildBasicsApp(app, section);
    app.synth();
  }
}
