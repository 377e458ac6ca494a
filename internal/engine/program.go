package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Program describes the desired resources by registering them with a
// Monitor. Run returns when the program has registered everything and every
// registration it made has completed (or failed).
type Program interface {
	Run(ctx context.Context, mon Monitor) error
}

// ProgramFunc adapts a function to a Program.
type ProgramFunc func(ctx context.Context, mon Monitor) error

// Run implements Program.
func (f ProgramFunc) Run(ctx context.Context, mon Monitor) error { return f(ctx, mon) }

// Monitor is how a program talks to the engine. It is safe for concurrent
// use: a program registers independent resources at once.
type Monitor interface {
	// Register registers a resource and returns at once; done is called,
	// on some engine goroutine, when the resource's step has finished, with
	// its outputs or the error that stopped it. done must not block.
	Register(reg Registration, done func(Registered, error))
	// RegisterOutputs records the outputs of a component resource.
	RegisterOutputs(urn resource.URN, outputs resource.Object) error
	// SetStackOutputs records the stack's outputs.
	SetStackOutputs(outputs resource.Object)
	// Invoke calls a provider function.
	Invoke(ctx context.Context, req InvokeRequest) (resource.Object, error)
	// Schema returns the schema of the default provider for a package.
	Schema(ctx context.Context, pkg, version string) (*schema.Schema, error)
	// URN returns the URN a registration would get.
	URN(typ, name string, parent resource.URN) resource.URN
	// Recorded reports whether the state records a live resource under
	// urn (as the operation has it so far). Terraform's refactoring blocks
	// (moved, import) depend on what the state holds.
	Recorded(urn resource.URN) bool
}

// OutputTyper is implemented by a Monitor that records the types of the
// stack outputs beside their values, for a program whose values have
// types a resource.Value does not keep (the Terraform front end: a list
// and a tuple are both arrays). A program that has types calls it with
// SetStackOutputs; types are JSON in the program's own type system, by
// output name, and are kept in the state as state.Snapshot.OutputTypes.
type OutputTyper interface {
	SetStackOutputTypes(types map[string]json.RawMessage)
}

// Forgetter is a Program that says which recorded resources it no longer
// registers are to be forgotten (removed from the state, left in the
// world) rather than deleted: Terraform's removed blocks with
// lifecycle { destroy = false }.
type Forgetter interface {
	Forget(urn resource.URN) bool
}

// RegisterAndWait registers a resource and blocks until it is done.
func RegisterAndWait(ctx context.Context, mon Monitor, reg Registration) (Registered, error) {
	type result struct {
		r   Registered
		err error
	}
	ch := make(chan result, 1)
	mon.Register(reg, func(r Registered, err error) { ch <- result{r, err} })
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
		return Registered{}, ctx.Err()
	}
}

