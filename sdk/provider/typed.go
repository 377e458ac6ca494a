package provider

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// resourceHandler is a resource type as the server sees it: generic
// requests in, generic responses out. typedResource is the one
// implementation; the server adds lookup, lifecycle checks, contexts and
// panic recovery around it.
type resourceHandler interface {
	schema() ResourceSchema
	check(c call, req CheckRequest) (CheckResponse, error)
	diff(c call, req DiffRequest) (DiffResponse, error)
	create(c call, req CreateRequest) (CreateResponse, error)
	read(c call, req ReadRequest) (ReadResponse, error)
	update(c call, req UpdateRequest) (UpdateResponse, error)
	delete(c call, req DeleteRequest) error
	upgrader() (StateUpgrader, bool)
}

// WithResource adds a resource type with inputs I and outputs O, under a
// type token of the provider's package ("pkg:module:Type"). doc describes
// it in the schema. The resource's optional interfaces (Reader, Updater,
// Deleter, Checker, Differ, CreatePreviewer, UpdatePreviewer) are detected
// here.
func WithResource[I, O any](token string, r Resource[I, O], doc string) Option {
	return func(s *setup) error {
		module, err := s.module(token)
		if err != nil {
			return err
		}
		h := &typedResource[I, O]{token: token, doc: doc, impl: r}
		if h.inputs, err = s.types.object(reflect.TypeFor[I](), module); err != nil {
			return fmt.Errorf("resource %s: inputs: %w", token, err)
		}
		if h.outputs, err = s.types.object(reflect.TypeFor[O](), module); err != nil {
			return fmt.Errorf("resource %s: outputs: %w", token, err)
		}
		h.detect()
		return s.addResource(token, h)
	}
}

type typedResource[I, O any] struct {
	token           string
	doc             string
	impl            Resource[I, O]
	inputs, outputs *structCodec
	replace         []resource.PropertyPath
	writeOnlyNames  []string
	timeouts        string // the inputs' Timeouts property, if any
	compared        []comparedInput

	reader          Reader[I, O]
	updater         Updater[I, O]
	deleter         Deleter[I, O]
	checker         Checker[I]
	differ          Differ[I, O]
	createPreviewer CreatePreviewer[I, O]
	updatePreviewer UpdatePreviewer[I, O]
	stateUpgrader   StateUpgrader
}

func (h *typedResource[I, O]) detect() {
	h.reader, _ = h.impl.(Reader[I, O])
	h.updater, _ = h.impl.(Updater[I, O])
	h.deleter, _ = h.impl.(Deleter[I, O])
	h.checker, _ = h.impl.(Checker[I])
	h.differ, _ = h.impl.(Differ[I, O])
	h.createPreviewer, _ = h.impl.(CreatePreviewer[I, O])
	h.updatePreviewer, _ = h.impl.(UpdatePreviewer[I, O])
	h.stateUpgrader, _ = h.impl.(StateUpgrader)
	h.replace = h.inputs.paths(nil, func(t fieldTag) bool { return t.replaceOnChanges })
	h.timeouts = timeoutsField(h.inputs)
	for _, f := range h.inputs.fields {
		if f.tag.writeOnly {
			h.writeOnlyNames = append(h.writeOnlyNames, f.name())
			continue // never recorded, so never compared: see Property.WriteOnly
		}
		h.compared = append(h.compared, comparedInput{name: f.name(), mirrored: h.outputs.has(f.name()), set: f.tag.set})
	}
}

// comparedInput is an input the default diff compares, as the type
// decides once: with the recorded output of the same name when the
// outputs mirror it and were recorded, else with the recorded input;
// a set in sorted order.
type comparedInput struct {
	name          string
	mirrored, set bool
}

func (h *typedResource[I, O]) schema() ResourceSchema {
	outs := h.outputs.properties()
	for _, name := range h.writeOnlyNames {
		delete(outs, name)
	}
	for name, p := range outs {
		if !h.inputs.has(name) {
			p.Computed = true
			outs[name] = p
		}
	}
	sc := ResourceSchema{Description: h.doc, Inputs: h.inputs.properties(), Outputs: outs}
	if h.stateUpgrader != nil {
		sc.Version = h.stateUpgrader.SchemaVersion()
	}
	return sc
}

