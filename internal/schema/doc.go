// Package schema is the model of a provider package's schema: its
// configuration, resource types and functions, and each property's type,
// whether it is required, secret or computed.
//
// It is a leaf: it imports nothing of plinth's. The provider interface
// (internal/provider) returns it from GetSchema, the adapters
// (internal/provider/inproc, pulumirpc, tfplugin) translate their
// protocol's schema into it, the engine caches it per package, and the
// program formats (internal/program/yaml, internal/program/hcl) check
// types and property names against it without depending on the provider
// interface. Encodings of schemas (a
// Pulumi package schema, Terraform's) stay with the adapters.
package schema
