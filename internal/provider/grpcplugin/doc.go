// Package grpcplugin holds what the gRPC plugin adapters share: starting a
// plugin that prints its port on stdout, reading and dialing that port
// (with a fixed flow-control window, Window, which the resource monitor
// sets on its server too), describing how the plugin ended and what it
// last wrote to stderr, the error a failed call returns, and the GOGC a
// Go plugin is started with (gogc.go) and the record of a binary's
// memory it is chosen from (memory.go, in the schema cache;
// internal/provider/tfplugin and pulumirpc record it).
// framecount, under it, is a test proxy counting a connection's PINGs.
//
// It imports neither the engine nor the adapters.
//
// Neighbours: internal/provider/pulumirpc, internal/provider/mu and
// internal/langhost/runtime use it; internal/monitor takes its Window; the
// processes themselves come from internal/plugin/proc.
package grpcplugin
