// Package monitor serves the Pulumi resource monitor (pulumirpc.ResourceMonitor)
// and engine (pulumirpc.Engine) gRPC services over an engine.Monitor, so that a
// program written with any Pulumi language SDK registers its resources with
// plinth's engine, exactly as plinth's YAML front end does.
//
// One Server lives for one engine operation, on a loopback port. It
// translates requests into engine.Registration values (wire values through
// sdk/pulumiwire), maps Pulumi's root stack component (pulumi:pulumi:Stack)
// onto the engine's stack outputs, and maps explicit provider references
// onto the engine's. It knows nothing about how the program is started: that
// is internal/langhost.
//
// Call (a method of a component from a provider plugin) goes to the engine
// as an InvokeRequest with Method set; ReadResource (`get` functions) as a
// read registration. Transforms are functions of the program, called back
// through the Callbacks service its SDK serves before a registration or an
// invoke reaches the engine (transform.go); resource hooks are called back
// through it by the engine, around a create or update (hooks.go).
// SupportsFeature answers true for the features plinth refuses (delete and
// error hooks, parameterized packages, replaceWith), so that
// the SDK makes the call and the monitor refuses it with an error naming
// plinth; told false, the SDKs tell the user to update the Pulumi CLI.
package monitor
