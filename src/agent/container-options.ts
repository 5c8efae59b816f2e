import { Size } from 'cdk8s';
import type { Capability, Cpu, Protocol } from 'cdk8s-plus-28';
import { AgentProbe } from './agent-probe';
import { AgentVolume } from './agent-volume';
import { EnvSource } from './env-source';
import { EnvValue } from './env-value';
import { HostMount } from './host-mount';

/**
 * A written reason for a host privilege. Giving one is what turns the privilege on.
 */
export interface Justification {
  /** one line saying why the agent needs the privilege; recorded on the DaemonSet and shown in the review. */
  readonly reason: string;
}

/**
 * A Linux capability added to a container, with the reason it is needed.
 */
export interface CapabilityGrant {
  /** the capability, e.g. `Capability.NET_ADMIN`. */
  readonly capability: Capability;
  /** one line saying why the agent needs it. */
  readonly reason: string;

  /**
   * The container's entrypoint carries this capability as a file capability (set in the image with `setcap`, e.g.
   * `setcap cap_net_bind_service=+ep /usr/bin/agent`), which is how a non-root container gets an added capability: the
   * runtime puts it in the permitted set of the container's first process, executing the entrypoint keeps it because
   * the file carries it, and with `allowPrivilegeEscalation: false` no program the entrypoint executes later gains it
   * unless it had it. The library cannot see the image: say in `reason` which program carries it. The review's
   * NA-CAPABILITY-INERT finding for the container is then acknowledged with this declaration.
   *
   * @default false - the capability takes effect only for root: a non-root container with it is refused
   */
  readonly entrypointFileCapability?: boolean;
}

/**
 * A port on the node's own address, with the reason it is needed.
 */
export interface HostPortGrant {
  /** the port number on the node. */
  readonly port: number;
  /** one line saying why the agent must be reachable on the node's address. */
  readonly reason: string;
}

/**
 * A port the container listens on.
 */
export interface AgentPort {
  /** the port name (at most 15 characters), e.g. `metrics`. */
  readonly name: string;

  /** the port number inside the container. */
  readonly containerPort: number;

  /**
   * The protocol.
   *
   * @default Protocol.TCP
   */
  readonly protocol?: Protocol;

  /**
   * Also bind the port on the node's address. Every node can then run only one such pod, and the
   * port is reachable by anything that reaches the node.
   *
   * @default - not bound on the node
   */
  readonly hostPort?: HostPortGrant;
}

/**
 * Resource requests and limits of a container.
 *
 * Node agents get requests (so the scheduler reserves room for them on every node) and a memory
 * limit (so a leak cannot take the node down), but no CPU limit by default: a CPU limit throttles the
 * agent under CFS quotas exactly when the node is busy, which is when logs, metrics and security
 * events matter most, and the requests already guarantee its share.
 */
export interface AgentResources {
  /**
   * CPU request.
   *
   * @default Cpu.millis(100)
   */
  readonly cpuRequest?: Cpu;

  /**
   * CPU limit.
   *
   * @default - no CPU limit (see above)
   */
  readonly cpuLimit?: Cpu;

  /**
   * Memory request.
   *
   * @default Size.mebibytes(128)
   */
  readonly memoryRequest?: Size;

  /**
   * Memory limit.
   *
   * @default - twice the memory request (256Mi with the default request)
   */
  readonly memoryLimit?: Size;
}

/**
 * What a container of a node agent runs and what it may take from the host, except its image (see
 * `ContainerOptions`, which adds it). Presets extend the image-less form so that every container
 * setting can be passed to them while the image keeps a pinned default.
 *
 * Every container is locked down unless told otherwise: it runs as non-root, with a read-only root
 * filesystem, no privilege escalation and every capability dropped. Each host privilege below is an
 * explicit opt-in carrying a one-line reason.
 */
export interface ContainerSettings {
  /**
   * The entrypoint. On a preset, yours replaces the preset's (its args are still passed). It runs as PID 1 of the
   * container, which ignores every signal it has no handler for: a shell (`sh -c`) ignores SIGTERM unless it traps it,
   * so every stop waits the whole `terminationGracePeriod`. Trap it and wait in the background, so the trap runs at
   * once: `['sh', '-c', 'trap "exit 0" TERM; while true; do ...; sleep 10 & wait $!; done']`, or `exec` a program that
   * handles SIGTERM.
   *
   * @default - the image's entrypoint
   */
  readonly command?: string[];

  /**
   * Arguments to the entrypoint. On a preset, the items it needs are kept and these added after them (its props list them).
   *
   * @default - the image's default arguments
   */
  readonly args?: string[];

  /**
   * Extra environment variables. `NODE_NAME`, `POD_NAME` and `POD_NAMESPACE` are always set from the
   * downward API and cannot be overridden here.
   *
   * @default - only the downward-API variables
   */
  readonly env?: { [name: string]: string };

  /**
   * Environment variables read from Secret or ConfigMap keys when the container starts
   * (`valueFrom.secretKeyRef` / `configMapKeyRef`), e.g. `{ LOKI_PASSWORD: EnvValue.fromSecretKey('loki', 'password') }`:
   * the manifest carries the reference, never the value, which is how a credential belongs in an env
   * variable. They come before `env`, so `env` values can use them as `$(LOKI_PASSWORD)`.
   *
   * @default - none
   */
  readonly envValueFrom?: { [name: string]: EnvValue };

