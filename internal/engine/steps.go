package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A step is one thing an operation does to one resource, decided by the
// generator (generate.go and its neighbours) and carried out by the
// executor (execute.go). The kinds: same, create (plain, replacement,
// create-before-delete, recreate of a missing resource), update, replace
// delete-first, delete, drop (from state only), remove (a missing record),
// discard (a record sharing a live one's ID), refuse (protected), import,
// refresh, rename (an alias), component, provider, keep (untargeted). The
// kinds that call a provider to change the world are in stepsworld.go;
// reads in stepsread.go, and of external resources in read.go; provider
// resources in providerstep.go.
type step interface {
	// apply carries the step out with x and returns what a registration
	// of the resource learns from it.
	apply(x *executor) (Registered, error)
}

// change is what the generator works out for a custom resource before
// choosing its step.
type change struct {
	urn     resource.URN
	reg     *Registration
	inst    *instance
	old     *state.Resource
	inputs  resource.Object // checked
	op      StepOp
	diff    resource.DetailedDiff
	replace []string
	dbr     bool
	// reason says why a replacement was forced (tainted, requested,
	// triggered), if it was.
	reason ReplaceReason
	// gone is the record of a resource a refresh found deleted outside
	// plinth (Missing); the step creates it again in its place.
	gone *state.Resource
}

// keepStep leaves a resource outside the operation's targets as it is.
type keepStep struct{ res Registered }

func (s keepStep) apply(*executor) (Registered, error) { return s.res, nil }

// sameStep records a resource that needs no provider call, writing its
// record only if something (dependencies, options, provider) changed.
type sameStep struct{ c *change }

func (s sameStep) apply(x *executor) (Registered, error) {
	c := s.c
	nr := x.newResource(c.urn, c.reg, c.inputs, c.inst.ref)
	nr.ID, nr.Outputs, nr.Private = c.old.ID, c.old.Outputs, c.old.Private
	markSecretID(nr, c.inputs, c.old.SecretID)
	sealSecrets(nr) // a record written before outputs derived from secrets were sealed is sealed now
	nr.Created, nr.Modified = c.old.Created, c.old.Modified
	x.recordDestroyProvisioners(c.reg, nr)
	if !sameRecord(c.old, nr) {
		nr.Modified = x.now()
		x.yieldSlot()
		if err := x.write(state.OpSame, c.old, nr); err != nil {
			return Registered{}, err
		}
	}
	x.count(OpSame)
	x.done(OpSame, c.old, nr, c, time.Now(), nil)
	return registered(nr), nil
}

// refuseStep reports a step refused before it started: a protected
// resource's delete or replacement.
type refuseStep struct {
	op      StepOp
	old, nu *state.Resource
	c       *change
	err     error
}

func (s refuseStep) apply(x *executor) (Registered, error) {
	x.done(s.op, s.old, s.nu, s.c, x.started(s.op, s.old, s.nu, s.c), s.err)
	return Registered{}, s.err
}

// ProtectedError refuses to delete or replace a protected resource.
type ProtectedError struct {
	URN    resource.URN
	Action string
}

func (e *ProtectedError) Error() string {
	return fmt.Sprintf("cannot %s %s: it is protected by the `protect` option; set protect to false and run `plinth up` first if you really mean to %s it", e.Action, e.URN, e.Action)
}

// dropStep deletes from the state alone a component or provider resource,
// or one with retainOnDelete (which is counted as a discard).
type dropStep struct {
	r     *state.Resource
	shown StepOp
}

