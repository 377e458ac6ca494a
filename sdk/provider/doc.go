// Package provider is plinth's public SDK for writing a resource provider in
// Go.
//
// It has two layers. The lower one is Provider, a generic, protocol-neutral
// interface with every lifecycle method of the Pulumi implementer's guide
// (GetPluginInfo, GetSchema, CheckConfig, DiffConfig, Configure, Check, Diff,
// Create, Read, Update, Delete, Invoke, Cancel) over request and response
// structs holding sdk/resource values. That interface is what gets served:
// in process by plinth's engine (internal/provider/inproc), over pulumirpc
// (sdk/provider/pulumiserve) and over the Terraform protocol.
//
// This package deliberately knows no wire format, starts no server and
// imports nothing under internal/: its only neighbour is sdk/resource.
package provider
