package tfplugin

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Invoke implements provider.Provider for data sources (ReadDataSource; the
// token names the data source, local_file as local:index:local_file) and
// provider-defined functions (CallFunction; arguments by parameter name,
// the result under "result").
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	name := typeName(req.Token)
	if !p.configured.Load() {
		return provider.InvokeResponse{}, fmt.Errorf("invoke of %s: provider %s: %w", name, p.cfg.Name, errNotConfigured)
	}
	if s, ok := p.schemas.dataSources[name]; ok {
		t := target{name: name, s: s, ty: s.block.impliedType(), op: "read of data source " + name}
		return p.readData(ctx, t, req.Args)
	}
	if fn, ok := p.schemas.functions[name]; ok {
		return p.call(ctx, name, fn, req.Args)
	}
	return provider.InvokeResponse{}, fmt.Errorf("provider %s has no data source or function %s (token %s); check the name against the provider's documentation",
		p.cfg.Name, name, req.Token)
}

func (p *Provider) readData(ctx context.Context, t target, args resource.Object) (provider.InvokeResponse, error) {
	cb := configBuilder{strict: true}
	cfg := cb.root(t.s.block, args)
	if len(cb.failures) > 0 {
		return provider.InvokeResponse{Failures: cb.failures}, nil
	}
	dv, err := encode(cfg, t.ty)
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	diags, err := p.wire.validateDataConfig(ctx, t.name, dv)
	if err != nil {
		return provider.InvokeResponse{}, p.rpcError("ValidateDataResourceConfig for "+t.op, err)
	}
	if fs := p.failures("validation for "+t.op, diags); len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, nil
	}
	if !cfg.IsWhollyKnown() {
		// Not readable yet (a preview): what the provider computes is unknown.
		return provider.InvokeResponse{Return: t.outputs(unknownComputed(t.s.block, cfg), args)}, nil
	}
	resp, err := p.wire.readData(ctx, t.name, dv)
	if err != nil {
		return provider.InvokeResponse{}, p.rpcError("ReadDataSource for "+t.op, err)
	}
	if err := p.diagnose("ReadDataSource for "+t.op, resp.diags); err != nil {
		return provider.InvokeResponse{}, err
	}
	state, err := decode(resp.state, t.ty)
	if err != nil {
		return provider.InvokeResponse{}, fmt.Errorf("%s: provider %s returned an invalid state: %w", t.op, p.cfg.Name, err)
	}
	return provider.InvokeResponse{Return: t.outputs(state, args)}, nil
}

// unknownComputed is the configuration with every computed attribute it
// leaves null made unknown.
func unknownComputed(b *block, cfg cty.Value) cty.Value {
	attrs := map[string]cty.Value{}
	for name, v := range cfg.AsValueMap() {
		if a := b.attributes[name]; a != nil && a.computed && v.IsNull() {
			v = cty.UnknownVal(v.Type())
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs)
}

func (p *Provider) call(ctx context.Context, name string, fn *function, args resource.Object) (provider.InvokeResponse, error) {
	op := "call of function " + name
	values, failures := functionArgs(fn, args)
	if len(failures) > 0 {
		return provider.InvokeResponse{Failures: failures}, nil
	}
	resp, err := p.wire.callFunction(ctx, name, values)
	if err != nil {
		return provider.InvokeResponse{}, p.rpcError(op, err)
	}
	if resp.err != "" {
		if resp.argument >= 0 && int(resp.argument) < len(fn.params) {
			return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: fn.params[resp.argument].name, Reason: resp.err}}}, nil
		}
		return provider.InvokeResponse{}, fmt.Errorf("provider %s: %s failed: %s", p.cfg.Name, op, resp.err)
	}
	result, err := decode(resp.result, fn.returns)
	if err != nil {
		return provider.InvokeResponse{}, fmt.Errorf("provider %s: %s returned an invalid result: %w", p.cfg.Name, op, err)
	}
	return provider.InvokeResponse{Return: resource.Object{"result": fromCty(result)}}, nil
}

// functionArgs orders named arguments by the function's parameters; the
// variadic parameter takes a list.
func functionArgs(fn *function, args resource.Object) ([]dynamicValue, []provider.CheckFailure) {
	var out []dynamicValue
	var failures []provider.CheckFailure
	add := func(prm param, v resource.Value, path resource.PropertyPath) {
		c, err := toCty(v, prm.typ, path)
		if err == nil {
			var dv dynamicValue
			if dv, err = encode(c, prm.typ); err == nil {
				out = append(out, dv)
				return
			}
		}
		failures = append(failures, provider.CheckFailure{Property: path.String(), Reason: err.Error()})
	}
	if pos, ok := args[provider.PositionalArgs]; ok && len(args) == 1 {
		args = namedArgs(fn, pos.SecretElement().Array())
	}
	known := map[string]bool{}
	for _, prm := range fn.params {
		known[prm.name] = true
		add(prm, args[prm.name], resource.PropertyPath{prm.name})
	}
	if fn.variadic != nil {
		known[fn.variadic.name] = true
		for i, v := range args[fn.variadic.name].SecretElement().Array() {
			add(*fn.variadic, v, resource.PropertyPath{fn.variadic.name, i})
		}
	}
	for _, k := range args.Keys() {
		if !known[k] {
			failures = append(failures, provider.CheckFailure{Property: k, Reason: "the function has no such parameter"})
		}
	}
	return out, failures
}

// namedArgs names positional arguments by the function's parameters, the
// ones past them going to its variadic parameter.
func namedArgs(fn *function, pos []resource.Value) resource.Object {
	args := resource.Object{}
	for i, v := range pos {
		switch {
		case i < len(fn.params):
			args[fn.params[i].name] = v
		case fn.variadic != nil:
			args[fn.variadic.name] = resource.NewArray(append(args[fn.variadic.name].Array(), v)...)
		default:
			args[fmt.Sprintf("argument %d", i+1)] = v
		}
	}
	return args
}
