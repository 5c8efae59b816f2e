// Reads kubeconfig files the way kubectl does, and turns the chosen context into what an HTTPS request needs.
// Internal to the CLI.
//
// The rules are client-go's (k8s.io/client-go/tools/clientcmd):
// - loader.go NewDefaultClientConfigLoadingRules / Load: `--kubeconfig FILE` alone (it must exist); else the files
//   of the KUBECONFIG list (path.delimiter-separated, duplicates dropped, missing files ignored), merged so that the
//   first file to set a map key (a cluster, user or context name) or a value (current-context) wins; else
//   ~/.kube/config. Relative paths in a file (certificate-authority, client-certificate, client-key, tokenFile, and
//   an exec command that contains a path separator) are resolved against that file's folder (ResolveLocalPaths).
// - client_config.go: `--context` overrides current-context; the namespace is the context's, else "default".
// - plugin/pkg/client/auth/exec/exec.go: exec credential plugins, client.authentication.k8s.io/v1 (and v1beta1),
//   run with the kubeconfig's env added and KUBERNETES_EXEC_INFO set; they answer an ExecCredential with a token or a
//   client certificate and key.

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliError, lowerFirst } from './_command';
import { ManifestSyntaxError, readManifestStream } from '../model/_manifest-reader';

/** where to connect and how to authenticate, resolved from one context. */
export interface KubeTarget {
  readonly contextName: string;
  readonly server: URL;
  /** the context's namespace, or "default". */
  readonly namespace: string;
  readonly ca?: Buffer;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** credentials, obtained on first use (an exec plugin runs once). */
  credentials(): Promise<Credentials>;
}

export interface Credentials {
  readonly token?: string;
  readonly basic?: { readonly username: string; readonly password: string };
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface KubeconfigOptions {
  /** `--kubeconfig FILE`. */
  readonly kubeconfig?: string;
  /** `--context NAME`. */
  readonly context?: string;
  /** the environment (KUBECONFIG, HOME, and the base of an exec plugin's environment). */
  readonly env: NodeJS.ProcessEnv;
}

interface Named {
  readonly name: string;
  readonly value: any;
  /** the file it came from, for relative paths and messages. */
  readonly file: string;
}

interface Merged {
  currentContext?: string;
  readonly clusters: Map<string, Named>;
  readonly users: Map<string, Named>;
  readonly contexts: Map<string, Named>;
  readonly files: string[];
}

/** the files kubectl would read, in order. */
export function kubeconfigFiles(options: KubeconfigOptions): { files: string[]; explicit: boolean } {
  if (options.kubeconfig !== undefined && options.kubeconfig !== '') return { files: [options.kubeconfig], explicit: true };
  const list = options.env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const files = [...new Set(list.split(path.delimiter).filter((f) => f !== ''))];
    return { files, explicit: false };
  }
  const home = options.env.HOME || os.homedir();
  return { files: [path.join(home, '.kube', 'config')], explicit: false };
}

