// A minimal CSI node driver, for the real node's tests only (not the hostpath driver): every ephemeral inline
// volume it publishes is a new tmpfs mounted at the kubelet's target path, holding one file, `volume`, that names
// the volume, the pod and the node. The mount is made in this container's mount namespace under /var/lib/kubelet,
// so the pod only sees it if the mount propagates to the host (Bidirectional) and from there into the pod's
// container: what the tests read proves that propagation. Unpublish unmounts it and removes the target directory.
//
// It takes the hostpath driver's flags as CsiNodePlugin renders them (--drivername, --endpoint, --nodeid, --v), so
// the preset's default args run it unchanged. It has no persistent volumes: a volume without the kubelet's
// `csi.storage.k8s.io/ephemeral: "true"` (sent when the CSIDriver has podInfoOnMount) is NOT_FOUND.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"cdk8s-node-agents/cluster/csi/internal/csiaddr"
)

const (
	vendorVersion = "1"
	ephemeralKey  = "csi.storage.k8s.io/ephemeral"
	podNameKey    = "csi.storage.k8s.io/pod.name"
	podNsKey      = "csi.storage.k8s.io/pod.namespace"
	// the file each volume holds, and its size limit
	volumeFile = "volume"
	tmpfsSize  = "1m"
)

type driver struct {
	csi.UnimplementedIdentityServer
	csi.UnimplementedNodeServer
	name   string
	nodeID string
	// serializes publish and unpublish: the kubelet may call them concurrently for different pods
	mu sync.Mutex
}

func main() {
	name := flag.String("drivername", "", "the CSI driver's name (GetPluginInfo)")
	endpoint := flag.String("endpoint", "", "the socket to serve CSI on, e.g. unix:///csi/csi.sock")
	nodeID := flag.String("nodeid", "", "the node's ID (NodeGetInfo)")
	flag.Int("v", 0, "log verbosity (accepted for the hostpath driver's args; every call is logged)")
	flag.Parse()
	if *name == "" || *endpoint == "" || *nodeID == "" {
		log.Fatalf("--drivername, --endpoint and --nodeid are required (got %q, %q, %q)", *name, *endpoint, *nodeID)
	}
	socket := csiaddr.Path(*endpoint)
	if err := os.Remove(socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Fatalf("removing the stale socket %s: %v", socket, err)
	}
	listener, err := net.Listen("unix", socket)
	if err != nil {
		log.Fatalf("listening on %s: %v", socket, err)
	}
	d := &driver{name: *name, nodeID: *nodeID}
	server := grpc.NewServer(grpc.UnaryInterceptor(logCalls))
	csi.RegisterIdentityServer(server, d)
	csi.RegisterNodeServer(server, d)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		server.GracefulStop()
	}()
	log.Printf("driver %s (node %s) serving CSI on %s", d.name, d.nodeID, socket)
	if err := server.Serve(listener); err != nil {
		log.Fatalf("serving: %v", err)
	}
	_ = os.Remove(socket)
}

func logCalls(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	if err != nil {
		log.Printf("%s: %v", info.FullMethod, err)
	} else {
		log.Printf("%s: ok", info.FullMethod)
	}
	return resp, err
}

func (d *driver) GetPluginInfo(context.Context, *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	return &csi.GetPluginInfoResponse{Name: d.name, VendorVersion: vendorVersion}, nil
}

// GetPluginCapabilities: none (no controller service, no topology).
func (d *driver) GetPluginCapabilities(context.Context, *csi.GetPluginCapabilitiesRequest) (*csi.GetPluginCapabilitiesResponse, error) {
	return &csi.GetPluginCapabilitiesResponse{}, nil
}

func (d *driver) Probe(context.Context, *csi.ProbeRequest) (*csi.ProbeResponse, error) {
	return &csi.ProbeResponse{}, nil
}

func (d *driver) NodeGetInfo(context.Context, *csi.NodeGetInfoRequest) (*csi.NodeGetInfoResponse, error) {
	return &csi.NodeGetInfoResponse{NodeId: d.nodeID}, nil
}