func (h *typedResource[I, O]) upgrader() (StateUpgrader, bool) {
	return h.stateUpgrader, h.stateUpgrader != nil
}

func (h *typedResource[I, O]) check(c call, req CheckRequest) (CheckResponse, error) {
	var fs []CheckFailure
	h.inputs.checkObject(req.News, nil, &fs)
	if len(fs) > 0 {
		return CheckResponse{Inputs: req.News, Failures: fs}, nil
	}
	news := h.secretWriteOnly(h.inputs.objectWithDefaults(req.News))
	if h.checker == nil {
		return CheckResponse{Inputs: news}, nil
	}
	// One allocation holds both decoded structs (see decodeInto).
	unknowns := unknownNames(news)
	op := &CheckOp[I]{URN: req.URN, HasOlds: req.Olds != nil, Unknowns: slices.Clone(unknowns), RandomSeed: req.RandomSeed}
	if err := decodeInto(h.inputs, req.Olds, &op.Olds, "old inputs"); err != nil {
		return CheckResponse{}, err
	}
	if err := decodeInto(h.inputs, news, &op.News, "inputs"); err != nil {
		return CheckResponse{}, err
	}
	ctx, release := c.context()
	defer release()
	res, err := h.checker.Check(ctx, *op)
	if err != nil {
		return CheckResponse{}, err
	}
	out, err := encode(h.inputs, res.Inputs, "checked inputs")
	if err != nil {
		return CheckResponse{}, err
	}
	for _, k := range unknowns {
		out[k] = news[k] // Go code saw it as zero and cannot have known it
	}
	return CheckResponse{Inputs: h.secretWriteOnly(markSecrets(out, req.News)), Failures: res.Failures}, nil
}

// secretWriteOnly marks write-only inputs secret: an engine that records
// inputs (Pulumi does) then keeps them encrypted.
func (h *typedResource[I, O]) secretWriteOnly(o resource.Object) resource.Object {
	for _, name := range h.writeOnlyNames {
		if v, ok := o[name]; ok && !v.IsNull() && !v.IsSecret() {
			o[name] = resource.MakeSecret(v)
		}
	}
	return o
}

func (h *typedResource[I, O]) diff(c call, req DiffRequest) (DiffResponse, error) {
	res := DiffResult{DetailedDiff: h.defaultDiff(req)}
	if h.differ != nil {
		op := DiffOp[I, O]{URN: req.URN, ID: req.ID, Unknowns: unknownNames(req.News), Private: privateOf(req.OldOutputs),
			IgnoreChanges: req.IgnoreChanges, Default: res.DetailedDiff}
		var err error
		if op.OldInputs, op.OldOutputs, err = h.decodeBoth(req.OldInputs, req.OldOutputs); err != nil {
			return DiffResponse{}, err
		}
		if op.News, err = decode[I](h.inputs, req.News, "inputs"); err != nil {
			return DiffResponse{}, err
		}
		ctx, release := c.context()
		defer release()
		if res, err = h.differ.Diff(ctx, op); err != nil {
			return DiffResponse{}, err
		}
	}
	dd := withoutIgnored(res.DetailedDiff, req.IgnoreChanges)
	if h.updater == nil {
		dd = allReplace(dd)
	}
	if h.timeouts != "" {
		dd = timeoutsNeverReplace(dd, h.timeouts)
	}
	return diffResponse(dd, res.DeleteBeforeReplace), nil
}

