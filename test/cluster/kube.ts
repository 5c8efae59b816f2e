// The integration suite's client for the local control plane (npm run cluster:up): the API over HTTPS with
// node:https, so every request, status, body and Warning header is the server's own, with no client library
// rewriting or dropping anything on the way.
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';

export const ROOT = path.resolve(__dirname, '..', '..');
export const KUBECONFIG = path.join(ROOT, '.cluster', 'kubeconfig');
/** the field manager of every apply this suite makes. */
export const FIELD_MANAGER = 'cdk8s-node-agents-test';

export interface KubeResponse {
  readonly status: number;
  readonly body: any;
  /** the text of every `Warning: 299 - "..."` header, in order. */
  readonly warnings: string[];
}

export interface RequestOptions {
  readonly query?: { [key: string]: string | number | boolean | undefined };
  readonly contentType?: string;
}

interface ResourceInfo {
  readonly plural: string;
  readonly namespaced: boolean;
}

export class Kube {
  /** the client for `.cluster/kubeconfig`; a clear error when the control plane is not up. */
  public static fromKubeconfig(file = KUBECONFIG): Kube {
    if (!fs.existsSync(file)) {
      throw new Error(`${file} is missing: start the control plane first (npm run cluster:up), then npm run test:cluster`);
    }
    const config = parse(fs.readFileSync(file, 'utf8'));
    const cluster = config.clusters[0].cluster;
    return new Kube(cluster.server, Buffer.from(cluster['certificate-authority-data'], 'base64'), config.users[0].user.token);
  }

  private readonly agent: https.Agent;
  private readonly resources = new Map<string, Promise<Map<string, ResourceInfo>>>();

  private constructor(public readonly server: string, ca: Buffer, private readonly token: string) {
    this.agent = new https.Agent({ ca, keepAlive: true, maxSockets: 8 });
  }

