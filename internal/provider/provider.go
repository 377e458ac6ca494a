package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provider is what the engine needs of a resource provider. A provider must
// be configured (Configure) before Check, Diff, Create, Read, Update, Delete
// or Invoke; CheckConfig and DiffConfig may be called before.
//
// Implementations must be safe for concurrent use: the engine calls
// resource methods from many goroutines at once.
type Provider interface {
	GetPluginInfo(ctx context.Context) (PluginInfo, error)
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
	// Construct builds a component resource the provider implements,
	// registering its children through the engine's resource monitor;
	// Call calls one of a component's methods. A provider without
	// components answers both with an error wrapping ErrNoComponents.
	Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error)
	Call(ctx context.Context, req CallRequest) (CallResponse, error)
	// SignalCancellation asks the provider to stop outstanding work soon. It
	// is advisory and does not block.
	SignalCancellation(ctx context.Context) error
	// Close releases the provider; no call may follow.
	Close() error
}

// PluginInfo describes a provider binary.
type PluginInfo struct {
	Name    string
	Version string
}

// GetSchemaRequest asks for the provider's schema.
type GetSchemaRequest struct{}

// GetSchemaResponse carries the provider's schema.
type GetSchemaResponse struct {
	Schema *schema.Schema
}

// CheckRequest asks the provider to validate inputs (or, for CheckConfig,
// provider configuration) and apply defaults. Olds are the last checked
// inputs, nil for a new resource; News may contain unknowns.
type CheckRequest struct {
	URN        resource.URN
	Olds       resource.Object
	News       resource.Object
	RandomSeed []byte
}

// CheckFailure is one validation failure: a property path and why.
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

// CheckResponse carries the checked inputs, or failures.
type CheckResponse struct {
	Inputs   resource.Object
	Failures []CheckFailure
}

// DiffChanges says whether a diff found changes.
type DiffChanges uint8

// DiffUnknown means the provider did not say; the engine compares the old and
// new inputs itself.
const (
	DiffUnknown DiffChanges = iota
	DiffNone
	DiffSome
)

func (c DiffChanges) String() string {
	return [...]string{"unknown", "none", "some"}[c]
}

// DiffRequest asks how the new inputs differ from the resource's recorded
// state (or, for DiffConfig, how a provider configuration changed).
type DiffRequest struct {
	URN           resource.URN
	ID            string
	OldInputs     resource.Object
	OldOutputs    resource.Object
	News          resource.Object
	IgnoreChanges []resource.PropertyPath
	Private       []byte
}

// DiffResponse describes the changes. Replacement is needed when ReplaceKeys
// is non-empty or an entry of DetailedDiff says Replace.
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
// during a preview.
type ConfigureRequest struct {
	Inputs  resource.Object
	Preview bool
}

// ConfigureResponse reports the features the provider accepts.
type ConfigureResponse struct {
	AcceptSecrets   bool
	AcceptResources bool
	SupportsPreview bool
}

// CreateRequest creates a resource from checked inputs. With Preview set the
// provider computes the likely outputs without creating anything.
type CreateRequest struct {
	URN     resource.URN
	Inputs  resource.Object
	Timeout time.Duration
	Preview bool
	// Plan is what the preview of this create returned as its Plan, in
	// the same plinth process: the provider may apply it instead of
	// planning again, but only after checking that it was made from
	// exactly this request and this provider configuration (else it
	// plans again). Nil: plan as usual.
	Plan []byte
}

// CreateResponse carries the new resource's ID and outputs. Private is
// opaque provider data the engine stores with the resource and hands back.
type CreateResponse struct {
	ID      string
	Outputs resource.Object
	Private []byte
	// Plan, from a preview only, is the provider's plan of the create,
	// opaque to the engine, which may hand it back as CreateRequest.Plan
	// (see there). Nil if the provider keeps no plan.
	Plan []byte
}

// ReadRequest reads a resource's live state. Inputs and State are empty
// when importing.
type ReadRequest struct {
	URN     resource.URN
	ID      string
	Inputs  resource.Object
	State   resource.Object
	Private []byte
}

// ReadResponse carries what was read. An empty ID means the resource no
// longer exists.
type ReadResponse struct {
	ID      string
	Inputs  resource.Object
	Outputs resource.Object
	Private []byte
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
	Private       []byte
	// Plan is what the preview of this update returned as its Plan, as
	// CreateRequest.Plan is for a create.
	Plan []byte
}

// UpdateResponse carries the updated outputs. Plan, from a preview
// only, is as CreateResponse.Plan.
type UpdateResponse struct {
	Outputs resource.Object
	Private []byte
	Plan    []byte
}

// DeleteRequest deletes a resource.
type DeleteRequest struct {
	URN     resource.URN
	ID      string
	Inputs  resource.Object
	Outputs resource.Object
	Timeout time.Duration
	Private []byte
}

// DeleteResponse is empty; it exists so fields can be added.
type DeleteResponse struct{}

// InvokeRequest calls a provider function.
type InvokeRequest struct {
	Token string
	Args  resource.Object
}

// InvokeResponse carries a function's result or argument failures.
type InvokeResponse struct {
	Return   resource.Object
	Failures []CheckFailure
}

// InitError reports a resource that was created (or updated) but failed to
// initialise. The engine records it with its ID and outputs, so nothing
// created is forgotten, and reports the reasons.
type InitError struct {
	ID      string
	Outputs resource.Object
	Private []byte
	Reasons []string
}

func (e *InitError) Error() string {
	if e.ID == "" {
		return fmt.Sprintf("the resource was created but failed to initialise, and the provider gave no ID: %s", strings.Join(e.Reasons, "; "))
	}
	return fmt.Sprintf("resource %s was created but failed to initialise: %s", e.ID, strings.Join(e.Reasons, "; "))
}

// MaxStateBytes bounds one resource's state (its outputs as the provider
// encodes them): plinth refuses a larger one rather than keep it in memory,
// the journal and every snapshot.
const MaxStateBytes = 16 << 20

// StateTooLargeError is a provider's answer whose state is over
// MaxStateBytes.
type StateTooLargeError struct {
	URN  resource.URN
	Size int
}

func (e *StateTooLargeError) Error() string {
	return fmt.Sprintf("the state the provider returned for %s is %.1f MiB, over plinth's limit of %d MiB for one resource; "+
		"keep large data out of resource properties (in a file or an asset, say)",
		e.URN, float64(e.Size)/(1<<20), MaxStateBytes>>20)
}

// Diagnostic tells internal/display where the answer was refused (the
// resource's URN); the summary is the operation's ("Resource failed").
func (e *StateTooLargeError) Diagnostic() (summary, where, path, detail string) {
	return "", string(e.URN), "", ""
}

// DiagnosticError is a provider's error that carries one diagnostic of
// its own, whose summary and detail a Terraform-style display shows as
// they are (terraform's "Read local file data source error" for a failed
// read, rather than plinth's summary of it). Summary is "" when the error
// holds no single diagnostic. tfplugin.Error implements it; internal/
// program, which may not import this package, declares the same methods.
type DiagnosticError interface {
	error
	Summary() string
	Detail() string
}
