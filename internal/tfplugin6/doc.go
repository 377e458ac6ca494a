// Package tfplugin6 holds the Go code generated from tfplugin6.proto, the
// Terraform plugin protocol version 6, for plinth's Terraform provider client
// (internal/provider/tfplugin). Nothing else should import it: generated types
// stay inside that adapter.
//
// The .proto file is written from the published protocol with plinth's own
// proto package name, plinth.tfplugin6, so that these descriptors can share a
// binary with terraform-plugin-go's (whose server packages register
// "tfplugin6.*"). The gRPC service names are rewritten after generation to
// the wire names Terraform uses ("tfplugin6.Provider"), so the client speaks
// to real providers unchanged.
//
// The generated files are committed; CI does not need protoc. Regenerate with
// "go generate ./internal/tfplugin6" (see gen.sh for the tools).
package tfplugin6

//go:generate sh gen.sh
