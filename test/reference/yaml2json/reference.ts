// kubectl's YAML reader as a program: builds test/reference/yaml2json (sigs.k8s.io/yaml and apimachinery at the
// versions Kubernetes v1.37.2 uses, pinned in its go.mod/go.sum) once, into a cache outside the repository keyed by
// those files and the build command, as cluster/lib.js caches the control plane. `go` is a prerequisite (as for the
// corpus). Progress goes to stderr: a cold build takes a few seconds once the modules are in the Go module cache.

import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const DIR = __dirname;
const BUILD_ARGS = ['build', '-mod=readonly', '-trimpath', '-o'];

/** what kubectl makes of one stream: the JSON documents it would send, or its error. */
export type ReferenceResult = { docs: unknown[]; error?: undefined } | { docs?: undefined; error: string };

/** the path of the built reader, building it first when the cache has none for this go.mod/go.sum. */
export function yaml2jsonBinary(): string {
  const hash = crypto.createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(fs.readFileSync(path.join(DIR, f)));
  hash.update(JSON.stringify(BUILD_ARGS));
  const root = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const dir = path.join(root, 'cdk8s-node-agents', 'yaml2json', hash.digest('hex').slice(0, 12));
  const binary = path.join(dir, 'yaml2json');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  process.stderr.write(`yaml2json: building kubectl's YAML reader (test/reference/yaml2json) into ${dir} ...\n`);
  const started = Date.now();
  const tmp = `${binary}.${process.pid}.tmp`;
  const r = spawnSync('go', [...BUILD_ARGS, tmp, '.'], { cwd: DIR, encoding: 'utf8', env: { ...process.env, CGO_ENABLED: '0' } });
  if (r.error) throw new Error(`yaml2json: cannot run go (a prerequisite of this test, as for the corpus): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`yaml2json: go build failed:\n${r.stderr}`);
  fs.renameSync(tmp, binary);
  process.stderr.write(`yaml2json: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return binary;
}

/** kubectl's reading of every stream, in one process. */
export function kubectlRead(streams: string[]): ReferenceResult[] {
  const r = spawnSync(yaml2jsonBinary(), [], { input: JSON.stringify(streams), encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (r.error || r.status !== 0) throw new Error(`yaml2json failed: ${r.error?.message ?? r.stderr}`);
  // an empty docs list is left out of Go's JSON
  return (JSON.parse(r.stdout) as any[]).map((x) => (x.error === undefined ? { docs: x.docs ?? [] } : x));
}
