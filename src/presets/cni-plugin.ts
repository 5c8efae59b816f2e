import { Construct } from 'constructs';
import { HostMount, NodeAgent, NodeAgentProps, NodeAgentSettings, Toleration } from '../agent';
import { NODE_LEVEL_RBAC } from './_cni-common';
import { CniFlavor } from './cni-flavor';
import { kplus } from '../agent/_plus';
import { acknowledgeDefaults, presetFail, withPresetDefaults, withoutKeys } from '../agent/_preset';
import { checkPresetProps, instance, presetProps } from '../agent/_props-schema';

/**
 * Properties for `CniPlugin`.
 *
 * Every `NodeAgent` property can be set. A list prop keeps what the flavor's agent needs and adds your
 * items after it; an item of yours that conflicts with one of those is refused, naming it:
 * - `initContainers`: the flavor's installers (they write `/opt/cni/bin` and `/etc/cni/net.d`) are kept,
 *   and yours run after them;
 * - `hostMounts`: `/run/xtables.lock` and the flavor's mounts are kept;
 * - `args`, `capabilities`, `ports`, `scratchDirs` and `clusterPermissions`: the flavor's are kept;
 * - `tolerations` and `command` replace the preset's (where it runs and which program starts are yours);
 * - the other lists have no default: yours are used.
 * Two maps keep the flavor's too: `env` and `configFiles` (the installers copy them); yours are added,
 * another value for one of theirs is refused. Every other prop you set replaces the default (the
 * preset's or the flavor's). The `add*` methods add
 * to the lists after construction, e.g. `cni.addToleration(...)`.
 */
export interface CniPluginProps extends NodeAgentSettings {
  /**
   * Which CNI agent to run: it supplies the image, command, args, env, capabilities, host mounts,
   * installers (init containers), config files, RBAC, probes and resources.
   *
   * @default CniFlavor.flannel()
   */
  readonly flavor?: CniFlavor;

  /**
   * The agent image.
   *
   * @default - the flavor's image (`CniFlavor.FLANNEL_IMAGE` for the default flavor)
   */
  readonly image?: string;
}

/**
 * A CNI plugin's node agent: installs the pod network's plugin on every node and runs the agent that
 * keeps it working.
 *
 * Defaults (each set through the matching `NodeAgent` property; the list props keep what the preset needs, see its props):
 * - the flavor's agent (flannel by default, with `ghcr.io/flannel-io/flannel:v0.28.9` and
 *   `ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3`): see `CniFlavor`;
 * - the installer pattern: init containers write `/opt/cni/bin` and `/etc/cni/net.d` (read-write,
 *   DirectoryOrCreate, each with its reason) while the long-running agent does not mount them
 *   writable (flannel's does not mount them at all);
 * - the host network, with the reason: the agent configures the node's own network;
 * - `/run/xtables.lock` (FileOrCreate, read-write, with the reason): the lock that every iptables
 *   user on the node shares, so its rules and kube-proxy's never interleave;
 * - `system-node-critical` priority: a node without its CNI agent cannot start pods;
 * - tolerates every taint (`Toleration.everything()`): a node without its CNI is useless, so the agent
 *   must run on tainted, not-ready and draining nodes too (as Cilium, kube-proxy and flannel's chart);
 * - node-level RBAC: pods get; nodes get, list, watch; nodes/status patch (flavors add their own);
 * - the flavor's privileges, each with its reason; flannel: root with only `NET_ADMIN` and `NET_RAW`,
 *   read-only root filesystem, no privilege escalation, seccomp `RuntimeDefault`;
 * - probes and resources from the flavor (flannel: `GET /healthz` on 8081; requests 100m and 64Mi,
 *   memory limit 128Mi);
 * - security review: the findings the flavor's defaults cause (flannel: its lease directory under
 *   `/run` and the installer writing `/opt/cni/bin`) are acknowledged, each with the reason and scoped
 *   to its container: the installers' always (they are kept whatever you add), the agent's while the
 *   props that cause them (`hostMounts`, and for Calico and Cilium `privileged`, `capabilities`,
 *   `readOnlyRootFilesystem`) keep their defaults.
 *   `custom()` flavors acknowledge nothing: call `acknowledge(rule, reason, container)` on the plugin.
 *
 * @see https://www.cni.dev/docs/spec/
 */
