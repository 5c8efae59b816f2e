/**
 * The kinds of host access a pod can take, named as the security review reports them.
 *
 * Each kind has one descriptor in the model (how it is detected in a pod spec, described, located and rated); the
 * order here is the order in which `HostAccess.of` lists privileges.
 */
export enum HostAccessType {
  /** a hostPath volume mounted into a container. */
  HOST_PATH = 'hostPath',
  /** `spec.hostNetwork: true`: the pod shares the node's network namespace. */
  HOST_NETWORK = 'hostNetwork',
  /** `spec.hostPID: true`: the pod sees every process on the node. */
  HOST_PID = 'hostPID',
  /** `spec.hostIPC: true`: the pod shares the node's IPC namespace. */
  HOST_IPC = 'hostIPC',
  /** a container port bound on the node's address (`hostPort`). */
  HOST_PORT = 'hostPort',
  /** `securityContext.privileged: true`: effectively root on the node. */
  PRIVILEGED = 'privileged',
  /**
   * A Windows HostProcess container (`securityContext.windowsOptions.hostProcess: true` on the container or the pod): a
   * process on the Windows node itself, outside any container, as the user it names (`NT AUTHORITY\SYSTEM`: the node).
   */
  HOST_PROCESS = 'hostProcess',
  /** a Linux capability added with `securityContext.capabilities.add`. */
  CAPABILITY = 'capability',
  /** a container that may run as root: UID 0 on Linux, ContainerAdministrator in a Windows (not HostProcess) container. */
  RUN_AS_ROOT = 'runAsRoot',
}
