// Package mupb holds the Go code generated from mu.proto, the original Mu
// resource provider protocol (Create, Read, Update, Delete), for plinth's
// adapter (internal/provider/mu) and the test providers that speak it.
// Nothing else should import it: generated types stay inside that adapter.
//
// The generated files are committed; CI does not need protoc. Regenerate
// with "go generate ./internal/provider/mu/mupb" (see gen.sh for the tools).
package mupb

//go:generate sh gen.sh
