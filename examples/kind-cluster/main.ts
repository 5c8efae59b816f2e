// Exercises A and B of the DaemonSet guide, for a kind cluster: nginx:1.27-alpine on the nodes labelled
// agent=enabled (A), then the same DaemonSet tolerating the control-plane taint (B). Each is its own
// chart (dist/exercise-a.k8s.yaml, dist/exercise-b.k8s.yaml): apply A, then B in its place.
// README.md walks through them with `cdk8s-node-agents coverage` against the inventories in nodes/.
import { App } from 'cdk8s';
import { SecurityCheck } from 'cdk8s-node-agents';
import { ExerciseAChart, ExerciseBChart } from '../seed/main';

/** builds the app. */
export function buildKindClusterApp(app: App): void {
  new ExerciseAChart(app, 'exercise-a');
  new ExerciseBChart(app, 'exercise-b');
  SecurityCheck.apply(app);
}

if (require.main === module) {
  const app = new App();
  buildKindClusterApp(app);
  app.synth();
}
