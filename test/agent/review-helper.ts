/**
 * Test helper: accepts every finding of the agent's security review, so that a test of the rendering is
 * not stopped by the review gate (findings at or above `reviewFailOn` fail the synth). The review itself
 * is tested on its own.
 */
import { Chart, Testing } from 'cdk8s';
import { NodeAgent } from '../../src/agent/node-agent';
import { NodeAgentProps } from '../../src/agent/node-agent-props';
import { SecurityReview } from '../../src/review/security-review';
import { synthValid } from '../util/k8s-schema';

/** the rules whose findings cannot be acknowledged: the manifest is wrong, and acknowledging them is an error. */
const BLOCKING = [SecurityReview.API_REJECTED_RULE, SecurityReview.ERROR_RULE];

/** acknowledges every rule the agent's review reports that can be acknowledged, in a stable order. */
export function acknowledgeAll(agent: NodeAgent): NodeAgent {
  const rules = new Set(agent.review().workloads.flatMap((w) => w.findings).map((f) => f.rule).filter((r) => !BLOCKING.includes(r)));
  for (const rule of [...rules].sort()) agent.acknowledge(rule, 'accepted in a test of the rendering');
  return agent;
}

/** one agent of `image` and `props`, its findings accepted unless `acknowledge` is false; its main container as rendered (strictly valid). */
export function synthMain(props: Partial<NodeAgentProps>, acknowledge = true): { container: any; agent: NodeAgent } {
  const chart = new Chart(Testing.app(), 'test');
  const agent = new NodeAgent(chart, 'node-agent', { image: 'registry.example.com/node-agent:1.2.0', ...props });
  if (acknowledge) acknowledgeAll(agent);
  return { container: synthValid(chart).find((m) => m.kind === 'DaemonSet').spec.template.spec.containers[0], agent };
}
