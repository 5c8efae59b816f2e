/**
 * Internal: the objects a NodeAgent's pods run with, beside the DaemonSet: ServiceAccount, RBAC, ConfigMap and Service.
 * Not exported.
 */
import { ApiObject, Chart, JsonPatch, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { PatchCheckedApiObject } from './_checked-api-object';
import { checkLabelKey, fail, show } from './_validate';
import { AccessRule } from './access-rule';
import { AgentPort } from './container-options';
import { AgentServiceOptions } from './node-agent-props';

/** who the agent is: the names and labels its objects share. */
export interface AgentIdentityProps {
  readonly name: string;
  readonly namespace: string;
  readonly selectorLabels: { [key: string]: string };
  /** every object's labels, `app.kubernetes.io/managed-by` included. */
  readonly labels: { [key: string]: string };
  /** whether to mount the token, when the props say; otherwise decided by the permissions. */
  readonly automountServiceAccountToken?: boolean;
  /** called with every object created in the agent's namespace (to order it after the Namespace). */
  readonly inNamespace: (object: ApiObject) => void;
}

export class AgentIdentity {
  public readonly serviceAccount: ApiObject;
  private readonly clusterRules: AccessRule[] = [];
  private readonly namespaceRules: AccessRule[] = [];
  private clusterRbac?: { role: ApiObject; binding: ApiObject };
  private namespaceRbac?: { role: ApiObject; binding: ApiObject };

  constructor(private readonly scope: Construct, private readonly props: AgentIdentityProps) {
    this.serviceAccount = new PatchCheckedApiObject(scope, 'ServiceAccount', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: props.name, namespace: props.namespace, labels: { ...props.labels } },
      automountServiceAccountToken: Lazy.any({ produce: () => this.mountsToken() }),
    });
    props.inNamespace(this.serviceAccount);
  }

  /** whether the pods mount the ServiceAccount token: as the props say, else only when the agent has permissions. */
  public mountsToken(): boolean {
    return this.props.automountServiceAccountToken ?? (this.clusterRules.length > 0 || this.namespaceRules.length > 0);
  }

  public addClusterPermission(rule: AccessRule): void {
    this.checkRule('clusterPermissions', rule);
    this.clusterRules.push(rule);
    if (!this.clusterRbac) this.clusterRbac = this.createRbac(true);
  }

  public addNamespacePermission(rule: AccessRule): void {
    this.checkRule('namespacePermissions', rule);
    this.namespaceRules.push(rule);
    if (!this.namespaceRbac) this.namespaceRbac = this.createRbac(false);
  }

  /** the ConfigMap holding the config files, checked: valid file names, string contents, at least one file. */
  public createConfigMap(files: { [fileName: string]: string }): ApiObject {
    const names = Object.keys(files);
    if (names.length === 0) fail(this.scope, 'configFiles is empty: give at least one file, or leave configFiles out');
    for (const f of names) {
      if (!/^[-._a-zA-Z0-9]+$/.test(f) || f === '.' || f === '..' || f.length > 253) {
        fail(this.scope, `configFiles: "${f}" is not a valid file name: use at most 253 letters, digits, '-', '_' and '.'`);
      }
      if (typeof files[f] !== 'string') fail(this.scope, `configFiles.${f} must be a string, got ${typeof files[f]}`);
    }
    const configMap = new PatchCheckedApiObject(this.scope, 'Config', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${this.props.name}-config`, namespace: this.props.namespace, labels: { ...this.props.labels } },
      data: { ...files },
    });
    this.props.inNamespace(configMap);
    return configMap;
  }

  /** a ClusterIP Service over the named ports of the main container. */
  public createService(options: AgentServiceOptions, declared: AgentPort[]): ApiObject {
    if (!Array.isArray(options.ports) || options.ports.length === 0) {
      fail(this.scope, `service.ports is empty: name at least one port of the main container, e.g. ports: ['metrics'], got ${show(options.ports)}`);
    }
    const ports = options.ports.map((name) => {
      const port = declared.find((p) => p.name === name);
      if (!port) {
        fail(this.scope, `service.ports: "${name}" is not a port of the main container (ports: [${declared.map((p) => p.name).join(', ')}]): declare it in ports first`);
      }
      return { name, port: port.containerPort, targetPort: name, protocol: port.protocol ?? 'TCP' };
    });
    for (const k of Object.keys(options.annotations ?? {})) checkLabelKey(this.scope, 'service.annotations', k);
    const service = new PatchCheckedApiObject(this.scope, 'Service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: this.props.name,
        namespace: this.props.namespace,
        labels: { ...this.props.labels },
        annotations: options.annotations ? { ...options.annotations } : undefined,
      },
      spec: {
        type: 'ClusterIP',
        selector: { ...this.props.selectorLabels },
        ports,
        internalTrafficPolicy: options.nodeLocal ? 'Local' : undefined,
      },
    });
    this.props.inNamespace(service);
    return service;
  }

  private createRbac(cluster: boolean): { role: ApiObject; binding: ApiObject } {
    const { name, namespace, labels } = this.props;
    const rules = cluster ? this.clusterRules : this.namespaceRules;
    const roleKind = cluster ? 'ClusterRole' : 'Role';
    // namespace and name cannot contain ':', so the cluster-wide name is unique per agent.
    const roleName = cluster ? `${namespace}:${name}` : name;
    const role = new PatchCheckedApiObject(this.scope, roleKind, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: roleKind,
      metadata: { name: roleName, namespace: cluster ? undefined : namespace, labels: { ...labels } },
      rules: Lazy.any({ produce: () => rules.map(renderRule) }),
    });
    const binding = new PatchCheckedApiObject(this.scope, `${roleKind}Binding`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: `${roleKind}Binding`,
      metadata: { name: roleName, namespace: cluster ? undefined : namespace, labels: { ...labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    });
    if (!cluster) {
      this.props.inNamespace(role);
      this.props.inNamespace(binding);
    }
    if (cluster && Chart.of(this.scope).namespace !== undefined) {
      // cluster-scoped objects carry no namespace, whatever the chart's default.
      role.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
      binding.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
    return { role, binding };
  }

  private checkRule(field: string, rule: AccessRule): void {
    if (!rule || !Array.isArray(rule.verbs) || rule.verbs.length === 0) fail(this.scope, `${field}: each rule needs at least one verb, e.g. { resources: ['pods'], verbs: ['get', 'list', 'watch'] }`);
    if (!Array.isArray(rule.resources) || rule.resources.length === 0) fail(this.scope, `${field}: each rule needs at least one resource, e.g. { resources: ['pods'], verbs: ['get'] }`);
    if (rule.resourceNames !== undefined && rule.resourceNames.length === 0) fail(this.scope, `${field}: resourceNames is empty, which Kubernetes reads as "every object": leave it out or list the names`);
  }
}

function renderRule(r: AccessRule): any {
  return {
    apiGroups: r.apiGroups ?? [''],
    resources: [...r.resources],
    verbs: [...r.verbs],
    resourceNames: r.resourceNames ? [...r.resourceNames] : undefined,
  };
}