// Registration is a program's request for a resource.
type Registration struct {
	Type   string // type token, e.g. "plinth:random:Pet" or "pulumi:providers:aws"
	Name   string
	Custom bool // false for a component resource
	// Remote marks a component its provider builds (Construct): the
	// provider registers the component and its children through the
	// resource monitor (Options.ServeMonitor). A Custom registration whose
	// type the provider's schema marks IsComponent is remote too.
	Remote bool
	Parent resource.URN
	Inputs resource.Object
	// EphemeralInputs names the top-level inputs of a provider
	// registration that hold ephemeral values (Terraform's ephemeral
	// resources): the provider is configured with them, but they are
	// never recorded in the state or the plan, nor diffed.
	EphemeralInputs []string
	// Dependencies are every resource this one depends on, explicit
	// (dependsOn) and implicit (through its inputs).
	Dependencies         []resource.URN
	PropertyDependencies map[string][]resource.URN
	// DependencyGroups are resource-level dependencies on every instance
	// of a counted resource, named by group URN (state.GroupOf). The
	// engine does not wait for them: the program registers a group's
	// instances before anything that depends on the group.
	DependencyGroups []resource.URN

	// Provider is an explicit provider reference "<URN>::<ID>"; empty means
	// the default provider for the type's package.
	Provider string
	// Version constrains the provider version for a default provider, or,
	// on a provider resource, the plugin to load.
	Version string
	// InputTypes are the types of top-level inputs whose type the values
	// do not keep and the provider's state records (the Terraform front
	// end: arguments of dynamic type, terraform_data's input), by name, as
	// JSON in the program's type system; kept as state.Resource.InputTypes.
	InputTypes map[string]json.RawMessage
	// PluginSource says where a provider plugin comes from (a Terraform
	// source address such as "hashicorp/random"), on a provider resource or
	// for a default provider.
	PluginSource string
	// PluginDownloadURL is the program's pluginDownloadURL: where the
	// provider plugin may be downloaded from if it is not installed.
	PluginDownloadURL string

	Protect             bool
	RetainOnDelete      bool
	DeleteBeforeReplace bool
	// CreateBeforeDestroy makes a replacement create the new resource
	// before deleting the old one even when the provider asks to delete
	// first (Terraform's lifecycle create_before_destroy; Terraform
	// providers always ask to delete first). DeleteBeforeReplace wins if
	// both are set.
	CreateBeforeDestroy bool
	// ReplaceOnlySelf makes a delete-first replacement Terraform's: only
	// this resource is deleted and created again; its dependents are kept,
	// and each goes through its own diff against the new outputs (update,
	// replace or nothing). Without it (Pulumi's semantics) a delete-first
	// replacement deletes every dependent first and creates them again.
	// The Terraform front end sets it on every resource.
	ReplaceOnlySelf bool
	// ForceReplace replaces the resource in this run even when nothing in
	// its inputs asks for it (Terraform's replace_triggered_by, decided by
	// the program from what happened to the resources it refers to:
	// Registered.Op and Registered.Changed).
	ForceReplace     bool
	IgnoreChanges    []string
	ReplaceOnChanges []string
	CustomTimeouts   CustomTimeouts
	// ImportID adopts an existing resource with this ID instead of creating
	// one.
	ImportID string
	// ReadID makes this a read of an existing resource that plinth does
	// not manage (Pulumi's ReadResource, a `get` function): its provider
	// reads it by this ID (UnknownID in a preview where the ID is not
	// known yet) and it is recorded as External (see read.go). Inputs are
	// passed to the provider's Read as the resource's last known state.
	ReadID string
	// DeletedWith names a resource whose deletion deletes this one too
	// (Pulumi's deletedWith): when both are deleted in one operation,
	// this one's Delete is not called (see deletedwith.go).
	DeletedWith resource.URN
	// AdditionalSecretOutputs names outputs to store and return as
	// secrets whatever the provider says.
	AdditionalSecretOutputs []string
	// ImportUpdates gives an import Terraform's semantics: inputs that
	// differ from the resource as read import it as it is, then update it
	// to the inputs (one import and one update), where by default (as
	// Pulumi's import option does) the import fails.
	ImportUpdates bool
	// Aliases name identities the resource had before (an old name, type
	// or parent); a resource recorded under one is taken over, not
	// replaced.
	Aliases []Alias
	// Provisioners run after the resource is created, or before it is
	// deleted (see provision.go).
	Provisioners []Provisioner
	// Hooks run around the resource's create and update (hooks.go).
	Hooks Hooks
}

// CustomTimeouts bounds a resource's provider calls; zero means the
// provider's default.
type CustomTimeouts struct {
	Create, Update, Delete time.Duration
}

// Registered is the result of a registration: the resource's URN, ID and
// outputs. During a preview the ID and outputs may be unknown.
type Registered struct {
	URN     resource.URN
	ID      resource.Value // a string, or unknown during a preview
	Outputs resource.Object
	Custom  bool
	// ProviderRef is, for a provider resource, the reference "<URN>::<ID>"
	// that other registrations pass as Provider.
	ProviderRef string
	// Op is what this run did (or, in a preview, would do) to the resource:
	// OpSame, OpCreate, OpUpdate, OpReplace or OpImport; empty for a
	// resource left alone (outside the targets), a component or a provider.
	Op StepOp
	// Changed lists the top-level properties an update or replacement
	// changes, as the diff that decided it has them.
	Changed []string
	// Absent is set for a resource outside the operation's targets that
	// the state does not record: it does not exist, and nothing was
	// made (terraform leaves such an instance out of the run).
	Absent bool
}

// PositionalArgs is the one key of an InvokeRequest's Args that calls a
// function with positional arguments (an array), as Terraform's
// provider-defined functions take them.
const PositionalArgs = provider.PositionalArgs

// InvokeRequest calls a provider function.
type InvokeRequest struct {
	Token    string
	Args     resource.Object
	Provider string // explicit provider reference, or "" for the default
	Version  string
	// Method makes this a call of a component's method (Pulumi's Call):
	// Token is TYPE/method, Args holds the component under "__self__",
	// and the provider's Call answers, with the operation's resource
	// monitor for any resources the method registers.
	Method bool
	// ArgDependencies maps an argument to the URNs its value depends on
	// (for Method calls).
	ArgDependencies map[string][]resource.URN
}