export class CniPlugin extends NodeAgent {
  /**
   * The `/run/xtables.lock` mount that every CNI agent using iptables needs; included by default.
   */
  public static xtablesLockMount(): HostMount {
    return HostMount.readWrite('/run/xtables.lock', 'shares the iptables lock with every other iptables user on the node, so rule updates never interleave', {
      type: kplus().HostPathVolumeType.FILE_OR_CREATE,
    });
  }

  private static resolve(scope: Construct, id: string, props: CniPluginProps): NodeAgentProps {
    props = checkPresetProps<CniPluginProps>((m) => presetFail(scope, id, m), props, CNI_PLUGIN_PROPS);
    const flavor = props.flavor ?? CniFlavor.flannel();
    const o = flavor.options;
    const agent = `the ${flavor.name} agent`;
    const essentials = {
      args: { items: o.args ?? [], why: `${agent} is configured through them` },
      hostMounts: {
        items: [CniPlugin.xtablesLockMount(), ...o.hostMounts ?? []],
        why: `${agent} keeps its state there and shares the iptables lock with the node`,
      },
      initContainers: {
        items: o.installers ?? [],
        why: 'its installers write the CNI plugin binaries and network configuration that the container runtime needs for every new pod',
      },
      capabilities: { items: o.capabilities ?? [], why: `${agent} needs them to configure the node's network` },
      ports: { items: o.ports ?? [], why: `${agent} serves on them` },
      volumes: { items: o.volumes ?? [], why: `${agent} reads or writes them` },
      envFrom: { items: o.envFrom ?? [], why: `${agent} is configured through them` },
      scratchDirs: { items: o.scratchDirs ?? [], why: `${agent} writes there (its root filesystem is read-only)` },
      clusterPermissions: { items: o.clusterPermissions ?? NODE_LEVEL_RBAC, why: `${agent} reads its node and reports the node's network status` },
    };
    const defaults: NodeAgentProps = {
      image: o.image,
      command: o.command,
      args: o.args,
      env: o.env,
      envValueFrom: o.envValueFrom,
      envFrom: o.envFrom,
      volumes: o.volumes,
      ports: o.ports,
      capabilities: o.capabilities,
      privileged: o.privileged,
      runAsRoot: o.runAsRoot,
      runAsUser: o.runAsUser,
      runAsGroup: o.runAsGroup,
      readOnlyRootFilesystem: o.readOnlyRootFilesystem,
      scratchDirs: o.scratchDirs,
      resources: o.resources,
      liveness: o.liveness,
      readiness: o.readiness,
      startup: o.startup,
      hostMounts: essentials.hostMounts.items,
      initContainers: o.installers,
      configFiles: o.configFiles,
      configMountPath: o.configMountPath,
      clusterPermissions: essentials.clusterPermissions.items,
      hostNetwork: { reason: 'the CNI agent configures the node\'s own network: interfaces, routes and iptables rules for every pod' },
      priorityClassName: 'system-node-critical',
      tolerations: [Toleration.everything()],
    };
    const maps = {
      env: { entries: o.env ?? {}, why: `${agent} is configured through them` },
      configFiles: { entries: o.configFiles ?? {}, why: `${agent} and its installers read them (set the flavor's options to change them)` },
    };
    return withPresetDefaults(defaults, withoutKeys(props, ['flavor']), { preset: 'CniPlugin', fail: (m) => presetFail(scope, id, m), lists: essentials, maps });
  }

  /** the CNI flavor in use. */
  public readonly flavor: CniFlavor;

  constructor(scope: Construct, id: string, props: CniPluginProps = {}) {
    super(scope, id, CniPlugin.resolve(scope, id, props));
    this.flavor = props?.flavor ?? CniFlavor.flannel();
    acknowledgeDefaults(this, props, this.flavor._acknowledgements);
  }
}

const CNI_PLUGIN_PROPS = presetProps('CniPluginProps', {
  flavor: instance((v) => v instanceof CniFlavor, 'created with CniFlavor.flannel(), calico(), cilium() or custom()'),
});
