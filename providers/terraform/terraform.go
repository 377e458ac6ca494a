package terraform

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"slices"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Name is the package name of the built-in provider.
const Name = "terraform"

// Version is the provider's version: the Terraform release whose
// built-in provider it stands for.
const Version = "1.11.4"

// The type tokens, as the Terraform format names terraform_data and
// terraform_remote_state.
const (
	DataType         = "terraform:index:terraform_data"
	RemoteStateToken = "terraform:index:terraform_remote_state"
)

// New returns an unconfigured instance of the provider; relative state
// paths of terraform_remote_state resolve against dir (the root module's
// directory, where terraform runs).
func New(dir string) provider.Provider {
	p, err := provider.New(provider.Info{
		Name: Name, Version: Version, DisplayName: "Terraform built-ins",
		Description: "terraform_data and terraform_remote_state, built into plinth for Terraform configurations.",
	},
		provider.WithResource[DataArgs, DataState](DataType, Data{}, "Keeps a value in state; its output follows input, and a change of triggers_replace replaces it."),
		provider.WithFunction(RemoteStateToken, remoteState(dir), "Reads the root module outputs of another configuration's state (backend \"local\")."),
	)
	if err != nil {
		panic(fmt.Sprintf("plinth: internal error: terraform provider definitions are broken: %v", err))
	}
	return p
}

// Pure reports whether the resource type token is pure when run in
// process: its create, update and delete compute in memory and act on
// nothing outside plinth's state, so plinth may record each with one
// journal entry (internal/provider.Pure). terraform_data is: it makes a
// random id and copies input to output, and its Delete does nothing.
func Pure(token string) bool { return token == DataType }

// DataArgs are terraform_data's arguments.
type DataArgs struct {
	Input           resource.Value `plinth:"input,optional" doc:"A value stored in state and reflected in output after apply."`
	TriggersReplace resource.Value `plinth:"triggers_replace,optional,replaceOnChanges" doc:"A value whose change replaces the resource."`
}

// DataState are terraform_data's attributes.
type DataState struct {
	DataArgs
	Output resource.Value `plinth:"output,optional" doc:"The input, once applied."`
	ID     string         `plinth:"id" doc:"A random UUID made when the resource is created."`
}

// Data is terraform_data. It lives only in state: Delete does nothing.
type Data struct{}

var (
	_ provider.CreatePreviewer[DataArgs, DataState] = Data{}
	_ provider.Updater[DataArgs, DataState]         = Data{}
	_ provider.UpdatePreviewer[DataArgs, DataState] = Data{}
	_ provider.Differ[DataArgs, DataState]          = Data{}
	_ provider.Reader[DataArgs, DataState]          = Data{}
)

// Read returns the state as recorded: terraform_data lives only in state.
// An import (an import block, or plinth import) takes the ID, with input
// and output null, as terraform imports it.
func (Data) Read(_ context.Context, op provider.ReadOp[DataArgs, DataState]) (provider.ReadResult[DataArgs, DataState], error) {
	if op.Import {
		return provider.ReadResult[DataArgs, DataState]{ID: op.ID, Outputs: DataState{ID: op.ID}}, nil
	}
	return provider.ReadResult[DataArgs, DataState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}

// Diff is the SDK's diff, replacing delete-first as terraform does: it
// destroys a terraform_data before creating its replacement unless the
// resource sets create_before_destroy (which the engine honours over
// this).
func (Data) Diff(_ context.Context, op provider.DiffOp[DataArgs, DataState]) (provider.DiffResult, error) {
	return provider.DiffResult{DetailedDiff: op.Default, DeleteBeforeReplace: true}, nil
}

// Create makes the id and copies input to output.
func (Data) Create(_ context.Context, op provider.CreateOp[DataArgs]) (provider.CreateResult[DataState], error) {
	id, err := newUUID()
	if err != nil {
		return provider.CreateResult[DataState]{}, err
	}
	return provider.CreateResult[DataState]{ID: id, Outputs: DataState{DataArgs: op.Inputs, Output: op.Inputs.Input, ID: id},
		Secrets: secretOutput(op.Secrets)}, nil
}

// PreviewCreate leaves the id and the output known after apply, as
// terraform plans a new terraform_data (so an output used in count or
// for_each is refused while planning, as terraform refuses it).
func (Data) PreviewCreate(_ context.Context, op provider.CreateOp[DataArgs]) (provider.CreateResult[DataState], error) {
	return provider.CreateResult[DataState]{Outputs: DataState{DataArgs: op.Inputs, Output: op.Inputs.Input},
		Unknowns: []string{"id", "output"}, Secrets: secretOutput(op.Secrets)}, nil
}

// Update copies the new input to output.
func (Data) Update(_ context.Context, op provider.UpdateOp[DataArgs, DataState]) (provider.UpdateResult[DataState], error) {
	return provider.UpdateResult[DataState]{Outputs: DataState{DataArgs: op.News, Output: op.News.Input, ID: op.ID},
		Secrets: secretOutput(op.Secrets)}, nil
}

// PreviewUpdate shows output as known after apply when input changes,
// as terraform plans it.
func (Data) PreviewUpdate(_ context.Context, op provider.UpdateOp[DataArgs, DataState]) (provider.UpdateResult[DataState], error) {
	res := provider.UpdateResult[DataState]{Outputs: DataState{DataArgs: op.News, Output: op.OldOutputs.Output, ID: op.ID}, Secrets: secretOutput(op.Secrets)}
	if slices.Contains(op.Unknowns, "input") || !op.News.Input.Equal(op.OldInputs.Input) {
		res.Unknowns = []string{"output"}
	}
	return res, nil
}

// secretOutput makes output secret when input is.
func secretOutput(secrets []string) []string {
	if slices.Contains(secrets, "input") {
		return []string{"output"}
	}
	return nil
}

// newUUID is a random (version 4) UUID, as terraform_data's id is.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := crand.Read(b[:]); err != nil {
		return "", fmt.Errorf("terraform_data: making an id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
}
