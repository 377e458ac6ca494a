// Package tfplugin drives Terraform providers (terraform-provider-<name>
// binaries, plugin protocol 5 or 6) through the engine's provider.Provider
// interface.
//
// Start launches one process per provider configuration with go-plugin
// (Terraform's handshake, protocols 5 and 6 offered, mutual TLS as
// AutoMTLS sets it up but with a P-256 client key (mtls.go), gRPC, a GOGC
// chosen from the binary's recorded memory (gogc.go)), in the project
// directory, and fetches its schema once, or reads it from the
// schema cache (Config.SchemaCache, schemacache.go) when the provider
// allows skipping GetProviderSchema. Every call reuses that process; Close
// sends Stop and then kills it.
//
// The mapping, in brief:
//
//   - Type tokens follow the shared convention: random_pet is
//     random:index:random_pet; the Terraform type is the token's last part.
//   - CheckConfig/Configure: ValidateProviderConfig (PrepareProviderConfig in
//     v5) and ConfigureProvider (Configure); unknown configuration is sent
//     as unknown during a preview.
//   - Check: the inputs are checked against the schema as Terraform checks
//     configuration (unknown, provider-set and missing required properties,
//     types, block counts), then ValidateResourceConfig, asked once per
//     resource type and configuration (validated.go: validation depends
//     on nothing else, so the instances of a counted resource with the
//     same arguments share one call and its diagnostics); diagnostics
//     with an attribute path become failures of that property. Check and
//     CheckConfig return sensitive attributes as secrets, so a sensitive
//     input is encrypted in state and masked in output like a sensitive
//     output. The Create, Update or Diff that follows a Check with the
//     inputs it returned plans with the configuration Check built and
//     encoded (checked.go), not a second one.
//   - Diff, Create, Update: the stored state is upgraded
//     (UpgradeResourceState; skipped for a state this very binary wrote at
//     the schema version it still has, when its plans do not use the
//     legacy SDK type system: private.go says why that is an identity),
//     the proposed new state built from prior state
//     and configuration, and PlanResourceChange asked; a plan that changes
//     what the configuration sets (an unknown of another type included) is
//     refused as terraform refuses it (InvalidPlanError, planvalid.go);
//     requires_replace paths
//     whose value really changed mean replacement. Create and Update apply
//     (ApplyResourceChange) and refuse an apply result, or a final plan,
//     that breaks the plan before it (InconsistentError names the
//     attributes). An apply error that still returns an object yields
//     provider.InitError, so nothing created is forgotten.
//   - Plan once (reuse.go): a previewed Create or Update returns its plan
//     (planned state and private bytes, with a sum of the provider, its
//     configuration, the resource type and schema version, the prior
//     state, configuration and prior private bytes) as the response's
//     Plan; a Create or Update handed that Plan back applies it without
//     PlanResourceChange when the sum matches what it would ask, and
//     plans again when anything differs.
//   - Delete plans (when the provider asks) and applies a change to null.
//   - Read refreshes (ReadResource; a null result is an empty ID), or, with
//     no inputs and no state, imports (ImportResourceState, ReadResource)
//     and returns the settable attributes as inputs.
//   - Invoke reads data sources (ReadDataSource) and calls provider
//     functions (CallFunction).
//   - Values are converted by schema to and from cty (msgpack on the wire,
//     written without cty's general encoder for known values, msgpack.go):
//     numbers keep every digit, sensitive attributes come back as secrets,
//     secrets go out as plain values, sets are compared as sets, the id
//     attribute is the resource ID.
//   - The engine's Private bytes hold the schema version the state was
//     written with, the provider's private bytes and, for a state that
//     needs no upgrade by the binary that wrote it, a fingerprint of that
//     binary (see private.go).
//
// Ephemeral resources (ephemeral.go): OpenEphemeral validates and opens
// one, RenewEphemeral and CloseEphemeral pass the provider's private
// bytes back; the schemas come from ephemeral_resource_schemas.
//
// Left out: provisioners, list resources, actions,
// resource identity, state stores and MoveResourceState (the protocol
// packages define them; nothing in plinth asks for them yet), and deferred
// actions (plinth tells providers it cannot defer).
//
// Neighbours: internal/provider (the interface implemented here),
// sdk/tfplugin5 and sdk/tfplugin6 (generated protocol code, seen
// only by wire5.go and wire6.go), internal/plugin, which finds binaries,
// and internal/registry, which calls Start for the ones it picks. The engine never sees a protocol type.
package tfplugin