// defaultDiff compares each input with its recorded value: the recorded
// output of the same name if the outputs have one (so that drift a refresh
// found is corrected), else the recorded input.
func (h *typedResource[I, O]) defaultDiff(req DiffRequest) resource.DetailedDiff {
	olds := make(resource.Object, len(h.compared))
	for _, c := range h.compared {
		v := req.OldInputs[c.name]
		if c.mirrored && req.OldOutputs != nil {
			v = req.OldOutputs[c.name]
		}
		if c.set {
			// A set recorded in another order (Terraform keeps its
			// own) is the same set: compare it in the order Check
			// gives the new one.
			v = sortedSet(v)
		}
		olds[c.name] = v
	}
	news := req.News
	if len(h.writeOnlyNames) > 0 {
		news = news.Copy()
		for _, name := range h.writeOnlyNames {
			delete(news, name)
		}
	}
	dd := resource.DiffObjects(olds, news, h.replace)
	for p, d := range dd {
		name := topName(p)
		d.InputDiff = h.inputs.has(name) && !h.writeOnly(name) && h.comparedWithInput(name, req.OldOutputs)
		dd[p] = d
	}
	return dd
}

// comparedWithInput reports whether the default diff compares the input
// name with its recorded input rather than the recorded output: when the
// outputs have no property of that name or none were recorded.
func (h *typedResource[I, O]) comparedWithInput(name string, oldOutputs resource.Object) bool {
	return !h.outputs.has(name) || oldOutputs == nil
}

func (h *typedResource[I, O]) create(c call, req CreateRequest) (CreateResponse, error) {
	if req.Preview {
		return h.previewCreate(c, req)
	}
	in, err := decode[I](h.inputs, req.Inputs, "inputs")
	if err != nil {
		return CreateResponse{}, err
	}
	op := CreateOp[I]{URN: req.URN, Inputs: in, Timeout: timeoutOf(req.Timeout, req.Inputs, h.timeouts, "create"),
		Secrets: secretNames(req.Inputs)}
	ctx, release := c.context()
	defer release()
	res, err := h.impl.Create(ctx, op)
	if err != nil {
		return CreateResponse{}, h.partial(res.ID, res.Outputs, res.Secrets, req.Inputs, err)
	}
	if res.ID == "" {
		return CreateResponse{}, fmt.Errorf("Create of %s returned no ID; this is a bug in the provider: every created resource needs an ID", req.URN)
	}
	outs, err := h.encodeOutputs(res.Outputs, res.Secrets, req.Inputs)
	return CreateResponse{ID: res.ID, Outputs: withPrivate(outs, res.Private, nil)}, err
}

// partial turns a failure after acting into an InitError, so the resource
// is recorded; a failure before acting (no ID) is returned as it is.
func (h *typedResource[I, O]) partial(id string, outputs O, secrets []string, inputs resource.Object, err error) error {
	if id == "" {
		return err
	}
	outs, encErr := h.encodeOutputs(outputs, secrets, inputs)
	if encErr != nil {
		outs = nil
	}
	return &InitError{ID: id, Outputs: outs, Reasons: []string{err.Error()}}
}

func (h *typedResource[I, O]) previewCreate(c call, req CreateRequest) (CreateResponse, error) {
	if h.createPreviewer == nil {
		return CreateResponse{Outputs: h.previewOutputs(req.Inputs, nil)}, nil
	}
	in, err := decode[I](h.inputs, req.Inputs, "inputs")
	if err != nil {
		return CreateResponse{}, err
	}
	op := CreateOp[I]{URN: req.URN, Inputs: in, Timeout: req.Timeout, Preview: true,
		Unknowns: unknownNames(req.Inputs), Secrets: secretNames(req.Inputs)}
	ctx, release := c.context()
	defer release()
	res, err := h.createPreviewer.PreviewCreate(ctx, op)
	if err != nil {
		return CreateResponse{}, err
	}
	outs, err := h.previewed(res.Outputs, res.Unknowns, res.Secrets, req.Inputs)
	return CreateResponse{Outputs: outs}, err
}