// NodeGetCapabilities: none, so the kubelet never stages (ephemeral volumes are published directly).
func (d *driver) NodeGetCapabilities(context.Context, *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	return &csi.NodeGetCapabilitiesResponse{}, nil
}

func (d *driver) NodePublishVolume(_ context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	id, target := req.GetVolumeId(), req.GetTargetPath()
	switch {
	case id == "":
		return nil, status.Error(codes.InvalidArgument, "volume_id is required")
	case target == "":
		return nil, status.Error(codes.InvalidArgument, "target_path is required")
	case req.GetVolumeCapability() == nil:
		return nil, status.Error(codes.InvalidArgument, "volume_capability is required")
	case req.GetVolumeCapability().GetMount() == nil:
		return nil, status.Error(codes.InvalidArgument, "only mount volumes are supported, not block")
	case req.GetVolumeContext()[ephemeralKey] != "true":
		return nil, status.Errorf(codes.NotFound, "volume %s does not exist: this driver has only ephemeral inline volumes (%s=true, sent when the CSIDriver has podInfoOnMount)", id, ephemeralKey)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	mounted, err := isMountPoint(target)
	if err != nil {
		return nil, err
	}
	if mounted {
		// published before (the kubelet retries after a timeout): the same volume at the same path is success
		return &csi.NodePublishVolumeResponse{}, nil
	}
	if err := os.MkdirAll(target, 0o750); err != nil {
		return nil, status.Errorf(codes.Internal, "creating %s: %v", target, err)
	}
	const flags = syscall.MS_NOSUID | syscall.MS_NODEV | syscall.MS_NOEXEC
	if err := syscall.Mount("tmpfs", target, "tmpfs", flags, "size="+tmpfsSize+",mode=0755"); err != nil {
		return nil, status.Errorf(codes.Internal, "mounting a tmpfs at %s: %v", target, err)
	}
	ctx := req.GetVolumeContext()
	content := fmt.Sprintf("volume %s of driver %s on node %s for pod %s/%s\n", id, d.name, d.nodeID, ctx[podNsKey], ctx[podNameKey])
	if err := os.WriteFile(filepath.Join(target, volumeFile), []byte(content), 0o644); err != nil {
		_ = syscall.Unmount(target, 0)
		return nil, status.Errorf(codes.Internal, "writing %s in the volume: %v", volumeFile, err)
	}
	if req.GetReadonly() {
		if err := syscall.Mount("", target, "", flags|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			_ = syscall.Unmount(target, 0)
			return nil, status.Errorf(codes.Internal, "remounting %s read-only: %v", target, err)
		}
	}
	return &csi.NodePublishVolumeResponse{}, nil
}

func (d *driver) NodeUnpublishVolume(_ context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	target := req.GetTargetPath()
	if req.GetVolumeId() == "" {
		return nil, status.Error(codes.InvalidArgument, "volume_id is required")
	}
	if target == "" {
		return nil, status.Error(codes.InvalidArgument, "target_path is required")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	mounted, err := isMountPoint(target)
	if err != nil {
		return nil, err
	}
	if mounted {
		if err := syscall.Unmount(target, 0); err != nil {
			return nil, status.Errorf(codes.Internal, "unmounting %s: %v", target, err)
		}
	}
	// unpublished before, or never published: success, as the spec asks (idempotent)
	if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, status.Errorf(codes.Internal, "removing %s: %v", target, err)
	}
	return &csi.NodeUnpublishVolumeResponse{}, nil
}

// isMountPoint: whether path is a mount point in this mount namespace (/proc/self/mountinfo, field 5); the error
// is a CSI status (INTERNAL).
func isMountPoint(path string) (bool, error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false, status.Errorf(codes.Internal, "reading the mount table: %v", err)
	}
	clean := filepath.Clean(path)
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 4 && unescapeOctal(fields[4]) == clean {
			return true, nil
		}
	}
	return false, nil
}

// unescapeOctal undoes mountinfo's escapes of space, tab, newline and backslash (\040 ...).
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%3o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
