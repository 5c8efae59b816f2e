// A registrar for the real node's tests only (not node-driver-registrar, which the Go module proxy refuses): it
// registers a CSI driver with the kubelet through the kubelet's plugin-registration API (k8s.io/kubelet
// pkg/apis/pluginregistration/v1), as node-driver-registrar does. It asks the driver its name (GetPluginInfo over
// --csi-address), serves Registration on <plugin-registration-path>/<name>-reg.sock, where the kubelet's plugin
// watcher finds it, and answers GetInfo with type CSIPlugin, the name, --kubelet-registration-path (the driver's
// socket as the kubelet sees it) and CSI version 1.0.0. The kubelet then calls NotifyRegistrationStatus: a failed
// registration ends the program (exit 1), as upstream's does, so the container restarts and registers again.
//
// It takes node-driver-registrar's flags as CsiNodePlugin renders them (--csi-address, --kubelet-registration-path,
// --http-endpoint, --v). GET /healthz on --http-endpoint: 200 once the kubelet has reported the registration and
// the registration socket exists, 503 with the reason before.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	registerapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"

	"cdk8s-node-agents/cluster/csi/internal/csiaddr"
)

type registration struct {
	registerapi.UnimplementedRegistrationServer
	name, endpoint string
	mu             sync.Mutex
	registered     bool
}

func main() {
	csiAddress := flag.String("csi-address", "/run/csi/socket", "the driver's socket, as this container sees it")
	kubeletPath := flag.String("kubelet-registration-path", "", "the driver's socket, as the kubelet sees it on the host")
	registrationDir := flag.String("plugin-registration-path", "/registration", "the kubelet's plugins_registry directory, as this container sees it")
	httpEndpoint := flag.String("http-endpoint", "", "where to serve GET /healthz, e.g. :9809 (none if empty)")
	flag.Int("v", 0, "log verbosity (accepted for node-driver-registrar's args)")
	flag.Parse()
	if *kubeletPath == "" {
		log.Fatal("--kubelet-registration-path is required")
	}
	name, err := driverName(*csiAddress)
	if err != nil {
		log.Fatalf("asking the driver at %s its name: %v", *csiAddress, err)
	}
	r := &registration{name: name, endpoint: *kubeletPath}
	socket := filepath.Join(*registrationDir, name+"-reg.sock")
	if err := os.Remove(socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Fatalf("removing the stale registration socket %s: %v", socket, err)
	}
	listener, err := net.Listen("unix", socket)
	if err != nil {
		log.Fatalf("listening on %s: %v", socket, err)
	}
	server := grpc.NewServer()
	registerapi.RegisterRegistrationServer(server, r)
	if *httpEndpoint != "" {
		go serveHealth(*httpEndpoint, r, socket)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		server.GracefulStop()
	}()
	log.Printf("registering driver %s (kubelet endpoint %s) on %s", name, *kubeletPath, socket)
	if err := server.Serve(listener); err != nil {
		log.Fatalf("serving: %v", err)
	}
	// the kubelet's plugin watcher deregisters the driver when this socket goes
	_ = os.Remove(socket)
}

// driverName asks the driver its name, retrying while its socket is not there yet (the containers start together).
func driverName(address string) (string, error) {
	conn, err := csiaddr.Dial(address)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	var last error
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		info, err := csi.NewIdentityClient(conn).GetPluginInfo(ctx, &csi.GetPluginInfoRequest{})
		cancel()
		if err == nil {
			if info.GetName() == "" {
				return "", errors.New("GetPluginInfo returned no name")
			}
			return info.GetName(), nil
		}
		last = err
	}
	return "", last
}

func (r *registration) GetInfo(context.Context, *registerapi.InfoRequest) (*registerapi.PluginInfo, error) {
	return &registerapi.PluginInfo{
		Type:              registerapi.CSIPlugin,
		Name:              r.name,
		Endpoint:          r.endpoint,
		SupportedVersions: []string{"1.0.0"},
	}, nil
}

func (r *registration) NotifyRegistrationStatus(_ context.Context, s *registerapi.RegistrationStatus) (*registerapi.RegistrationStatusResponse, error) {
	if !s.GetPluginRegistered() {
		log.Printf("the kubelet refused driver %s: %s", r.name, s.GetError())
		os.Exit(1)
	}
	r.mu.Lock()
	r.registered = true
	r.mu.Unlock()
	log.Printf("the kubelet registered driver %s", r.name)
	return &registerapi.RegistrationStatusResponse{}, nil
}

func serveHealth(endpoint string, r *registration, socket string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		r.mu.Lock()
		registered := r.registered
		r.mu.Unlock()
		if _, err := os.Stat(socket); err != nil {
			http.Error(w, fmt.Sprintf("registration socket %s: %v", socket, err), http.StatusServiceUnavailable)
			return
		}
		if !registered {
			http.Error(w, "the kubelet has not reported the registration of "+r.name+" yet", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	log.Fatal(http.ListenAndServe(endpoint, mux))
}