// previewOutputs is the default preview: outputs named like an input take
// its new value; in an update (olds set) an output tagged stable keeps its
// recorded value; the rest are unknown (the SDK cannot know which outputs
// an update leaves alone); an unknown tagged secret is a secret unknown.
// Write-only inputs are never outputs.
func (h *typedResource[I, O]) previewOutputs(news, olds resource.Object) resource.Object {
	outs := make(resource.Object, len(h.outputs.fields))
	for _, name := range h.outputs.names() {
		old, hasOld := olds[name]
		switch v, ok := news[name]; {
		case h.writeOnly(name):
		case !h.inputs.has(name) && h.outputs.byName[name].tag.stable && hasOld:
			outs[name] = old
		case !h.inputs.has(name) && h.outputs.byName[name].tag.secret:
			outs[name] = resource.MakeSecret(resource.Unknown())
		case !h.inputs.has(name):
			outs[name] = resource.Unknown()
		case ok && !v.IsNull():
			outs[name] = v
		}
	}
	return outs
}

// previewed encodes a previewer's outputs, making unknown the outputs it
// named and those mirroring unknown inputs.
func (h *typedResource[I, O]) previewed(o O, unknowns, secrets []string, news resource.Object) (resource.Object, error) {
	outs, err := h.encodeOutputs(o, secrets, news)
	if err != nil {
		return nil, err
	}
	for _, name := range unknowns {
		outs[name] = resource.Sticky(resource.Unknown(), outs[name])
	}
	for _, name := range unknownNames(news) {
		if h.outputs.has(name) && !h.writeOnly(name) {
			outs[name] = news[name]
		}
	}
	return outs, nil
}

// writeOnly reports whether name is a write-only input, which is never an
// output.
func (h *typedResource[I, O]) writeOnly(name string) bool {
	f, ok := h.inputs.byName[name]
	return ok && f.tag.writeOnly
}

func (h *typedResource[I, O]) read(c call, req ReadRequest) (ReadResponse, error) {
	imp := len(req.Inputs) == 0 && len(req.State) == 0
	if h.reader == nil {
		if imp {
			return ReadResponse{}, fmt.Errorf("resource type %s cannot be imported: the provider does not implement Read for it", h.token)
		}
		return ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.State}, nil
	}
	op := ReadOp[I, O]{URN: req.URN, ID: req.ID, Import: imp, Secrets: secretNames(req.Inputs, req.State),
		Private: privateOf(req.State)}
	var err error
	if op.Inputs, op.State, err = h.decodeBoth(req.Inputs, req.State); err != nil {
		return ReadResponse{}, err
	}
	ctx, release := c.context()
	defer release()
	res, err := h.reader.Read(ctx, op)
	if err != nil || res.ID == "" {
		return ReadResponse{}, err
	}
	ins, err := encode(h.inputs, res.Inputs, "inputs read")
	if err != nil {
		return ReadResponse{}, err
	}
	outs, err := h.encodeOutputs(res.Outputs, res.Secrets, req.Inputs, req.State)
	return ReadResponse{ID: res.ID, Inputs: markSecrets(ins, req.Inputs), Outputs: withPrivate(outs, res.Private, req.State)}, err
}

func (h *typedResource[I, O]) update(c call, req UpdateRequest) (UpdateResponse, error) {
	switch {
	case req.Preview && h.updatePreviewer == nil:
		return UpdateResponse{Outputs: h.previewOutputs(req.News, req.OldOutputs)}, nil
	case !req.Preview && h.updater == nil:
		return UpdateResponse{Outputs: h.mirrorInputs(req.OldOutputs, req.News)}, nil
	}
	op, err := h.updateOp(req)
	if err != nil {
		return UpdateResponse{}, err
	}
	ctx, release := c.context()
	defer release()
	if req.Preview {
		res, err := h.updatePreviewer.PreviewUpdate(ctx, op)
		if err != nil {
			return UpdateResponse{}, err
		}
		outs, err := h.previewed(res.Outputs, res.Unknowns, res.Secrets, req.News)
		return UpdateResponse{Outputs: outs}, err
	}
	res, err := h.updater.Update(ctx, op)
	if err != nil {
		if reflect.ValueOf(&res.Outputs).Elem().IsZero() {
			return UpdateResponse{}, err
		}
		return UpdateResponse{}, h.partial(req.ID, res.Outputs, res.Secrets, req.News, err)
	}
	outs, err := h.encodeOutputs(res.Outputs, res.Secrets, req.News)
	return UpdateResponse{Outputs: withPrivate(outs, res.Private, req.OldOutputs)}, err
}

