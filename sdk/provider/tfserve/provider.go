package tfserve

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// validateConfig checks the provider configuration.
func (c *core) validateConfig(ctx context.Context, config tftypes.Value) diags {
	cfg, err := inputsOf(c.m.config, config)
	if err != nil {
		return diags{errorDiag("ValidateProviderConfig", "", err)}
	}
	resp, err := c.p.CheckConfig(ctx, provider.CheckRequest{News: cfg})
	if err != nil {
		return diags{errorDiag("CheckConfig", "", err)}
	}
	return append(deprecationDiags(cfg, c.m.config), failureDiags(resp.Failures, c.m.config, "provider "+c.m.name)...)
}

// configure checks and applies the provider configuration; with unknown
// values (a plan before their resources exist) it is a preview.
func (c *core) configure(ctx context.Context, config tftypes.Value) diags {
	cfg, err := inputsOf(c.m.config, config)
	if err != nil {
		return diags{errorDiag("ConfigureProvider", "", err)}
	}
	checked, err := c.p.CheckConfig(ctx, provider.CheckRequest{News: cfg})
	if err != nil {
		return diags{errorDiag("CheckConfig", "", err)}
	}
	if len(checked.Failures) > 0 {
		return failureDiags(checked.Failures, c.m.config, "provider "+c.m.name)
	}
	preview := resource.NewObject(checked.Inputs).ContainsUnknowns()
	if _, err := c.p.Configure(ctx, provider.ConfigureRequest{Inputs: checked.Inputs, Preview: preview}); err != nil {
		return diags{errorDiag("Configure", "provider "+c.m.name, err)}
	}
	c.mu.Lock()
	c.configured = true
	c.mu.Unlock()
	return nil
}

// stop cancels the provider's work in flight.
func (c *core) stop(ctx context.Context) string {
	if _, err := c.p.Cancel(ctx, provider.CancelRequest{}); err != nil {
		return err.Error()
	}
	return ""
}

func (c *core) dataSource(name string) (*functionModel, diags) {
	f, ok := c.m.data[name]
	if !ok {
		return nil, diags{{summary: "Unsupported data source",
			detail: fmt.Sprintf("Provider %s has no data source %q.", c.m.name, name)}}
	}
	return f, nil
}

// validateData checks a data source's arguments, when they are known.
func (c *core) validateData(ctx context.Context, name string, config tftypes.Value) diags {
	f, ds := c.dataSource(name)
	if ds != nil || !config.IsFullyKnown() {
		return ds
	}
	args, err := inputsOf(f.dataObj, config)
	if err != nil {
		return diags{errorDiag("ValidateDataResourceConfig", name, err)}
	}
	c.ensureValidatable(ctx)
	resp, err := c.p.Invoke(ctx, provider.InvokeRequest{Token: f.token, Args: args})
	if err != nil {
		return deprecationDiags(args, f.dataObj) // the read reports the error, once configured
	}
	return append(deprecationDiags(args, f.dataObj), failureDiags(resp.Failures, f.dataObj, name)...)
}

// readData calls the SDK function behind a data source: its arguments
// and result are the data source's attributes.
func (c *core) readData(ctx context.Context, name string, config tftypes.Value) (tftypes.Value, diags) {
	f, ds := c.dataSource(name)
	if ds != nil {
		return tftypes.Value{}, ds
	}
	args, err := inputsOf(f.dataObj, config)
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("ReadDataSource", name, err)}
	}
	resp, err := c.p.Invoke(ctx, provider.InvokeRequest{Token: f.token, Args: args})
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("Invoke", name, err)}
	}
	if len(resp.Failures) > 0 {
		return tftypes.Value{}, failureDiags(resp.Failures, f.dataObj, name)
	}
	out := args.Copy()
	for k, v := range resp.Return {
		out[k] = v
	}
	v, err := objectToTF(out, f.dataObj, tftypes.NewAttributePath())
	if err != nil {
		return tftypes.Value{}, diags{errorDiag("ReadDataSource", name, err)}
	}
	return v, nil
}

// params are a function's parameters: its required arguments, then its
// optional ones (which may be null), each group in name order; the
// variadic argument is not one of them.
func (f *functionModel) params() []*attr {
	var req, opt []*attr
	for _, a := range f.args.attrs {
		if a.variadic {
			continue
		}
		if a.required {
			req = append(req, a)
		} else {
			opt = append(opt, a)
		}
	}
	return append(req, opt...)
}

// variadic returns the function's variadic argument, a list, or nil.
func (f *functionModel) variadic() *attr {
	for _, a := range f.args.attrs {
		if a.variadic && a.t.kind == kindList {
			return a
		}
	}
	return nil
}

// argType is the Terraform type of the i-th argument of a call.
func (f *functionModel) argType(i int, params []*attr) tftypes.Type {
	if i < len(params) {
		return params[i].t.tftype()
	}
	if v := f.variadic(); v != nil {
		return v.t.elem.tftype()
	}
	return tftypes.DynamicPseudoType
}

// withVariadic puts the arguments after the fixed parameters into the
// variadic argument's list.
func (f *functionModel) withVariadic(obj resource.Object, extra []tftypes.Value) *funcError {
	v := f.variadic()
	if v == nil || len(extra) == 0 {
		return nil
	}
	list, err := fromTF(tftypes.NewValue(v.t.tftype(), extra), v.t, false)
	if err != nil {
		return &funcError{text: err.Error(), arg: -1}
	}
	obj[v.name] = list
	return nil
}

// funcError is a CallFunction failure; arg is the argument at fault, or
// -1.
type funcError struct {
	text string
	arg  int
}

// callFunction calls an SDK function with positional arguments and
// returns its result object.
func (c *core) callFunction(ctx context.Context, name string, args []tftypes.Value) (tftypes.Value, *funcError) {
	f, ok := c.m.functions[name]
	if !ok {
		return tftypes.Value{}, &funcError{text: fmt.Sprintf("provider %s has no function %q", c.m.name, name), arg: -1}
	}
	params := f.params()
	if len(args) < len(params) || (len(args) > len(params) && f.variadic() == nil) {
		return tftypes.Value{}, &funcError{text: fmt.Sprintf("%s takes %d arguments, got %d", name, len(params), len(args)), arg: -1}
	}
	obj := resource.Object{}
	if ferr := f.withVariadic(obj, args[len(params):]); ferr != nil {
		return tftypes.Value{}, ferr
	}
	for i, a := range params {
		v, err := fromTF(args[i], a.t, false)
		if err != nil {
			return tftypes.Value{}, &funcError{text: err.Error(), arg: i}
		}
		if !v.IsNull() {
			obj[a.name] = v
		}
	}
	c.ensureValidatable(ctx) // Terraform calls functions on unconfigured providers
	resp, err := c.p.Invoke(ctx, provider.InvokeRequest{Token: f.token, Args: obj})
	if err != nil {
		return tftypes.Value{}, &funcError{text: errorDiag("Invoke", name, err).detail, arg: -1}
	}
	if len(resp.Failures) > 0 {
		return tftypes.Value{}, failureError(resp.Failures[0], params)
	}
	v, err := objectToTF(resp.Return, f.result, tftypes.NewAttributePath())
	if err != nil {
		return tftypes.Value{}, &funcError{text: err.Error(), arg: -1}
	}
	return v, nil
}

func failureError(fl provider.CheckFailure, params []*attr) *funcError {
	for i, a := range params {
		if fl.Property == a.name {
			return &funcError{text: fmt.Sprintf("%s: %s", a.tf, fl.Reason), arg: i}
		}
	}
	return &funcError{text: fl.String(), arg: -1}
}
