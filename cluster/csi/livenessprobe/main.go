// A livenessprobe for the real node's tests only (not the upstream livenessprobe, which the Go module proxy
// refuses): GET /healthz calls the driver's Probe over its socket and answers 200 when the driver is ready,
// 500 with the reason when it is not or does not answer within --probe-timeout. It takes the upstream program's
// flags as CsiNodePlugin renders them (--csi-address, --health-port; --http-endpoint and --probe-timeout too).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"cdk8s-node-agents/cluster/csi/internal/csiaddr"
)

func main() {
	csiAddress := flag.String("csi-address", "/run/csi/socket", "the driver's socket")
	healthPort := flag.Int("health-port", 9808, "the TCP port of /healthz on all addresses (unless --http-endpoint)")
	httpEndpoint := flag.String("http-endpoint", "", "where to serve /healthz, e.g. :9808 (overrides --health-port)")
	timeout := flag.Duration("probe-timeout", time.Second, "how long the driver's Probe may take")
	flag.Int("v", 0, "log verbosity (accepted for the upstream args)")
	flag.Parse()
	conn, err := csiaddr.Dial(*csiAddress)
	if err != nil {
		log.Fatalf("driver socket %s: %v", *csiAddress, err)
	}
	identity := csi.NewIdentityClient(conn)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), *timeout)
		defer cancel()
		resp, err := identity.Probe(ctx, &csi.ProbeRequest{})
		switch {
		case err != nil:
			http.Error(w, fmt.Sprintf("the driver's Probe failed: %v", err), http.StatusInternalServerError)
		case resp.GetReady() != nil && !resp.GetReady().GetValue():
			http.Error(w, "the driver says it is not ready", http.StatusInternalServerError)
		default:
			fmt.Fprintln(w, "ok")
		}
	})
	addr := *httpEndpoint
	if addr == "" {
		addr = fmt.Sprintf(":%d", *healthPort)
	}
	log.Printf("serving /healthz on %s for the driver at %s", addr, *csiAddress)
	log.Fatal(http.ListenAndServe(addr, mux))
}