func (h *typedResource[I, O]) updateOp(req UpdateRequest) (UpdateOp[I, O], error) {
	op := UpdateOp[I, O]{URN: req.URN, ID: req.ID, Timeout: timeoutOf(req.Timeout, req.News, h.timeouts, "update"),
		IgnoreChanges: req.IgnoreChanges,
		Preview:       req.Preview, Unknowns: unknownNames(req.News), Secrets: secretNames(req.News),
		Private: privateOf(req.OldOutputs)}
	var err error
	if op.OldInputs, op.OldOutputs, err = h.decodeBoth(req.OldInputs, req.OldOutputs); err != nil {
		return op, err
	}
	op.News, err = decode[I](h.inputs, req.News, "inputs")
	return op, err
}

// mirrorInputs is Update for a resource without an Updater: the recorded
// outputs with the outputs named like inputs set to the new inputs.
func (h *typedResource[I, O]) mirrorInputs(olds, news resource.Object) resource.Object {
	outs := olds.Copy()
	if outs == nil {
		outs = resource.Object{}
	}
	for _, name := range h.inputs.names() {
		if !h.outputs.has(name) || h.writeOnly(name) {
			continue
		}
		if v, ok := news[name]; ok && !v.IsNull() {
			outs[name] = v
		} else {
			delete(outs, name)
		}
	}
	return outs
}

func (h *typedResource[I, O]) delete(c call, req DeleteRequest) error {
	if h.deleter == nil {
		return nil
	}
	op := DeleteOp[I, O]{URN: req.URN, ID: req.ID, Timeout: timeoutOf(req.Timeout, req.Inputs, h.timeouts, "delete"),
		Private: privateOf(req.Outputs)}
	var err error
	if op.Inputs, op.Outputs, err = h.decodeBoth(req.Inputs, req.Outputs); err != nil {
		return err
	}
	ctx, release := c.context()
	defer release()
	return h.deleter.Delete(ctx, op)
}

func (h *typedResource[I, O]) decodeBoth(inputs, outputs resource.Object) (I, O, error) {
	in, err := decode[I](h.inputs, inputs, "recorded inputs")
	if err != nil {
		var o O
		return in, o, err
	}
	out, err := decode[O](h.outputs, outputs, "recorded outputs")
	return in, out, err
}

// encodeOutputs encodes o, marking secret the outputs the author named and
// every output named like a secret property of from (a value from a secret
// stays secret).
func (h *typedResource[I, O]) encodeOutputs(o O, secrets []string, from ...resource.Object) (resource.Object, error) {
	outs, err := encode(h.outputs, o, "outputs")
	if err != nil {
		return nil, err
	}
	for _, name := range h.writeOnlyNames {
		delete(outs, name)
	}
	return markSecrets(markNamed(outs, secrets), from...), nil
}

func decode[T any](c *structCodec, o resource.Object, what string) (T, error) {
	var v T
	err := decodeInto(c, o, &v, what)
	return v, err
}

// decodeInto decodes o into *dst, which is zero. Reflection moves what
// dst points to onto the heap, so decoding into the fields of one op
// costs one allocation where decode costs one per struct.
func decodeInto[T any](c *structCodec, o resource.Object, dst *T, what string) error {
	if err := c.decodeObject(o, reflect.ValueOf(dst).Elem()); err != nil {
		return fmt.Errorf("reading %s: %w", what, err)
	}
	return nil
}

func encode[T any](c *structCodec, v T, what string) (resource.Object, error) {
	o, err := c.encodeObject(reflect.ValueOf(&v).Elem())
	if err != nil {
		return nil, fmt.Errorf("converting %s: %w", what, err)
	}
	return o, nil
}