/** loads, merges and resolves the kubeconfig; throws CliError with one line on any problem. */
export function resolveTarget(options: KubeconfigOptions): KubeTarget {
  const { files, explicit } = kubeconfigFiles(options);
  const merged: Merged = { clusters: new Map(), users: new Map(), contexts: new Map(), files: [] };
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf-8');
    } catch (e: any) {
      if (e?.code === 'ENOENT' && !explicit) continue; // "missing files are ignored"
      throw new CliError(`kubeconfig ${file}: cannot read file: ${e?.code === 'ENOENT' ? 'no such file' : lowerFirst(String(e?.message ?? e))}`);
    }
    let doc: any;
    try {
      // read as client-go reads it (sigs.k8s.io/yaml: its first document, YAML 1.1 scalars, merge keys)
      doc = readManifestStream(text)[0]?.value ?? {};
    } catch (e: any) {
      if (!(e instanceof ManifestSyntaxError)) throw e;
      throw new CliError(`kubeconfig ${file}:${e.message}`);
    }
    if (typeof doc !== 'object' || Array.isArray(doc)) throw new CliError(`kubeconfig ${file}: not a kubeconfig (expected a mapping with clusters, users and contexts)`);
    merged.files.push(file);
    if (merged.currentContext === undefined && typeof doc['current-context'] === 'string' && doc['current-context'] !== '') {
      merged.currentContext = doc['current-context'];
    }
    addNamed(merged.clusters, doc.clusters, 'cluster', file);
    addNamed(merged.users, doc.users, 'user', file);
    addNamed(merged.contexts, doc.contexts, 'context', file);
  }
  if (merged.files.length === 0) {
    throw new CliError(`no kubeconfig found (looked for ${files.join(', ')}); pass --kubeconfig FILE, set KUBECONFIG, or use --from SNAPSHOT`);
  }
  const contextName = options.context ?? merged.currentContext;
  if (contextName === undefined || contextName === '') {
    throw new CliError(`kubeconfig ${merged.files.join(', ')}: no current-context; pass --context NAME (contexts: ${[...merged.contexts.keys()].join(', ') || 'none'})`);
  }
  const context = merged.contexts.get(contextName);
  if (!context) {
    throw new CliError(`kubeconfig ${merged.files.join(', ')}: context "${contextName}" not found (contexts: ${[...merged.contexts.keys()].join(', ') || 'none'})`);
  }
  const clusterName = str(context.value?.cluster);
  const cluster = merged.clusters.get(clusterName);
  if (!cluster) throw new CliError(`kubeconfig: context "${contextName}" names cluster "${clusterName}", which is not defined`);
  const userName = str(context.value?.user);
  const user = userName === '' ? undefined : merged.users.get(userName);
  if (userName !== '' && !user) throw new CliError(`kubeconfig: context "${contextName}" names user "${userName}", which is not defined`);

  const c = cluster.value ?? {};
  const serverText = str(c.server);
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    throw new CliError(`kubeconfig ${cluster.file}: cluster "${clusterName}" has no valid server URL (got ${JSON.stringify(serverText)})`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') {
    throw new CliError(`kubeconfig ${cluster.file}: cluster "${clusterName}" server ${serverText} is not an http(s) URL`);
  }
  if (str(c['proxy-url']) !== '') {
    throw new CliError(`kubeconfig ${cluster.file}: cluster "${clusterName}" uses proxy-url, which this command does not support; take a snapshot with kubectl and use --from`);
  }
  const ca = dataOrFile(c['certificate-authority-data'], c['certificate-authority'], cluster.file, `cluster "${clusterName}" certificate-authority`);
  const u = user?.value ?? {};
  for (const unsupported of ['auth-provider', 'as', 'as-groups', 'as-uid']) {
    if (u[unsupported] !== undefined && u[unsupported] !== null && !(Array.isArray(u[unsupported]) && u[unsupported].length === 0)) {
      throw new CliError(`kubeconfig ${user!.file}: user "${userName}" uses ${unsupported}, which this command does not support; use an exec plugin, a token or a client certificate`);
    }
  }
  let cached: Promise<Credentials> | undefined;
  const target: KubeTarget = {
    contextName,
    server,
    namespace: str(context.value?.namespace) || 'default',
    ca,
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: str(c['tls-server-name']) || undefined,
    credentials: () => {
      cached ??= userCredentials(u, user?.file ?? '', userName, options.env, c, server);
      return cached;
    },
  };
  return target;
}

function addNamed(map: Map<string, Named>, list: unknown, what: string, file: string): void {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) throw new CliError(`kubeconfig ${file}: ${what}s must be a list`);
  for (const entry of list) {
    const name = str(entry?.name);
    if (name === '') throw new CliError(`kubeconfig ${file}: a ${what} without a name`);
    if (!map.has(name)) map.set(name, { name, value: entry?.[what] ?? {}, file: path.resolve(file) }); // the first file wins
  }
}

/** `xxx-data` (base64) or the file `xxx` (relative to the kubeconfig), or undefined. */
function dataOrFile(data: unknown, file: unknown, kubeconfig: string, what: string): Buffer | undefined {
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64');
  if (typeof file === 'string' && file !== '') return readRelative(file, kubeconfig, what);
  return undefined;
}

function readRelative(file: string, kubeconfig: string, what: string): Buffer {
  const resolved = path.isAbsolute(file) ? file : path.resolve(path.dirname(kubeconfig), file);
  try {
    return fs.readFileSync(resolved);
  } catch (e: any) {
    throw new CliError(`kubeconfig ${kubeconfig}: ${what} ${resolved}: cannot read file: ${e?.code === 'ENOENT' ? 'no such file' : lowerFirst(String(e?.message ?? e))}`);
  }
}

