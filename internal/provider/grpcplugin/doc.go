// Package grpcplugin holds what the gRPC plugin adapters share: starting a
// plugin that prints its port on stdout, reading and dialing that port,
// describing how the plugin ended and what it last wrote to stderr, and
// the error a failed call returns.
//
// It imports neither the engine nor the adapters.
//
// Neighbours: internal/provider/pulumirpc and internal/provider/mu use it;
// the processes themselves come from internal/plugin/proc.
package grpcplugin
