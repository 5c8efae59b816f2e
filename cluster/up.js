#!/usr/bin/env node
// npm run cluster:up — a real Kubernetes cluster on loopback for the integration suite (test/cluster): etcd,
// kube-apiserver (Pod Security admission on, Node and RBAC authorization, static tokens) and kube-controller-manager
// (the DaemonSet controller and what it needs), built from Kubernetes' Go modules as pinned in cluster/go.mod; then
// one real node (cluster/node.js): containerd with runc and a CNI bridge, kube-scheduler and a kubelet from the same
// modules, with locally built images. Tests that need more nodes create API-only Nodes and act as their kubelet.
//
// Idempotent: when the processes recorded in .cluster/state.json are running and the API server is ready, it says
// so and exits 0. Otherwise it stops what is left of a previous start, wipes .cluster/ and starts afresh.
'use strict';
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const host = require('./host');
const lib = require('./lib');
const realNode = require('./node');
const { stopRecorded } = require('./down');

const PKI = path.join(lib.STATE_DIR, 'pki');
const LOGS = path.join(lib.STATE_DIR, 'logs');

async function main() {
  const t0 = Date.now();
  const pin = lib.readPin();
  const { bins, buildSeconds } = lib.ensureBinaries(pin);

  const previous = lib.readState();
  if (previous) {
    if (await isRunning(previous)) {
      console.log(`control plane and real node already running: Kubernetes ${previous.kubernetes}, API server ${previous.server}, ` +
        `kubeconfig ${lib.rel(lib.KUBECONFIG)} (npm run cluster:down stops it)`);
      return;
    }
    console.log('a previous start is not healthy: stopping what is left of it');
    await stopRecorded(previous, console.log);
  }

  const mounted = host.readMounts().filter((m) => m.startsWith(`${lib.STATE_DIR}/`) || m.startsWith(`${realNode.KUBELET_ROOT}/`));
  if (mounted.length > 0) {
    throw new lib.ClusterError(`mounts of an earlier real node are still in place (${mounted.slice(0, 3).join(', ')}...) and no state records them: unmount them (umount) before cluster:up wipes ${lib.rel(lib.STATE_DIR)}`);
  }
  fs.rmSync(lib.STATE_DIR, { recursive: true, force: true });
  fs.mkdirSync(PKI, { recursive: true });
  fs.mkdirSync(LOGS, { recursive: true });

  const ports = await freePorts(7);
  const [etcdClient, etcdPeer, apiserverPort, kcmPort, schedulerPort, kubeletPort, kubeletHealthzPort] = ports;
  const server = `https://127.0.0.1:${apiserverPort}`;
  const credentials = writePki();
  const kcmKubeconfig = path.join(lib.STATE_DIR, 'kube-controller-manager.kubeconfig');
  writeKubeconfig(lib.KUBECONFIG, server, 'admin', credentials.adminToken);
  writeKubeconfig(kcmKubeconfig, server, 'system:kube-controller-manager', credentials.kcmToken);
  const schedulerKubeconfig = path.join(lib.STATE_DIR, 'kube-scheduler.kubeconfig');
  const kubeletKubeconfig = path.join(lib.STATE_DIR, 'kubelet.kubeconfig');
  writeKubeconfig(schedulerKubeconfig, server, 'system:kube-scheduler', credentials.schedulerToken);
  writeKubeconfig(kubeletKubeconfig, server, `system:node:${realNode.NODE_NAME}`, credentials.kubeletToken);

  const state = {
    kubernetes: pin.kubernetes, server,
    ports: { etcdClient, etcdPeer, apiserver: apiserverPort, kubeControllerManager: kcmPort, kubeScheduler: schedulerPort, kubelet: kubeletPort, kubeletHealthz: kubeletHealthzPort },
    binDir: path.dirname(bins.etcd), processes: [], startedAt: new Date().toISOString(),
  };
  const save = () => fs.writeFileSync(lib.STATE_FILE, JSON.stringify(state, null, 2) + '\n');
  const timings = {};
  try {
    // etcd: plain HTTP is enough on loopback; no fsync because the data is thrown away after the run.
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    let t = Date.now();
    startProcess(state, save, 'etcd', bins.etcd, [
      '--name=cdk8s-node-agents', `--data-dir=${path.join(lib.STATE_DIR, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=cdk8s-node-agents=${peerUrl}`, '--unsafe-no-fsync', '--log-level=warn',
    ]);
    await waitFor(state, 'etcd', 30, async () => {
      const r = await lib.get(`${etcdUrl}/health`);
      return r.status === 200 && JSON.parse(r.body).health === 'true';
    });
    timings.etcd = Date.now() - t;

    t = Date.now();
    startProcess(state, save, 'kube-apiserver', bins['kube-apiserver'], [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiserverPort}`,
      // the default reconciler publishes the advertise address as the kubernetes Service's endpoint, and the API
      // rejects a loopback endpoint; upstream's own test server turns it off the same way.
      '--endpoint-reconciler-type=none',
      `--cert-dir=${path.join(lib.STATE_DIR, 'apiserver-certs')}`,
      `--tls-cert-file=${path.join(PKI, 'apiserver.crt')}`, `--tls-private-key-file=${path.join(PKI, 'apiserver.key')}`,
      `--client-ca-file=${path.join(PKI, 'ca.crt')}`,
      `--token-auth-file=${path.join(PKI, 'tokens.csv')}`,
      // as real clusters run it: the admin is in system:masters; the controllers act under their own service
      // accounts and bootstrap roles (kube-controller-manager --use-service-account-credentials); the kubelet is
      // system:node:<name> in system:nodes, which the Node authorizer serves.
      '--authorization-mode=Node,RBAC',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${path.join(PKI, 'sa.pub')}`, `--service-account-signing-key-file=${path.join(PKI, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      // CNI and CSI node plugins are privileged; kubeadm, kind and every managed cluster allow that (default false).
      '--allow-privileged=true',
      '--profiling=false',
    ]);
    await waitFor(state, 'kube-apiserver', 90, async () => {
      const r = await lib.get(`${server}/readyz`, { ca: credentials.ca, token: credentials.adminToken });
      return r.status === 200 && r.body.trim() === 'ok';
    });
    timings['kube-apiserver'] = Date.now() - t;

    t = Date.now();
    startProcess(state, save, 'kube-controller-manager', bins['kube-controller-manager'], [
      `--kubeconfig=${kcmKubeconfig}`,
      `--authentication-kubeconfig=${kcmKubeconfig}`, `--authorization-kubeconfig=${kcmKubeconfig}`,
      '--bind-address=127.0.0.1', `--secure-port=${kcmPort}`,
      `--tls-cert-file=${path.join(PKI, 'kcm.crt')}`, `--tls-private-key-file=${path.join(PKI, 'kcm.key')}`,
      // the DaemonSet controller, and what the suite needs beside it: default ServiceAccounts in new namespaces,
      // token Secrets, namespace deletion, garbage collection (pods and ControllerRevisions of deleted DaemonSets) and
      // the kube-root-ca.crt ConfigMap in every namespace (the real node's kubelet mounts it into every pod's
      // service account volume), and aggregated ClusterRoles filled from the roles they select (admin, edit and view
      // among them, as on every cluster: the RBAC differential test binds them). No node lifecycle controller: the API-only Nodes have no kubelet renewing a lease,
      // and their taints and conditions are the tests' to set.
      '--controllers=daemonset-controller,serviceaccount-controller,serviceaccount-token-controller,namespace-controller,garbage-collector-controller,root-ca-certificate-publisher-controller,clusterrole-aggregation-controller',
      '--use-service-account-credentials=true',
      `--service-account-private-key-file=${path.join(PKI, 'sa.key')}`,
      `--root-ca-file=${path.join(PKI, 'ca.crt')}`,
      '--leader-elect=false',
      '--profiling=false',
    ]);
    await waitFor(state, 'kube-controller-manager', 60, async () => {
      const health = await lib.get(`https://127.0.0.1:${kcmPort}/healthz`, { ca: credentials.ca });
      if (health.status !== 200) return false;
      // ready for the suite once its controllers act: the ServiceAccount controller has made default/default.
      const sa = await lib.get(`${server}/api/v1/namespaces/default/serviceaccounts/default`, { ca: credentials.ca, token: credentials.adminToken });
      return sa.status === 200;
    });
    timings['kube-controller-manager'] = Date.now() - t;

    Object.assign(timings, await realNode.startNode({
      state, save, startProcess, waitFor, bins, server, credentials, schedulerKubeconfig, kubeletKubeconfig,
      caFile: path.join(PKI, 'ca.crt'), ports: state.ports,
    }));
  } catch (e) {
    console.error('start failed: stopping what was started');
    await stopRecorded(state, console.error);
    throw e;
  }
  const version = await lib.get(`${server}/version`, { ca: credentials.ca, token: credentials.adminToken });
  const gitVersion = JSON.parse(version.body).gitVersion;
  if (gitVersion !== pin.kubernetes) {
    await stopRecorded(state, console.error);
    throw new lib.ClusterError(`the API server reports version ${gitVersion}, but cluster/go.mod pins ${pin.kubernetes}`);
  }
  const started = Object.entries(timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ');
  console.log(`cluster ready: Kubernetes ${gitVersion}, API server ${server}, real node ${realNode.NODE_NAME}, kubeconfig ${lib.rel(lib.KUBECONFIG)}`);
  console.log(`  start: ${started}; total ${((Date.now() - t0) / 1000).toFixed(1)} s` +
    (buildSeconds === undefined ? ' (binaries cached)' : ` including the build (${buildSeconds.toFixed(1)} s)`));
  console.log(`  logs in ${lib.rel(LOGS)}; stop with npm run cluster:down`);
}

