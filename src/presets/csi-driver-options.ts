/**
 * Which volumes of a CSI driver the kubelet serves, as the `CSIDriver` object's `volumeLifecycleModes` lists them.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/csi-driver-v1/
 */
export enum CsiVolumeLifecycleMode {
  /** volumes of PersistentVolumes (generic ephemeral volumes too: they are PersistentVolumeClaims). */
  PERSISTENT = 'Persistent',
  /** CSI ephemeral inline volumes, declared in a pod's spec and created by the driver's NodePublishVolume. */
  EPHEMERAL = 'Ephemeral',
}

/**
 * The `CSIDriver` object `CsiNodePlugin` renders with `csiDriver`: how the kubelet and the controllers treat the
 * driver's volumes. The object is cluster-wide and named after the driver.
 */
export interface CsiDriverOptions {
  /**
   * Which volumes the kubelet serves: an inline volume (`EPHEMERAL`) is refused by the kubelet for a driver whose
   * `CSIDriver` does not list it.
   *
   * @default [CsiVolumeLifecycleMode.PERSISTENT] - the API server's default
   */
  readonly volumeLifecycleModes?: CsiVolumeLifecycleMode[];

  /**
   * Whether the driver's volumes are attached (ControllerPublishVolume, through a VolumeAttachment) before the
   * kubelet stages them. Set false for a driver without a controller attach step, such as any driver serving only
   * inline volumes. Immutable once the object exists.
   *
   * @default true - the API server's default
   */
  readonly attachRequired?: boolean;

  /**
   * Whether the kubelet passes the pod's name, namespace, UID and ServiceAccount, and whether the volume is
   * ephemeral, to the driver's NodePublishVolume in the volume context.
   *
   * @default false - the API server's default
   */
  readonly podInfoOnMount?: boolean;
}
