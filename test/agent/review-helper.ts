/**
 * Test helper: accepts every finding of the agent's security review, so that a test of the rendering is
 * not stopped by the review gate (findings at or above `reviewFailOn` fail the synth). The review itself
 * is tested on its own.
 */
import { NodeAgent } from '../../src/agent/node-agent';

/** acknowledges every rule the agent's review reports, in a stable order. */
export function acknowledgeAll(agent: NodeAgent): NodeAgent {
  const rules = new Set(agent.review().workloads.flatMap((w) => w.findings).map((f) => f.rule));
  for (const rule of [...rules].sort()) agent.acknowledge(rule, 'accepted in a test of the rendering');
  return agent;
}
