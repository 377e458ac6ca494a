// Package provider is plinth's public SDK for writing a resource provider in
// Go.
//
// # Writing a provider
//
// A resource type is two structs and a type with methods. The inputs struct
// holds what a program sets, the outputs struct what the provider reports
// (it usually embeds the inputs, so the outputs repeat them). Field tags
// name the properties and say how they behave:
//
//	type PetArgs struct {
//		Length  int                       `plinth:"length" default:"2" doc:"Number of words."`
//		Prefix  string                    `plinth:"prefix,optional,replaceOnChanges"`
//		Keepers map[string]resource.Value `plinth:"keepers,optional,replaceOnChanges"`
//	}
//
//	type PetState struct {
//		PetArgs
//		Name string `plinth:"name" doc:"The generated name."`
//	}
//
// The plinth tag gives the property name (an identifier; the field name
// with a lower-case first word when left out) and options after commas:
// optional (a program may leave it out), secret (always returned as a
// secret), replaceOnChanges (a change replaces the resource) and computed
// (the provider fills it in), writeOnly (an input passed to Create and
// Update but never an output, never compared in a diff and never recorded
// by Terraform; a secret input under Pulumi) and stable (an output an
// update leaves alone: a preview of an update shows its recorded value
// rather than an unknown), set (a slice of strings, numbers,
// booleans or structs whose order does not matter: a Terraform set, a
// set block or set nested attribute for structs; Check refuses
// duplicates, fills in the elements' defaults and sorts it, and Diff
// compares a recorded set in that order too) and block (a nested object Terraform writes
// as a block in protocol 6 too). A property without optional or a default is
// required. `plinth:"-"` leaves a field out, as do unexported fields; an
// embedded struct without a plinth tag contributes its fields. `doc`
// describes the property and `default` gives the value Check applies when
// it is missing: the literal text for a string, true or false for a bool,
// a number for a number, JSON for anything else. `validate` lists rules
// Check applies, with failures at the property's full path at any depth
// (min, max, len, oneOf, match, duration, conflicts, requires; see
// validate.go), and `deprecated` says why a property should no longer be
// set. A property of type Timeouts is a timeouts block whose values
// become the ops' Timeout.
//
// Mistakes in these declarations are found when New builds the provider,
// never at request time: New returns a *DeclarationError naming the Go
// type, the path to the field (Spec.Color, Rules[].Port) and how to fix it
// for a validate rule that is unknown, does not fit the field's type or
// names no sibling property, a writeOnly field that cannot be one, a
// struct tag that does not parse (key:"value" pairs separated by
// spaces, each key once), an unknown tag option, a property name that is
// not an identifier, a default that does not fit the field's type, two
// fields with one property name (embedded structs included), a field type
// the SDK cannot convert (a channel, a func, an interface with methods, a
// map without string keys, a recursive type), or an unexported embedded
// non-struct named as a property.
//
// The resource type implements Resource (Create) and any of the optional
// interfaces Reader, Updater, Deleter, Checker, Differ, CreatePreviewer and
// UpdatePreviewer; Resource's documentation lists the default used for each
// one left out. Functions (invokes) are Go functions of an arguments struct
// returning a result struct. The configuration is a struct too, read by
// resource code with GetConfig. New puts it together:
//
//	p, err := provider.New(provider.Info{Name: "pets", Version: "1.0.0"},
//		provider.WithConfig[Config](),
//		provider.WithResource[PetArgs, PetState]("pets:index:Pet", Pet{}, "A random pet name."),
//		provider.WithFunction("pets:index:count", count, "Counts pets."),
//	)
//
// # What the SDK does for the author
//
// It derives the schema from the types (Schema, with types, descriptions,
// required, secret, replaceOnChanges, defaults, configuration and
// functions). Check validates inputs with one failure per property path
// (type mismatch, missing required property, unknown property with a
// suggestion) and applies defaults. Diff compares inputs with recorded state
// using resource.DiffObjects and the replaceOnChanges tags. In a preview,
// Create and Update are not called unless the resource implements a
// previewer; outputs that cannot be known without acting are unknown. It
// converts between resource.Object and the Go structs: unknowns decode as
// zero values (each op lists them), secrets decode as plain values and come
// back as secrets. A failure after acting (a Create that returns an ID with
// its error) becomes an InitError so the resource is recorded. A panic in
// author code becomes a PanicError naming the provider, method and URN.
// Cancel cancels the context of every call in flight.
//
// # The generic provider
//
// New returns a Provider: a generic, protocol-neutral interface with every
// lifecycle method of the Pulumi implementer's guide (GetPluginInfo,
// GetSchema, CheckConfig, DiffConfig, Configure, Check, Diff, Create, Read,
// Update, Delete, Invoke, Cancel) over request and response structs holding
// sdk/resource values. That interface is what gets served: in process by
// plinth's engine (internal/provider/inproc), over pulumirpc
// (sdk/provider/pulumiserve) and over the Terraform protocol
// (sdk/provider/tfserve). A provider may also implement Provider directly,
// without the typed layer.
//
// # Private data
//
// A resource may keep bytes for itself (CreateResult.Private, and those
// of Update and Read): they are given back as op.Private in every later
// op. Terraform (tfserve) and plinth (in process) keep them in their
// private state; Pulumi as a secret output named PrivateProperty.
//
// # Schema versions
//
// A resource type whose state changed shape implements StateUpgrader: it
// declares its current schema version and converts state recorded by an
// older one. Providers made by New implement StateUpgradeProvider, which
// the Terraform server calls for UpgradeResourceState.
//
// # Components
//
// WithComponent adds a component resource a provider builds itself: its
// Component's Construct registers children through a ComponentContext
// (each parented to the component) and returns the component's outputs;
// WithMethod adds a method of a component (Pulumi's Call). The schema marks
// the type IsComponent, so engines send it to Construct. Only pulumiserve
// serves components, over the engine's resource monitor; in process and
// over the Terraform protocol they are not available (tfserve leaves them
// out of its schema).
//
// A function's slice argument tagged variadic takes a Terraform call's
// trailing arguments. WithEphemeral adds an ephemeral resource (Open,
// and optionally Renew and Close), served to Terraform through
// EphemeralProvider; Pulumi has none. It leaves out streaming invokes,
// sets of collections, and any
// serialised form
// of the schema: the servers render Schema in their protocol's terms. It
// knows no wire format, starts no server and imports nothing under
// internal/: its only neighbour is sdk/resource.
package provider
