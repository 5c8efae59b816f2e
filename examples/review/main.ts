// The fluent-bit agent of chart-shaped.yaml, built with cdk8s-node-agents: the LogCollector preset with
// its defaults, in a namespace of its own. SecurityCheck.apply reviews the app at synth and writes the
// review next to the manifests; README.md puts it beside the chart-shaped manifest's review.
import { App, Chart } from 'cdk8s';
import { LogCollector, SecurityCheck } from 'cdk8s-node-agents';

/** builds the app: the log collector, reviewed at synth. */
export function buildReviewApp(app: App): void {
  const chart = new Chart(app, 'fluent-bit');
  new LogCollector(chart, 'fluent-bit', { namespace: 'logging' });
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildReviewApp(app);
  app.synth();
}