func (s dropStep) apply(x *executor) (Registered, error) {
	start := x.started(s.shown, s.r, nil, nil)
	after, err := x.runDeleteHooks(s.r)
	if err != nil {
		x.done(s.shown, s.r, nil, nil, start, err)
		return Registered{}, err
	}
	op, counted := state.OpDelete, s.shown
	if s.r.RetainOnDelete || s.r.External {
		op, counted = state.OpRemove, OpDiscard
	}
	if err := x.write(op, s.r, nil); err != nil {
		return Registered{}, err
	}
	x.countDelete(s.r, counted)
	if s.shown == OpDelete && s.r.RetainOnDelete && !s.r.External {
		x.mu.Lock()
		x.retained++
		x.mu.Unlock()
	}
	after()
	x.done(s.shown, s.r, nil, nil, start, nil)
	return Registered{}, nil
}

// removeStep drops the record of a resource found missing: gone already,
// so there is nothing to show.
type removeStep struct{ r *state.Resource }

func (s removeStep) apply(x *executor) (Registered, error) {
	return Registered{}, x.write(state.OpRemove, s.r, nil)
}

// discardStep removes from the state alone a resource whose ID a live
// resource holds too and that is the same object (sameobject.go): a
// replacement that came back with the old ID (a file at the same path, a
// name-derived ID) with nothing changed that needs a new object, or a
// renamed resource. Deleting it would delete what the live one stands for.
type discardStep struct {
	r, holder *state.Resource
	shown     StepOp
}

func (s discardStep) apply(x *executor) (Registered, error) {
	r, start := s.r, time.Now()
	x.warn("%s was not deleted: %s holds the same ID %s and its provider finds no change between them that needs a new object, so it is the same %s; plinth dropped the old record from the state only", r.URN, s.holder.URN, shownID(r), r.Type)
	if err := x.write(state.OpRemove, r, nil); err != nil {
		return Registered{}, err
	}
	if s.shown != OpDeleteReplaced {
		x.count(OpDiscard)
	}
	x.emit(Event{Kind: EventStepDone, Op: OpDiscard, URN: r.URN, Type: r.Type, Old: r, Duration: time.Since(start),
		Message: fmt.Sprintf("not deleted: %s holds the same ID", s.holder.URN)})
	return Registered{}, nil
}

// renameStep moves a recorded resource to a new URN: an alias took it
// over. One journaled write moves it and repoints what referred to it.
type renameStep struct {
	old *state.Resource
	urn resource.URN
}

func (s renameStep) apply(x *executor) (Registered, error) {
	nu := s.old.Clone()
	nu.URN = s.urn
	if err := x.writeEntry(state.Entry{Kind: state.Write, Op: state.OpRename, Old: s.old, New: nu}); err != nil {
		return Registered{}, fmt.Errorf("recording that %s takes over %s (an alias): %w", s.urn, s.old.URN, err)
	}
	x.emit(Event{Kind: EventDiagnostic, Severity: SeverityInfo, URN: s.urn, Type: nu.Type,
		Message: fmt.Sprintf("%s takes over the recorded %s through an alias; nothing is replaced", s.urn, s.old.URN)})
	return registered(nu), nil
}

// componentStep records a component resource: no provider is involved;
// its inputs are recorded and its outputs come from RegisterOutputs.
type componentStep struct {
	urn resource.URN
	reg *Registration
	old *state.Resource
}

func (s componentStep) apply(x *executor) (Registered, error) {
	nr := x.newResource(s.urn, s.reg, s.reg.Inputs, "")
	nr.Outputs = resource.Object{}
	op, old := OpCreate, s.old
	kind, before, after := componentHooks(s.reg, old, nr)
	call := hookCall(nr, old)
	if err := x.beforeHooks(kind, before, call); err != nil {
		x.done(op, old, nr, nil, time.Now(), err)
		return Registered{}, err
	}
	var err error
	switch {
	case old == nil:
		err = x.write(state.OpCreate, nil, nr)
	default:
		op = componentOp(old, nr)
		nr.Outputs, nr.Created, nr.Modified = old.Outputs, old.Created, old.Modified
		if !sameRecord(old, nr) {
			nr.Modified = x.now()
			err = x.write(state.OpSame, old, nr)
		}
	}
	if err != nil {
		return Registered{}, err
	}
	x.awaitOutputs(s.urn, kind, after, call)
	x.count(op)
	x.done(op, old, nr, nil, time.Now(), nil)
	return Registered{URN: s.urn, Outputs: nr.Outputs}, nil
}

