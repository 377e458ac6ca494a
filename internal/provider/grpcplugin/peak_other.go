//go:build !linux

package grpcplugin

import "github.com/plinth-iac/plinth/internal/plugin/proc"

// PeakRSS is the peak resident memory of a running plugin process in
// bytes; 0: it is not read on this system, so plugins keep Go's default
// GOGC here.
func PeakRSS(*proc.Process) uint64 { return 0 }
