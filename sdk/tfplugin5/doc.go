// Package tfplugin5 holds the Go code generated from tfplugin5.proto, the
// Terraform plugin protocol version 5, for plinth's Terraform provider client
// (internal/provider/tfplugin) and the SDK's provisioner
// server (sdk/provider/provserve). It is public so that the SDK, which
// imports nothing under internal/, can speak the protocol; generated types
// stay inside the adapters that use them and are never part of an API.
//
// The .proto file is written from the published protocol with plinth's own
// proto package name, plinth.tfplugin5, so that these descriptors can share a
// binary with terraform-plugin-go's (whose server packages register
// "tfplugin5.*"). The gRPC service names are rewritten after generation to
// the wire names Terraform uses ("tfplugin5.Provider"), so the client speaks
// to real providers unchanged.
//
// The generated files are committed; CI does not need protoc. Regenerate with
// "go generate ./sdk/tfplugin5" (see gen.sh for the tools).
package tfplugin5

//go:generate sh gen.sh
