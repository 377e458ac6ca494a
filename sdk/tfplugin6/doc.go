// Package tfplugin6 holds the Go code generated from tfplugin6.proto, the
// Terraform plugin protocol version 6, for plinth's Terraform provider client
// (internal/provider/tfplugin). It is public so that the SDK, which
// imports nothing under internal/, can speak the protocol; generated types
// stay inside the adapters that use them and are never part of an API.
//
// The .proto file is written from the published protocol with plinth's own
// proto package name, plinth.tfplugin6, so that these descriptors can share a
// binary with terraform-plugin-go's (whose server packages register
// "tfplugin6.*"). The gRPC service names are rewritten after generation to
// the wire names Terraform uses ("tfplugin6.Provider"), so the client speaks
// to real providers unchanged.
//
// The generated files are committed; CI does not need protoc. Regenerate with
// "go generate ./sdk/tfplugin6" (see gen.sh for the tools).
package tfplugin6

//go:generate sh gen.sh
