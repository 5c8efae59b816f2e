/**
 * Test helper: accepts every finding of the agent's security review, so that a test of the rendering is
 * not stopped by the review gate (findings at or above `reviewFailOn` fail the synth). The review itself
 * is tested on its own.
 */
import { NodeAgent } from '../../src/agent/node-agent';
import { SecurityReview } from '../../src/review/security-review';

/** the rules whose findings cannot be acknowledged: the manifest is wrong, and acknowledging them is an error. */
const BLOCKING = [SecurityReview.API_REJECTED_RULE, SecurityReview.ERROR_RULE];

/** acknowledges every rule the agent's review reports that can be acknowledged, in a stable order. */
export function acknowledgeAll(agent: NodeAgent): NodeAgent {
  const rules = new Set(agent.review().workloads.flatMap((w) => w.findings).map((f) => f.rule).filter((r) => !BLOCKING.includes(r)));
  for (const rule of [...rules].sort()) agent.acknowledge(rule, 'accepted in a test of the rendering');
  return agent;
}