async function userCredentials(u: any, file: string, userName: string, env: NodeJS.ProcessEnv, cluster: any, server: URL): Promise<Credentials> {
  const label = `user "${userName}"`;
  const cert = dataOrFile(u['client-certificate-data'], u['client-certificate'], file, `${label} client-certificate`);
  const key = dataOrFile(u['client-key-data'], u['client-key'], file, `${label} client-key`);
  if ((cert === undefined) !== (key === undefined)) {
    throw new CliError(`kubeconfig ${file}: ${label} has a client certificate without a key, or a key without a certificate`);
  }
  let token = str(u.token) || undefined;
  if (token === undefined && str(u.tokenFile) !== '') token = readRelative(str(u.tokenFile), file, `${label} tokenFile`).toString('utf-8').trim();
  const basic = str(u.username) !== '' ? { username: str(u.username), password: str(u.password) } : undefined;
  if (u.exec && token === undefined && cert === undefined) {
    return runExecPlugin(u.exec, file, label, env, cluster, server);
  }
  return { token, basic, cert, key };
}

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/** runs an exec credential plugin (exec.go): non-interactive, its env on top of ours, KUBERNETES_EXEC_INFO set. */
async function runExecPlugin(exec: any, file: string, label: string, env: NodeJS.ProcessEnv, cluster: any, server: URL): Promise<Credentials> {
  const apiVersion = str(exec.apiVersion);
  if (!EXEC_API_VERSIONS.includes(apiVersion)) {
    throw new CliError(`kubeconfig ${file}: ${label} exec apiVersion ${JSON.stringify(apiVersion)} is not supported; use ${EXEC_API_VERSIONS.join(' or ')}`);
  }
  if (exec.interactiveMode === 'Always') {
    throw new CliError(`kubeconfig ${file}: ${label} exec plugin needs interactive mode (interactiveMode: Always), which this command does not provide`);
  }
  let command = str(exec.command);
  if (command === '') throw new CliError(`kubeconfig ${file}: ${label} exec has no command`);
  if (command.includes(path.sep) && !path.isAbsolute(command)) command = path.resolve(path.dirname(file), command);
  const spec: any = { interactive: false };
  if (exec.provideClusterInfo === true) {
    spec.cluster = {
      'server': server.toString().replace(/\/$/, ''),
      'tls-server-name': cluster['tls-server-name'],
      'insecure-skip-tls-verify': cluster['insecure-skip-tls-verify'],
      'certificate-authority-data': cluster['certificate-authority-data'],
      'config': cluster.extensions?.find?.((e: any) => e?.name === 'client.authentication.k8s.io/exec')?.extension,
    };
  }
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const e of Array.isArray(exec.env) ? exec.env : []) {
    if (typeof e?.name === 'string') childEnv[e.name] = str(e.value);
  }
  childEnv.KUBERNETES_EXEC_INFO = JSON.stringify({ kind: 'ExecCredential', apiVersion, spec });
  const args = Array.isArray(exec.args) ? exec.args.map(String) : [];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(command, args, { env: childEnv, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (error, out, err) => {
      if (error) {
        const hint = str(exec.installHint);
        const detail = (String(err).trim().split('\n').pop() || error.message).trim();
        reject(new CliError(`kubeconfig ${file}: ${label} exec plugin ${command} failed: ${lowerFirst(detail)}${hint ? `; ${hint.trim().split('\n')[0]}` : ''}`));
      } else {
        resolve(out);
      }
    });
  });
  let cred: any;
  try {
    cred = JSON.parse(stdout);
  } catch {
    throw new CliError(`kubeconfig ${file}: ${label} exec plugin ${command} did not print an ExecCredential (not JSON)`);
  }
  if (cred?.kind !== 'ExecCredential' || cred?.apiVersion !== apiVersion) {
    throw new CliError(`kubeconfig ${file}: ${label} exec plugin ${command} printed ${cred?.apiVersion ?? '?'} ${cred?.kind ?? '?'}, expected ${apiVersion} ExecCredential`);
  }
  const status = cred.status ?? {};
  const token = str(status.token) || undefined;
  const cert = str(status.clientCertificateData) ? Buffer.from(status.clientCertificateData) : undefined;
  const key = str(status.clientKeyData) ? Buffer.from(status.clientKeyData) : undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw new CliError(`kubeconfig ${file}: ${label} exec plugin ${command} returned a client certificate without a key, or a key without a certificate`);
  }
  if (token === undefined && cert === undefined) {
    throw new CliError(`kubeconfig ${file}: ${label} exec plugin ${command} returned neither a token nor a client certificate and key`);
  }
  return { token, cert, key };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
