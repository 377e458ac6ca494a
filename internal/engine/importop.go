package engine

import (
	"context"
	"errors"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ImportRequest names an existing resource to adopt into the state.
type ImportRequest struct {
	Type     string
	Name     string
	ID       string
	Provider string // explicit provider reference, or "" for the default
	Version  string
	// Program, if set, registers the resource to import (with ImportID
	// set) and whatever explicit provider it needs, instead of the
	// engine's one-registration program; nothing else it registers may
	// change, since only the imported resource is targeted.
	Program Program
}

// Import adopts one existing resource: Read by ID, Check with the inputs
// read, and a Diff that must find no change. Nothing else in the stack is
// touched.
func Import(ctx context.Context, base *state.Snapshot, opts Options, req ImportRequest) (*Result, error) {
	return importOp(ctx, base, opts, req, false)
}

// PreviewImport reports what Import would adopt, recording nothing.
func PreviewImport(ctx context.Context, base *state.Snapshot, opts Options, req ImportRequest) (*Result, error) {
	opts.Journal = nil
	return importOp(ctx, base, opts, req, true)
}

func importOp(ctx context.Context, base *state.Snapshot, opts Options, req ImportRequest, preview bool) (*Result, error) {
	reg := Registration{Type: req.Type, Name: req.Name, Custom: true, ImportID: req.ID, Provider: req.Provider, Version: req.Version}
	var prog Program = ProgramFunc(func(ctx context.Context, mon Monitor) error {
		_, err := RegisterAndWait(ctx, mon, reg)
		return err
	})
	if req.Program != nil {
		prog = req.Program
	}
	if !preview {
		if opts.Journal == nil {
			return nil, errors.New("import needs a journal to record its changes")
		}
		if err := blockingPending(base); err != nil {
			return nil, err
		}
	}
	opts.Targets = []resource.URN{resource.NewURN(opts.Stack, opts.Project, "", req.Type, req.Name)}
	return run(ctx, prog, base, &opts, preview)
}