  /** one request; resolves with whatever status the server answers. */
  public request(method: string, urlPath: string, body?: unknown, options: RequestOptions = {}): Promise<KubeResponse> {
    const url = new URL(urlPath, this.server);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: { [k: string]: string } = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (payload !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method, headers, agent: this.agent, timeout: 30_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => { text += c; });
        res.on('end', () => {
          const warnings: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i].toLowerCase() === 'warning') warnings.push(parseWarning(res.rawHeaders[i + 1]));
          }
          let parsed: any = text;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch { /* not JSON: keep the text */ }
          resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** the REST path of an object (or of its collection when `name` is omitted), found through discovery. */
  public async pathOf(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const info = (await this.discover(apiVersion)).get(kind);
    if (!info) throw new Error(`the API server serves no kind ${kind} in ${apiVersion}`);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const ns = info.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
    return `${base}${ns}/${info.plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
  }

  /**
   * Server-side apply with strict field validation, as `kubectl apply --server-side --field-manager=... --validate=strict`
   * sends it. `dryRun` runs admission and validation without storing.
   */
  public async apply(obj: any, options: { dryRun?: boolean; force?: boolean } = {}): Promise<KubeResponse> {
    const p = await this.pathOf(obj.apiVersion, obj.kind, obj.metadata?.namespace, obj.metadata?.name);
    return this.request('PATCH', p, obj, {
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: FIELD_MANAGER, fieldValidation: 'Strict', force: options.force ?? true, dryRun: options.dryRun ? 'All' : undefined },
    });
  }

  /** POST (create) with strict field validation. */
  public async create(obj: any, options: { dryRun?: boolean } = {}): Promise<KubeResponse> {
    const p = await this.pathOf(obj.apiVersion, obj.kind, obj.metadata?.namespace);
    return this.request('POST', p, obj, { query: { fieldValidation: 'Strict', dryRun: options.dryRun ? 'All' : undefined } });
  }

  /** GET; throws unless 200. */
  public async get(urlPath: string): Promise<any> {
    return ok(await this.request('GET', urlPath), `GET ${urlPath}`).body;
  }

  /** GET of a list's items. */
  public async list(urlPath: string, query?: RequestOptions['query']): Promise<any[]> {
    return ok(await this.request('GET', urlPath, undefined, { query }), `GET ${urlPath}`).body.items;
  }

  /** a merge patch; throws unless 200. */
  public async mergePatch(urlPath: string, patch: unknown): Promise<any> {
    return ok(await this.request('PATCH', urlPath, patch, { contentType: 'application/merge-patch+json' }), `PATCH ${urlPath}`).body;
  }

  /** DELETE; a missing object is fine. */
  public async delete(urlPath: string, query?: RequestOptions['query']): Promise<void> {
    const r = await this.request('DELETE', urlPath, undefined, { query });
    if (r.status !== 200 && r.status !== 202 && r.status !== 404) throw new Error(`DELETE ${urlPath}: ${r.status} ${JSON.stringify(r.body)}`);
  }

  private discover(apiVersion: string): Promise<Map<string, ResourceInfo>> {
    let found = this.resources.get(apiVersion);
    if (!found) {
      const p = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      found = this.get(p).then((list) => new Map<string, ResourceInfo>(
        list.resources.filter((r: any) => !r.name.includes('/')).map((r: any) => [r.kind, { plural: r.name, namespaced: r.namespaced }]),
      ));
      this.resources.set(apiVersion, found);
    }
    return found;
  }
}

/** throws with the request and the server's answer unless the status is 2xx. */
export function ok(r: KubeResponse, what: string): KubeResponse {
  if (r.status < 200 || r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** `299 - "text"` (RFC 7234, as apiserver writes it) to its text. */
function parseWarning(header: string): string {
  const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(header);
  return m ? m[1].replace(/\\(.)/g, '$1') : header;
}

/** polls `probe` every `intervalMs` until it returns a value other than undefined; fails after `timeoutMs` with the last state. */
export interface EventuallyOptions {
  /** @default 30000 */
  readonly timeoutMs?: number;
  /** @default 200 */
  readonly intervalMs?: number;
  /** the state to show on timeout. */
  readonly last?: () => unknown;
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, options: EventuallyOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const state = options.last ? ` last seen: ${JSON.stringify(options.last())}` : '';
      throw new Error(`timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${what}.${state}${lastError ? ` last error: ${lastError}` : ''}`);
    }
    await sleep(options.intervalMs ?? 200);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** every object of a multi-document YAML file, in file order. */
export function readManifests(file: string): any[] {
  return parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter((o) => o !== null && o !== undefined);
}

/**
 * every example app's synthesized output, sorted: `examples/<app>/dist/<chart>.k8s.yaml`, or
 * `examples/<app>/dist/<variant>/<chart>.k8s.yaml` for the galleries that write one app per variant.
 */
export function exampleOutputs(): string[] {
  const examples = path.join(ROOT, 'examples');
  const files: string[] = [];
  const collect = (dir: string) => {
    for (const f of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, f);
      if (fs.statSync(full).isDirectory()) collect(full);
      else if (f.endsWith('.k8s.yaml')) files.push(full);
    }
  };
  for (const app of fs.readdirSync(examples).sort()) {
    const dist = path.join(examples, app, 'dist');
    if (!fs.existsSync(path.join(examples, app, 'cdk8s.yaml'))) continue;
    if (!fs.existsSync(dist)) throw new Error(`${dist} is missing: run npm run examples first (npm run test:cluster does)`);
    collect(dist);
  }
  return files;
}

/** a file's path from the repository root, for test names. */
/** the example outputs that hold DaemonSets (cluster-addons' admission.k8s.yaml holds only the admission policy). */
export function exampleDaemonSetOutputs(): string[] {
  return exampleOutputs().filter((f) => readManifests(f).some((o) => o?.kind === 'DaemonSet'));
}

export function rel(file: string): string {
  return path.relative(ROOT, file);
}
