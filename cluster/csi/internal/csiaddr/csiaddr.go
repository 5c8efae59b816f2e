// Package csiaddr dials a CSI driver's socket as the sidecars take it: `--csi-address=/csi/csi.sock` or
// `unix:///csi/csi.sock`.
package csiaddr

import (
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Path is the socket's file path of an address given with or without the unix:// scheme.
func Path(address string) string {
	return strings.TrimPrefix(address, "unix://")
}

// Dial connects lazily (the first call connects) to the unix socket at address.
func Dial(address string) (*grpc.ClientConn, error) {
	return grpc.NewClient("unix://"+Path(address), grpc.WithTransportCredentials(insecure.NewCredentials()))
}
