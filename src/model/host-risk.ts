import { capabilityDetail, descriptorOf } from './_host-privileges';
import { capabilityRisk, highestRisk, hostPortRisk, knownCapabilities, knownPaths, mountPropagationRisk, pathRisk, riskRank } from './_risk-assessors';
import { HostAccessItem } from './host-access-item';
import { HostRiskAssessment, RiskLevel } from './risk-level';

/**
 * The host-access risk catalogue: for each host privilege a pod can take, how much it gives an attacker who controls the
 * container, what exactly, and how to get the same job done with less.
 *
 * It covers hostPath (by path and writability), hostNetwork, hostPID, hostIPC, hostPort, privileged, Windows HostProcess,
 * each capability, running as root and Bidirectional mount propagation.
 */
export class HostRisk {
  /**
   * Assesses one host privilege, as `HostAccess.of` lists it (a `HostAccessReason`, whose hostPath detail carries the mode,
   * is accepted too).
   *
   * A hostPath mounted with Bidirectional propagation is assessed as the riskier of the path and the propagation.
   *
   * @param item the privilege
   * @throws when the item's type is not a `HostAccessType`
   */
  public static assess(item: HostAccessItem): HostRiskAssessment {
    return descriptorOf(item.type).assess(item);
  }

  /**
   * Assesses mounting a host path.
   *
   * The path is normalised (`HostAccess.normalizePath`) and read as the kubelet resolves it on the host: `/proc/<pid>/root`,
   * `/proc/self/root` and `/proc/thread-self/root` are the host's root (`/proc/1/root/etc` is `/etc`, and the text says
   * so), `/var/run` is `/run`; an alias is never rated lower than the path it reaches. It is judged by what it is, not by
   * its parent: the catalogue entry for the path itself; else a name that says what it is wherever it is (a container
   * runtime's socket such as `containerd.sock`, a kubeconfig); else the rule of the nearest catalogue entry above it for
   * what is below it (under /run, a program's own runtime directory or a cgroup2 mount; under /var/log, a program's own
   * logs; under /var/lib/kubelet/plugins, one CSI driver's socket directory; under /etc/kubernetes, a kubeconfig or one
   * component's directory); else that entry's own text, where it holds for everything below it (a home directory, the
   * etcd data). A path no entry covers is medium read-only and high read-write. A directory is at least as risky as
   * anything the catalogue lists below it: mounting `/run` read-only exposes the container runtime sockets under it. The
   * socket of a container runtime is critical even read-only, because a read-only mount does not stop a process from
   * connecting to a socket.
   *
   * @param path the host path
   * @param readOnly whether every mount of it is read-only
   * @param hostPathType the volume's `hostPath.type`, when set: the advice then never asks for a type it already has
   */
  public static forPath(path: string, readOnly: boolean, hostPathType?: string): HostRiskAssessment {
    return pathRisk(path, readOnly, { type: hostPathType });
  }

  /**
   * Assesses adding a Linux capability.
   *
   * @param capability the name as written in `capabilities.add` (`NET_ADMIN`, `CAP_NET_ADMIN` and `net_admin` are the same);
   * a capability the catalogue does not know is assessed as high
   * @param hostNamespaces the host namespaces the pod shares (`hostNetwork`, `hostPID`, `hostIPC`; an empty list for
   * none), which decide what NET_ADMIN, NET_RAW, SYS_PTRACE, KILL and IPC_OWNER reach: NET_RAW is high with hostNetwork
   * (the node's traffic) and medium without, SYS_PTRACE high with hostPID (every process on the node) and medium without.
   * Omitted, the text covers both cases and the risk is the higher one.
   * @throws when a host namespace is not one of those three
   */
  public static forCapability(capability: string, hostNamespaces?: string[]): HostRiskAssessment {
    return capabilityRisk(capabilityDetail(String(capability)), hostNamespaces);
  }

  /**
   * Assesses binding a port on the node (`hostPort`): low, or high for the port of a node service (SSH, etcd, the API
   * server, the kubelet, kube-proxy, the controller manager, the scheduler), whose traffic the CNI's port mapping would capture.
   *
   * @param port the host port
   * @param viaHostNetwork whether the port is a container port of a `hostNetwork` pod (on the node without a hostPort)
   * @throws when the port is not a number from 1 to 65535
   */
  public static forHostPort(port: number, viaHostNetwork?: boolean): HostRiskAssessment {
    return hostPortRisk(port, viaHostNetwork === true);
  }

  /**
   * Assesses a volume mount's `mountPropagation`: `Bidirectional` is high (the container's mounts reach the host),
   * `HostToContainer` and `None` are low.
   *
   * @param mode the `mountPropagation` value
   * @throws when the mode is not one of Bidirectional, HostToContainer, None
   */
  public static forMountPropagation(mode: string): HostRiskAssessment {
    return mountPropagationRisk(mode);
  }

  /**
   * The rank of a level, for comparisons: low 1, medium 2, high 3, critical 4.
   *
   * @param level the level
   * @throws when the level is not a `RiskLevel`
   */
  public static rank(level: RiskLevel): number {
    return riskRank(level);
  }

  /**
   * The highest of some levels, or undefined when there are none.
   *
   * @param levels the levels
   */
  public static highest(levels: RiskLevel[]): RiskLevel | undefined {
    return highestRisk(levels);
  }

  /** the host paths the catalogue knows, in catalogue order. */
  public static knownPaths(): string[] {
    return knownPaths();
  }

  /** the capability names the catalogue knows, sorted. */
  public static knownCapabilities(): string[] {
    return knownCapabilities();
  }
}
