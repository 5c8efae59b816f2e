// Two placement exercises, for a kind cluster: nginx:1.27-alpine on the nodes labelled
// agent=enabled (A), then the same DaemonSet tolerating the control-plane taint (B). Each is an app of its own
// (dist/exercise-a/, dist/exercise-b/: the same DaemonSet at two moments): apply A, then B in its place.
// README.md walks through them with `cdk8s-node-agents coverage` against the inventories in nodes/.
import * as path from 'node:path';
import { App } from 'cdk8s';
import { SecurityCheck } from 'cdk8s-node-agents';
import { ExerciseAChart, ExerciseBChart } from '../daemonset-basics/main';

/** the two exercises, in the order they are applied. */
export const EXERCISES = ['exercise-a', 'exercise-b'];

/** builds the app of one exercise. */
export function buildKindClusterApp(app: App, exercise: string): void {
  if (exercise === 'exercise-a') new ExerciseAChart(app, exercise);
  else if (exercise === 'exercise-b') new ExerciseBChart(app, exercise);
  else throw new Error(`no exercise ${exercise}: use one of ${EXERCISES.join(', ')}`);
  SecurityCheck.apply(app);
}

if (require.main === module) {
  for (const exercise of EXERCISES) {
    const app = new App({ outdir: path.join(process.env.CDK8S_OUTDIR ?? 'dist', exercise) });
    buildKindClusterApp(app, exercise);
    app.synth();
  }
}