// componentOp is the step of a recorded component, as Pulumi counts it:
// updated when its inputs changed (a remote component's, or any a program
// registered with inputs), else the same.
func componentOp(old, nr *state.Resource) StepOp {
	if !old.Inputs.Equal(nr.Inputs) {
		return OpUpdate
	}
	return OpSame
}

// sameRecord reports whether two records of one resource agree in
// everything but their timestamps, so nothing need be written.
func sameRecord(a, b *state.Resource) bool {
	return a.Type == b.Type && a.Custom == b.Custom && a.ID == b.ID && a.Parent == b.Parent &&
		a.Provider == b.Provider && a.Protect == b.Protect && a.RetainOnDelete == b.RetainOnDelete &&
		a.DeleteBeforeReplace == b.DeleteBeforeReplace && a.CustomTimeouts == b.CustomTimeouts && a.SecretID == b.SecretID &&
		a.External == b.External && a.DeletedWith == b.DeletedWith && slices.Equal(a.AdditionalSecretOutputs, b.AdditionalSecretOutputs) &&
		a.Inputs.Equal(b.Inputs) && a.Outputs.Equal(b.Outputs) &&
		slices.Equal(a.Dependencies, b.Dependencies) && slices.Equal(a.DependencyGroups, b.DependencyGroups) &&
		slices.Equal(a.IgnoreChanges, b.IgnoreChanges) && a.DeleteHooks.Equal(b.DeleteHooks) &&
		slices.Equal(a.ReplaceOnChanges, b.ReplaceOnChanges) && slices.Equal(a.InitErrors, b.InitErrors) &&
		slices.Equal(a.Private, b.Private) && samePropertyDependencies(a.PropertyDependencies, b.PropertyDependencies) &&
		maps.EqualFunc(a.InputTypes, b.InputTypes, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

func samePropertyDependencies(a, b map[string][]resource.URN) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// stepOutcome is what a custom resource's step does, for the program
// (Registered.Op): same, create, update, replace or import, with the
// top-level properties an update or replacement changes.
func stepOutcome(s step) (StepOp, []string) {
	switch s := s.(type) {
	case sameStep:
		return OpSame, nil
	case updateStep:
		return OpUpdate, changedKeys(s.c)
	case deleteFirstStep:
		return OpReplace, changedKeys(s.c)
	case selfFirstStep:
		return OpReplace, changedKeys(s.c)
	case importStep:
		return OpImport, nil
	case createStep:
		return s.h.counted, changedKeys(s.c)
	}
	return "", nil
}

// changedKeys lists the top-level properties a change's diff touches.
func changedKeys(c *change) []string {
	var keys []string
	for _, p := range c.diff.Paths() {
		path, err := resource.ParsePath(p)
		if err != nil || len(path) == 0 {
			continue
		}
		if k, ok := path[0].(string); ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func registered(r *state.Resource) Registered {
	res := Registered{URN: r.URN, ID: idValue(r.ID), Outputs: r.Outputs, Custom: r.Custom}
	if r.SecretID {
		res.ID = resource.MakeSecret(res.ID)
	}
	if isProvider(r.Type) {
		res.ProviderRef = state.ProviderRef(r.URN, r.ID)
	}
	return res
}

// shownID is a record's ID for a message: quoted, or [secret] when it
// derives from a secret.
func shownID(r *state.Resource) string {
	if r.SecretID {
		return "[secret]"
	}
	return fmt.Sprintf("%q", r.ID)
}

func idValue(id string) resource.Value {
	if id == UnknownID {
		return resource.Unknown()
	}
	return resource.NewString(id)
}

func isProvider(typ string) bool { return state.IsProviderType(typ) }