  /**
   * Every key of Secrets or ConfigMaps as environment variables (`envFrom`), e.g.
   * `[EnvSource.fromSecret('datadog-secret', { prefix: 'DD_' })]`. A variable set in `env` or
   * `envValueFrom` wins over one of the same name from here (Kubernetes' rule).
   *
   * @default - none
   */
  readonly envFrom?: EnvSource[];

  /**
   * Pod volumes the container mounts: Secrets, ConfigMaps and projected volumes (read-only), and
   * `emptyDir`s sized or in memory (read-write), e.g.
   * `[AgentVolume.fromSecret('agent-tls', '/etc/agent/tls')]`. None of them is a host privilege.
   *
   * @default - none
   */
  readonly volumes?: AgentVolume[];

  /**
   * Ports the container listens on. On a preset, the items it needs are kept and these added after them (its props list them).
   *
   * @default - none
   */
  readonly ports?: AgentPort[];

  /**
   * Host paths the container mounts, read-only unless created with `HostMount.readWrite`. On a preset, the items it needs are kept and these added after them (its props list them).
   *
   * @default - none
   */
  readonly hostMounts?: HostMount[];

  /**
   * Writable scratch directories backed by an `emptyDir` (lost when the pod goes), for programs that
   * need to write somewhere while the root filesystem is read-only, e.g. `/tmp`. On a preset, the items it needs are kept and these added after them (its props list them).
   *
   * @default - none
   */
  readonly scratchDirs?: string[];

  /**
   * Linux capabilities to add, each with its reason. All others are dropped. On a preset, the items it needs are kept and these added after them (its props list them).
   *
   * An added capability takes effect only for root, so a container with capabilities must also set `runAsRoot` (with
   * its reason): root with every other capability dropped gets exactly the added ones. A non-root container with
   * capabilities is refused: Kubernetes sets no ambient capabilities, and with `allowPrivilegeEscalation: false` (which
   * every non-privileged container gets) a non-root process keeps an added capability only if the file of its
   * entrypoint carries it as a file capability (`setcap`), which the library cannot see in the image: declare that with
   * `entrypointFileCapability` on the grant. On a real node a non-root container had its added capabilities in its
   * bounding set and none effective (CapEff 0).
   *
   * @default - none: every capability is dropped
   */
  readonly capabilities?: CapabilityGrant[];

  /**
   * Run the container privileged: it gets every capability and every device of the node, which is
   * root on the node. Prefer `capabilities`; needed for `Bidirectional` mount propagation.
   *
   * @default - not privileged
   */
  readonly privileged?: Justification;

  /**
   * Run the container as root (UID 0). Needed for added `capabilities` to take effect.
   *
   * @default - runs as non-root (`runAsNonRoot: true`): the image must define a non-root user or `runAsUser` must be set
   */
  readonly runAsRoot?: Justification;

  /**
   * The non-root UID to run as (0 is rejected: use `runAsRoot`).
   *
   * @default - the image's user, which must not be root
   */
  readonly runAsUser?: number;

  /**
   * The GID to run as.
   *
   * @default - the image's group
   */
  readonly runAsGroup?: number;

  /**
   * Whether the root filesystem is read-only. Keep it read-only and use `scratchDirs` for the places the
   * program writes to.
   *
   * @default true
   */
  readonly readOnlyRootFilesystem?: boolean;

  /**
   * Resource requests and limits.
   *
   * @default - requests 100m CPU and 128Mi memory, memory limit 256Mi, no CPU limit
   */
  readonly resources?: AgentResources;

  /**
   * Liveness probe: the kubelet restarts the container when it fails.
   *
   * @default - none
   */
  readonly liveness?: AgentProbe;

  /**
   * Readiness probe: the pod counts as available (and the rollout moves on) only when it passes.
   *
   * @default - none
   */
  readonly readiness?: AgentProbe;

  /**
   * Startup probe: holds off the other probes until the agent has started.
   *
   * @default - none
   */
  readonly startup?: AgentProbe;
}

/**
 * What a container of a node agent runs and what it may take from the host.
 *
 * Every container is locked down unless told otherwise: it runs as non-root, with a read-only root
 * filesystem, no privilege escalation and every capability dropped. Each host privilege is an
 * explicit opt-in carrying a one-line reason.
 */
export interface ContainerOptions extends ContainerSettings {
  /** the image, pinned to a version tag or a digest (`latest` and untagged images are rejected). */
  readonly image: string;
}

/**
 * An extra container of a node agent: an init container or a sidecar.
 */
export interface AgentContainerProps extends ContainerOptions {
  /** the container name, unique within the pod. */
  readonly name: string;

  /**
   * Also mount the agent's `configFiles` (read-only) into this container, at this path, e.g. for an
   * installer init container that copies a CNI configuration from the ConfigMap to the node.
   *
   * @default - the config files are mounted into the main container only
   */
  readonly configMountPath?: string;
}
