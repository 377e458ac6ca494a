package provider

import (
	"context"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Resource is a resource type written as Go types: I is its inputs struct,
// O its outputs struct (usually embedding I, so the outputs repeat the
// inputs). Create is the one method every resource needs; the others are
// optional interfaces with these defaults:
//
//   - Reader: Read returns the recorded inputs and state unchanged, and
//     import is refused.
//   - Updater: without it every change replaces the resource.
//   - Deleter: Delete does nothing (the resource lives only in state).
//   - Checker: Check validates the inputs against the tags and applies
//     defaults; a Checker runs after that, on valid inputs.
//   - Differ: Diff compares the new inputs with the recorded ones (each
//     input mirrored by an output of the same name is compared with the
//     recorded output, so drift found by a refresh is corrected); changes
//     under a replaceOnChanges property replace.
//   - CreatePreviewer, UpdatePreviewer: in a preview, outputs named like
//     an input take the input's value and the rest are unknown.
//   - StateUpgrader: the state has schema version 0 and is never
//     upgraded.
//
// Struct fields become properties by their tags:
//
//	Name string `plinth:"name,optional,secret,replaceOnChanges,computed" doc:"..." default:"..."`
//
// The name defaults to the field name in lower camel case; `plinth:"-"`
// skips a field. Supported field types: bool, integers, floats, string,
// pointers (nil is absent), slices, maps with string keys, named structs
// (object types), *resource.Asset, *resource.Archive, resource.Value (any
// value, passed through with unknowns and secrets) and interface{} (plain
// Go data). An optional field without a default whose value is zero is left
// out; use a pointer to tell zero from absent.
//
// Unknown input values (in a preview) decode as zero; the op's Unknowns
// names them. Secret inputs decode as plain values and the op's Secrets
// names them; outputs named like a secret input, fields tagged secret and
// outputs a result names in its Secrets are returned as secrets.
type Resource[I, O any] interface {
	Create(ctx context.Context, op CreateOp[I]) (CreateResult[O], error)
}

// Reader reads a resource's live state, for refresh and import.
type Reader[I, O any] interface {
	Read(ctx context.Context, op ReadOp[I, O]) (ReadResult[I, O], error)
}

// Updater updates a resource in place.
type Updater[I, O any] interface {
	Update(ctx context.Context, op UpdateOp[I, O]) (UpdateResult[O], error)
}

// Deleter deletes a resource.
type Deleter[I, O any] interface {
	Delete(ctx context.Context, op DeleteOp[I, O]) error
}

// Checker validates inputs beyond their types (ranges, exclusive
// properties) and may fill in defaults that depend on other inputs.
type Checker[I any] interface {
	Check(ctx context.Context, op CheckOp[I]) (CheckResult[I], error)
}

// Differ computes a resource's diff itself.
type Differ[I, O any] interface {
	Diff(ctx context.Context, op DiffOp[I, O]) (DiffResult, error)
}

// CreatePreviewer computes a resource's likely outputs in a preview. The
// result's Unknowns name the outputs it cannot tell.
type CreatePreviewer[I, O any] interface {
	PreviewCreate(ctx context.Context, op CreateOp[I]) (CreateResult[O], error)
}

// UpdatePreviewer computes a resource's likely outputs after an update, in
// a preview.
type UpdatePreviewer[I, O any] interface {
	PreviewUpdate(ctx context.Context, op UpdateOp[I, O]) (UpdateResult[O], error)
}

// CheckOp holds the inputs to check. Olds are the last checked inputs (zero
// for a new resource, with HasOlds false). Unknowns lists the top-level
// properties of News that are, or contain, unknowns.
type CheckOp[I any] struct {
	URN        resource.URN
	Olds       I
	HasOlds    bool
	News       I
	Unknowns   []string
	RandomSeed []byte
}

// CheckResult carries the checked inputs and any failures. Inputs that were
// unknown stay unknown whatever the Checker returns for them.
type CheckResult[I any] struct {
	Inputs   I
	Failures []CheckFailure
}

// DiffOp holds what a Differ compares. Default is the diff the SDK would
// return, for a Differ that only adjusts it.
type DiffOp[I, O any] struct {
	URN           resource.URN
	ID            string
	OldInputs     I
	OldOutputs    O
	News          I
	Unknowns      []string
	IgnoreChanges []resource.PropertyPath
	Default       resource.DetailedDiff
	// Private is the resource's private data (see CreateResult.Private).
	Private []byte
}

// DiffResult is a Differ's answer. An empty DetailedDiff means no changes.
type DiffResult struct {
	DetailedDiff        resource.DetailedDiff
	DeleteBeforeReplace bool
}

// CreateOp asks for a resource to be created. In a preview (Preview set,
// only for a CreatePreviewer) Unknowns names inputs not yet known.
type CreateOp[I any] struct {
	URN      resource.URN
	Inputs   I
	Timeout  time.Duration
	Preview  bool
	Unknowns []string
	// Secrets lists the top-level inputs that are, or contain, secrets.
	Secrets []string
}

// CreateResult carries the new resource's ID and outputs. If Create fails
// after creating something, return its ID (and what outputs are known) with
// the error: the engine records the resource so it is not forgotten.
// Unknowns names outputs not yet known, in a preview only.
type CreateResult[O any] struct {
	ID       string
	Outputs  O
	Unknowns []string
	// Secrets names outputs to return as secrets, beyond those tagged
	// secret and those named like a secret input: for example an output
	// computed from a secret input.
	Secrets []string
	// Private is data the resource keeps for itself (a remote API's etag,
	// the version of a format): recorded with the state, never shown to a
	// program, given back in the ops that follow. Terraform and plinth
	// keep it in their private state; Pulumi as a secret output (see
	// PrivateProperty).
	Private []byte
}

// ReadOp asks for a resource's live state. Import is set when only the ID is
// known: Inputs and State are zero and Read must return inputs.
type ReadOp[I, O any] struct {
	URN    resource.URN
	ID     string
	Inputs I
	State  O
	Import bool
	// Secrets lists the top-level inputs and outputs that are, or contain,
	// secrets.
	Secrets []string
	// Private is the resource's private data (see CreateResult.Private).
	Private []byte
}

// ReadResult carries the live state. An empty ID means the resource no
// longer exists.
type ReadResult[I, O any] struct {
	ID      string
	Inputs  I
	Outputs O
	// Secrets names outputs to return as secrets (see CreateResult).
	Secrets []string
	// Private replaces the private data; nil keeps it.
	Private []byte
}

// UpdateOp asks for a resource to be updated in place.
type UpdateOp[I, O any] struct {
	URN           resource.URN
	ID            string
	OldInputs     I
	OldOutputs    O
	News          I
	Timeout       time.Duration
	IgnoreChanges []resource.PropertyPath
	Preview       bool
	Unknowns      []string
	// Secrets lists the top-level new inputs that are, or contain, secrets.
	Secrets []string
	// Private is the resource's private data (see CreateResult.Private).
	Private []byte
}

// UpdateResult carries the updated outputs. If Update fails after changing
// the resource, return the resulting outputs with the error: the engine
// records them. Unknowns names outputs not yet known, in a preview only.
type UpdateResult[O any] struct {
	Outputs  O
	Unknowns []string
	// Secrets names outputs to return as secrets (see CreateResult).
	Secrets []string
	// Private replaces the private data; nil keeps it.
	Private []byte
}

// DeleteOp asks for a resource to be deleted.
type DeleteOp[I, O any] struct {
	URN     resource.URN
	ID      string
	Inputs  I
	Outputs O
	Timeout time.Duration
	// Private is the resource's private data (see CreateResult.Private).
	Private []byte
}
