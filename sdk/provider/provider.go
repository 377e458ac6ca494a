package provider

import (
	"context"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider is the generic, protocol-neutral face of a provider: every
// lifecycle method of the Pulumi implementer's guide over request and
// response structs holding sdk/resource values. New builds one from Go
// types; servers (in process, pulumirpc, tfplugin) adapt it to a wire.
//
// The lifecycle: GetPluginInfo, GetSchema, CheckConfig and DiffConfig may be
// called at any time; Configure must succeed before Check, Diff, Create,
// Read, Update, Delete or Invoke. Cancel asks every call in flight to stop
// (their contexts are cancelled) and does not wait for them.
//
// Implementations are safe for concurrent use. A new field in a request or
// response never breaks an implementation or a caller.
type Provider interface {
	GetPluginInfo(ctx context.Context, req GetPluginInfoRequest) (GetPluginInfoResponse, error)
	GetSchema(ctx context.Context, req GetSchemaRequest) (GetSchemaResponse, error)
	CheckConfig(ctx context.Context, req CheckRequest) (CheckResponse, error)
	DiffConfig(ctx context.Context, req DiffRequest) (DiffResponse, error)
	Configure(ctx context.Context, req ConfigureRequest) (ConfigureResponse, error)
	Check(ctx context.Context, req CheckRequest) (CheckResponse, error)
	Diff(ctx context.Context, req DiffRequest) (DiffResponse, error)
	Create(ctx context.Context, req CreateRequest) (CreateResponse, error)
	Read(ctx context.Context, req ReadRequest) (ReadResponse, error)
	Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error)
	Delete(ctx context.Context, req DeleteRequest) (DeleteResponse, error)
	Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error)
	Cancel(ctx context.Context, req CancelRequest) (CancelResponse, error)
}

// GetPluginInfoRequest asks who the provider is.
type GetPluginInfoRequest struct{}

// GetPluginInfoResponse names the provider package and its version.
type GetPluginInfoResponse struct {
	Name    string
	Version string
}

// GetSchemaRequest asks for the provider's schema.
type GetSchemaRequest struct{}

// GetSchemaResponse carries the provider's schema, with enough detail to
// generate a Pulumi package schema or a Terraform provider schema.
type GetSchemaResponse struct {
	Schema Schema
}

// CheckRequest asks the provider to validate a resource's inputs (or, for
// CheckConfig, the provider configuration) and apply defaults. Olds are the
// last checked inputs, nil for a new resource; News may hold unknowns.
type CheckRequest struct {
	URN        resource.URN
	Olds       resource.Object
	News       resource.Object
	RandomSeed []byte
}

// CheckFailure is one validation failure: the property path in text form
// (for example `keepers["a.b"]` or `rules[0].port`) and why it failed. An
// empty Property means the failure concerns the inputs as a whole.
type CheckFailure struct {
	Property string
	Reason   string
}

func (f CheckFailure) String() string {
	if f.Property == "" {
		return f.Reason
	}
	return f.Property + ": " + f.Reason
}

// CheckResponse carries the checked inputs with defaults applied, or the
// failures that stop them being used.
type CheckResponse struct {
	Inputs   resource.Object
	Failures []CheckFailure
}

// DiffChanges says whether a diff found changes.
type DiffChanges uint8

// DiffUnknown means the provider did not say and the caller compares inputs
// itself; SDK providers always say DiffNone or DiffSome.
const (
	DiffUnknown DiffChanges = iota
	DiffNone
	DiffSome
)

func (c DiffChanges) String() string {
	switch c {
	case DiffNone:
		return "none"
	case DiffSome:
		return "some"
	}
	return "unknown"
}

// DiffRequest asks how the new inputs differ from a resource's recorded
// inputs and state (or, for DiffConfig, how a configuration changed: OldInputs
// and OldOutputs then both hold the old configuration).
type DiffRequest struct {
	URN           resource.URN
	ID            string
	OldInputs     resource.Object
	OldOutputs    resource.Object
	News          resource.Object
	IgnoreChanges []resource.PropertyPath
}

// DiffResponse describes the changes. DetailedDiff is authoritative; the key
// lists (top-level property names) are kept for older clients.
type DiffResponse struct {
	Changes             DiffChanges
	ReplaceKeys         []string
	StableKeys          []string
	ChangedKeys         []string
	DetailedDiff        resource.DetailedDiff
	DeleteBeforeReplace bool
}

// Replaces reports whether the diff calls for replacement.
func (d DiffResponse) Replaces() bool {
	return len(d.ReplaceKeys) > 0 || d.DetailedDiff.Replaces()
}

// ConfigureRequest applies checked configuration. Inputs may hold unknowns
// during a preview; the provider then does as much as it can.
type ConfigureRequest struct {
	Inputs  resource.Object
	Preview bool
}

// ConfigureResponse reports what the provider accepts. SDK providers accept
// secrets and resource references and support preview.
type ConfigureResponse struct {
	AcceptSecrets   bool
	AcceptResources bool
	SupportsPreview bool
}

// CreateRequest creates a resource from checked inputs. With Preview set the
// provider computes the likely outputs, unknown where it cannot tell, and
// creates nothing. A zero Timeout means the provider's default.
type CreateRequest struct {
	URN     resource.URN
	Inputs  resource.Object
	Timeout time.Duration
	Preview bool
}

// CreateResponse carries the new resource's ID (empty in a preview) and
// outputs.
type CreateResponse struct {
	ID      string
	Outputs resource.Object
}

// ReadRequest reads a resource's live state. Inputs and State are empty when
// importing by ID.
type ReadRequest struct {
	URN    resource.URN
	ID     string
	Inputs resource.Object
	State  resource.Object
}

// ReadResponse carries what was read. An empty ID means the resource no
// longer exists.
type ReadResponse struct {
	ID      string
	Inputs  resource.Object
	Outputs resource.Object
}

// UpdateRequest updates a resource in place.
type UpdateRequest struct {
	URN           resource.URN
	ID            string
	OldInputs     resource.Object
	OldOutputs    resource.Object
	News          resource.Object
	Timeout       time.Duration
	IgnoreChanges []resource.PropertyPath
	Preview       bool
}

// UpdateResponse carries the updated outputs.
type UpdateResponse struct {
	Outputs resource.Object
}

// DeleteRequest deletes a resource.
type DeleteRequest struct {
	URN     resource.URN
	ID      string
	Inputs  resource.Object
	Outputs resource.Object
	Timeout time.Duration
}

// DeleteResponse is empty; it exists so fields can be added.
type DeleteResponse struct{}

// InvokeRequest calls a provider function by its token.
type InvokeRequest struct {
	Token string
	Args  resource.Object
}

// InvokeResponse carries a function's result, or failures of its arguments.
type InvokeResponse struct {
	Return   resource.Object
	Failures []CheckFailure
}

// CancelRequest asks the provider to stop outstanding work.
type CancelRequest struct{}

// CancelResponse is empty; it exists so fields can be added.
type CancelResponse struct{}
