//go:build !linux

package grpcplugin

import "os"

// PeakRSS is the peak resident memory of an exited process in bytes; 0:
// it is not read on this system (rusage's unit differs), so plugins keep
// Go's default GOGC here.
func PeakRSS(*os.ProcessState) uint64 { return 0 }