async function isRunning(state) {
  if (!state.processes?.length || !state.processes.every((p) => lib.isOurs(p.pid, p.binary))) return false;
  try {
    const ca = fs.readFileSync(path.join(PKI, 'ca.crt'));
    const r = await lib.get(`${state.server}/readyz`, { ca });
    return r.status === 200;
  } catch {
    return false;
  }
}

/** starts a detached process logging to .cluster/logs/<name>.log, and records its pid before anything else. */
function startProcess(state, save, name, binary, args) {
  const logFile = path.join(LOGS, `${name}.log`);
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  state.processes.push({ name, pid: child.pid, binary, log: logFile });
  save();
  child.unref();
  console.log(`started ${name} (pid ${child.pid}), log ${lib.rel(logFile)}`);
}

async function waitFor(state, name, seconds, ready) {
  const proc = state.processes.find((p) => p.name === name);
  const deadline = Date.now() + seconds * 1000;
  let last = 'not ready';
  while (Date.now() < deadline) {
    if (!lib.isOurs(proc.pid, proc.binary)) {
      throw new lib.ClusterError(`${name} (pid ${proc.pid}) exited during start; the end of ${lib.rel(proc.log)}:\n${lib.tail(proc.log)}`);
    }
    try {
      if (await ready()) return;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new lib.ClusterError(`${name} was not ready within ${seconds} s (${last}); the end of ${lib.rel(proc.log)}:\n${lib.tail(proc.log)}`);
}

/** distinct free loopback ports, chosen by the kernel (bind to port 0), so parallel runs and other services don't collide. */
async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = net.createServer();
      await new Promise((resolve, reject) => s.listen(0, '127.0.0.1', resolve).on('error', reject));
      servers.push(s);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * A CA, serving certificates for the API server and the controller manager (127.0.0.1 and localhost), the service
 * account signing key pair and two bearer tokens, all made here for this start. openssl makes the certificates
 * (Node can parse X.509 but not issue it); node:crypto makes the keys and tokens.
 */
function writePki() {
  if (!lib.which('openssl')) throw new lib.ClusterError('openssl is needed to make the local certificates: install it (apt-get install openssl)');
  const file = (n) => path.join(PKI, n);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  lib.run('openssl', ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '30',
    '-subj', '/CN=cdk8s-node-agents local test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  for (const [name, cn] of [['apiserver', 'kube-apiserver'], ['kcm', 'kube-controller-manager']]) {
    lib.run('openssl', ['req', '-new', ...ec, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${cn}`]);
    fs.writeFileSync(file(`${name}.ext`), [
      'basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1,DNS:localhost', '',
    ].join('\n'));
    lib.run('openssl', ['x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.crt'), '-CAkey', file('ca.key'),
      '-CAcreateserial', '-days', '30', '-extfile', file(`${name}.ext`), '-out', file(`${name}.crt`)]);
  }
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  fs.writeFileSync(file('sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  fs.writeFileSync(file('sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  const adminToken = crypto.randomBytes(32).toString('hex');
  const kcmToken = crypto.randomBytes(32).toString('hex');
  const schedulerToken = crypto.randomBytes(32).toString('hex');
  const kubeletToken = crypto.randomBytes(32).toString('hex');
  const nodeUser = `system:node:${realNode.NODE_NAME}`;
  // token,user,uid,"groups"
  fs.writeFileSync(file('tokens.csv'), [
    `${adminToken},admin,admin,"system:masters"`,
    `${kcmToken},system:kube-controller-manager,system:kube-controller-manager`,
    `${schedulerToken},system:kube-scheduler,system:kube-scheduler`,
    `${kubeletToken},${nodeUser},${nodeUser},"system:nodes"`,
    '',
  ].join('\n'), { mode: 0o600 });
  return { ca: fs.readFileSync(file('ca.crt')), adminToken, kcmToken, schedulerToken, kubeletToken };
}

function writeKubeconfig(file, server, user, token) {
  const ca = fs.readFileSync(path.join(PKI, 'ca.crt')).toString('base64');
  fs.writeFileSync(file, [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: cdk8s-node-agents',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    `- name: ${JSON.stringify(user)}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: cdk8s-node-agents',
    '  context:',
    '    cluster: cdk8s-node-agents',
    `    user: ${JSON.stringify(user)}`,
    'current-context: cdk8s-node-agents',
    '',
  ].join('\n'), { mode: 0o600 });
}

main().catch((e) => {
  console.error(`error: ${e instanceof lib.ClusterError ? e.message : e.stack}`);
  process.exit(1);
});
