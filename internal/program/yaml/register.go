package yaml

import (
	"errors"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// registration evaluates a resource's properties and options into the
// request the engine gets. Every node it depends on has settled.
func (r *run) registration(i int) (engine.Registration, error) {
	d := r.p.nodes[i].res
	inputs, err := r.inputs(d)
	if err != nil {
		return engine.Registration{}, err
	}
	reg := engine.Registration{
		Type: d.token, Name: d.name, Custom: !d.component, Inputs: inputs,
		Version: d.opts.version, PluginSource: d.opts.pluginSource,
		IgnoreChanges: d.opts.ignoreChanges, ReplaceOnChanges: d.opts.replaceOnChanges,
		CustomTimeouts: d.opts.timeouts,
		Aliases:        d.opts.aliases,
		Dependencies:   r.urns(d.allDeps),
		Provider:       r.provider(d),
	}
	if len(d.propDeps) > 0 {
		reg.PropertyDependencies = make(map[string][]resource.URN, len(d.propDeps))
		for k, deps := range d.propDeps {
			reg.PropertyDependencies[k] = r.urns(deps)
		}
	}
	if rf := d.opts.parent; rf != nil {
		reg.Parent = r.state[r.p.index[rf.root]].registered().URN
	}
	if d.get != nil {
		if err := r.readID(d, &reg); err != nil {
			return engine.Registration{}, err
		}
	}
	return reg, r.options(d, &reg)
}

// inputs evaluates the properties, reporting every failure. A provider
// from the providers block starts from the stack's PKG:KEY config.
func (r *run) inputs(d *resourceDecl) (resource.Object, error) {
	inputs := make(resource.Object, len(d.props))
	if d.fromBlock {
		inputs = r.p.ProviderConfig(r.config, d.pkg)
	}
	var errs []error
	for _, pr := range d.props {
		v, err := r.eval(pr.val)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		inputs[pr.key] = v
	}
	return inputs, errors.Join(errs...)
}

func (r *run) urns(nodes []int) []resource.URN {
	if len(nodes) == 0 {
		return nil
	}
	out := make([]resource.URN, len(nodes))
	for i, j := range nodes {
		out[i] = r.state[j].registered().URN
	}
	return out
}

// provider is the explicit provider reference for a resource: the one it
// names, or its package's providers-block provider.
func (r *run) provider(d *resourceDecl) string {
	if d.component || program.IsProviderType(d.token) {
		return ""
	}
	if rf := d.opts.provider; rf != nil {
		return r.state[r.p.index[rf.root]].registered().ProviderRef
	}
	if j, ok := r.p.defaultProviders[d.pkg]; ok {
		return r.state[j].registered().ProviderRef
	}
	return ""
}

// options evaluates the options that may be expressions.
func (r *run) options(d *resourceDecl, reg *engine.Registration) error {
	var errs []error
	for _, o := range []struct {
		e   *expr
		dst *bool
	}{{d.opts.protect, &reg.Protect}, {d.opts.retainOnDelete, &reg.RetainOnDelete}, {d.opts.deleteBeforeReplace, &reg.DeleteBeforeReplace}} {
		v, err := r.option(o.e, resource.BoolKind)
		*o.dst = v.Bool()
		errs = append(errs, err)
	}
	v, err := r.option(d.opts.importID, resource.StringKind)
	reg.ImportID = v.Str()
	provs, perr := r.provisioners(d)
	reg.Provisioners = provs
	return errors.Join(append(errs, err, perr)...)
}

// option evaluates an option; it must be known and of the given kind.
func (r *run) option(e *expr, kind resource.Kind) (resource.Value, error) {
	if e == nil {
		return resource.Null(), nil
	}
	v, err := r.eval(e)
	if err != nil {
		return resource.Value{}, err
	}
	v = v.SecretElement()
	if v.ContainsUnknowns() {
		return resource.Value{}, r.fail(e, "Option not known", "%s depends on a value that is not known until an earlier resource is created, but options must be known before the resource registers. Use config or literal values.", e.where)
	}
	if v.Kind() != kind && !v.IsNull() {
		return resource.Value{}, r.fail(e, "Invalid option", "%s must be a %s, not %s.", e.where, kind, describeValue(v))
	}
	return v, nil
}
