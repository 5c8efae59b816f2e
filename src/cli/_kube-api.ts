// Read-only GETs against the Kubernetes API with Node's http/https, authenticated from a kubeconfig context.
// Internal to the CLI.
//
// Why not @kubernetes/client-node: the package is a jsii library whose runtime dependencies must be bundled into
// it; the official client would bring its HTTP stack and generated models into every consumer's install for six
// list calls. Node's https does TLS with a CA, client certificates, SNI and verification switched off, which is all a
// kubeconfig asks; the exec plugin and the kubeconfig merge rules are in _kubeconfig.ts.

import * as http from 'http';
import * as https from 'https';
import { CliError } from './_command';
import { KubeTarget } from './_kubeconfig';

/** an HTTP status from the API server, for callers that tell "not found" from "no access". */
export class ApiStatusError extends CliError {
  constructor(message: string, public readonly statusCode: number) {
    super(message);
  }
}

export class KubeApi {
  constructor(private readonly target: KubeTarget, private readonly timeoutMs = 30_000) {}

  /** GET one path; the JSON body. */
  async get(apiPath: string): Promise<any> {
    const creds = await this.target.credentials();
    const base = this.target.server;
    const url = new URL(base.pathname.replace(/\/$/, '') + apiPath, base);
    const headers: Record<string, string> = { 'Accept': 'application/json', 'User-Agent': 'cdk8s-node-agents-status' };
    if (creds.token !== undefined) headers.Authorization = `Bearer ${creds.token}`;
    else if (creds.basic) headers.Authorization = `Basic ${Buffer.from(`${creds.basic.username}:${creds.basic.password}`).toString('base64')}`;
    const options: https.RequestOptions = {
      method: 'GET',
      headers,
      timeout: this.timeoutMs,
      ca: this.target.ca,
      cert: creds.cert,
      key: creds.key,
      rejectUnauthorized: !this.target.insecureSkipTlsVerify,
      servername: this.target.tlsServerName,
    };
    const requester = url.protocol === 'https:' ? https.request : http.request;
    const where = `GET ${url.pathname}${url.search}`;
    const { statusCode, body } = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const req = requester(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf-8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000}s`)));
      req.on('error', (e: any) => reject(new CliError(`cannot reach the API server ${base.origin} (context "${this.target.contextName}"): ${describeNetError(e)}`)));
      req.end();
    });
    let json: any;
    try {
      json = body === '' ? undefined : JSON.parse(body);
    } catch {
      json = undefined;
    }
    if (statusCode >= 200 && statusCode < 300) {
      if (json === undefined) throw new CliError(`${where}: the API server answered ${statusCode} without JSON`);
      return json;
    }
    const message = typeof json?.message === 'string' ? json.message : body.trim().split('\n')[0] || http.STATUS_CODES[statusCode] || '';
    if (statusCode === 401) throw new ApiStatusError(`no access: ${where}: 401 Unauthorized: the API server did not accept the credentials of context "${this.target.contextName}"`, 401);
    if (statusCode === 403) throw new ApiStatusError(`no access: ${where}: ${message}`, 403);
    throw new ApiStatusError(`${where}: ${statusCode} ${message}`, statusCode);
  }

  /** every item of a list, following `continue` tokens. */
  async list(apiPath: string): Promise<any[]> {
    const items: any[] = [];
    let token: string | undefined;
    do {
      const sep = apiPath.includes('?') ? '&' : '?';
      const page = await this.get(`${apiPath}${sep}limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      const kind = typeof page?.kind === 'string' ? page.kind.replace(/List$/, '') : undefined;
      const apiVersion = page?.apiVersion;
      for (const item of Array.isArray(page?.items) ? page.items : []) {
        // list items carry no apiVersion/kind; add them as kubectl get -o json does
        items.push({ apiVersion, kind, ...item });
      }
      token = typeof page?.metadata?.continue === 'string' && page.metadata.continue !== '' ? page.metadata.continue : undefined;
    } while (token !== undefined);
    return items;
  }
}

function describeNetError(e: any): string {
  const code = e?.code ? `${e.code}: ` : '';
  const message = String(e?.message ?? e);
  return message.startsWith(e?.code ?? '\0') ? message : `${code}${message}`;
}
