package yaml

import (
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A resource with get is read, not managed (Pulumi YAML's get, the `get`
// functions of Pulumi's SDKs): the engine reads the existing resource by
// its ID through its provider and records it as external
// (engine.Registration.ReadID), so other resources can use its outputs;
// plinth never creates, updates or deletes it. get.state, optional, is
// passed to the provider's Read as the resource's known state, as
// properties are for a managed resource; get and properties exclude each
// other.

var getKeys = []string{"id", "state"}

// parseGet reads a resource's get: {id, state}.
func (d *resourceDecl) parseGet(r *reader, f entry, where string) bool {
	d.get = &getDecl{at: f.at}
	entries, ok := r.mapping(f.value, where, "get")
	for _, en := range entries {
		w := joinPath(where, en.key)
		switch en.key {
		case "id":
			var good bool
			d.get.id, good = r.optionExpr(en.value, w, resource.StringKind)
			ok = ok && good
		case "state":
			d.props = parseProps(r, en.value, w)
			ok = ok && !r.over
		default:
			r.errorf(en.at, w, "Unknown field", "get has no field %q.%s Its fields are %s.", en.key, suggest(en.key, getKeys), quoteList(getKeys, 10))
			ok = false
		}
	}
	if ok && d.get.id == nil {
		r.errorf(f.at, where, "Missing get id", "%s has no id. Give the ID of the existing resource to read, such as \"id: my-bucket\" or \"id: ${bucketId}\" (a config key).", where)
		ok = false
	}
	return ok
}

// checkGet refuses what cannot go with get: properties (the state of a
// read goes under get.state), a component or provider, and options that
// only mean something for a resource plinth manages.
func (d *resourceDecl) checkGet(r *reader, propsAt *pos) bool {
	where := joinPath(d.where, "get")
	bad := func(at pos, what, fix string) bool {
		r.errorf(at, where, "Invalid get", "%s reads an existing resource with get, so it cannot have %s. %s", d.where, what, fix)
		return false
	}
	switch {
	case propsAt != nil:
		return bad(*propsAt, "properties", "Remove properties, or move what identifies the resource under get.state; to manage the resource, remove get instead.")
	case d.component:
		return bad(d.get.at, "component: true", "Only a custom resource can be read; remove component or get.")
	case program.IsProviderType(d.token):
		return bad(d.get.at, "a provider type", "A provider cannot be read; declare it with properties instead.")
	case d.opts.importID != nil:
		return bad(d.get.at, "the option import", "Remove get to adopt the resource and manage it (import), or remove import to only read it.")
	case len(d.opts.provisioners) > 0:
		return bad(d.get.at, "provisioners", "Provisioners run when plinth creates or deletes a resource, which it never does to one it reads; remove them.")
	}
	return true
}

// readID evaluates a get's id into the registration: UnknownID in a
// preview where it, or the state, depends on what is not created yet (a
// provider's Read is never handed unknown values).
func (r *run) readID(d *resourceDecl, reg *engine.Registration) error {
	e := d.get.id
	v, err := r.eval(e)
	if err != nil {
		return err
	}
	v = v.SecretElement()
	switch {
	case v.ContainsUnknowns() || resource.NewObject(reg.Inputs).ContainsUnknowns():
		reg.ReadID = engine.UnknownID
	case v.Kind() != resource.StringKind:
		return r.fail(e, "Invalid get id", "%s must be a string, not %s.", e.where, describeValue(v))
	case v.Str() == "":
		return r.fail(e, "Invalid get id", "%s is empty. Give the ID of the existing resource to read.", e.where)
	default:
		reg.ReadID = v.Str()
	}
	return nil
}
