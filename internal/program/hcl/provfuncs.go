package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// providerFuncPrefix starts a provider-defined function's name:
// provider::time::rfc3339_parse.
const providerFuncPrefix = "provider::"

// providerFuncCalls records the provider-defined functions a file calls,
// so that its module's evaluation context offers them.
func providerFuncCalls(m *Module, body hcl.Body) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	hclsyntax.VisitAll(b, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(call.Name, providerFuncPrefix) {
			if m.providerFuncs == nil {
				m.providerFuncs = map[string]bool{}
			}
			m.providerFuncs[call.Name] = true
		}
		return nil
	})
}

// withProviderFuncs adds a module instance's provider-defined functions
// to the built-in ones.
func (r *run) withProviderFuncs(inst *modInst, fns map[string]function.Function) map[string]function.Function {
	if len(inst.mod.providerFuncs) == 0 {
		return fns
	}
	out := make(map[string]function.Function, len(fns)+len(inst.mod.providerFuncs))
	for k, f := range fns {
		out[k] = f
	}
	for name := range inst.mod.providerFuncs {
		parts := strings.Split(strings.TrimPrefix(name, providerFuncPrefix), "::")
		if len(parts) == 2 {
			out[name] = r.providerFunc(inst, parts[0], parts[1])
		}
	}
	return out
}

// providerFunc calls function fn of the provider a module instance knows
// by local name, through the engine's Invoke. A call with an unknown
// argument is unknown; sensitive arguments make the result sensitive.
func (r *run) providerFunc(inst *modInst, local, fn string) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true},
		Type:     function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			pos := make([]resource.Value, len(args))
			marked := false
			for i, a := range args {
				v, marks := a.UnmarkDeep()
				marked = marked || len(marks) > 0
				if !v.IsWhollyKnown() {
					return cty.DynamicVal, nil
				}
				pos[i] = fromCty(v)
			}
			res, err := r.mon.Invoke(r.ctx, r.funcRequest(inst, local, fn, pos))
			if err != nil {
				return cty.NilVal, fmt.Errorf("provider::%s::%s failed: %w", local, fn, err)
			}
			out := toCty(res["result"])
			if marked {
				out = out.Mark(sensitive)
			}
			return out, nil
		},
	})
}

// funcRequest is the engine's request for a provider-defined function:
// the provider configuration the module has for the local name, else
// the default provider at the required version.
func (r *run) funcRequest(inst *modInst, local, fn string, pos []resource.Value) engine.InvokeRequest {
	req := engine.InvokeRequest{Token: local + ":index:" + fn, Args: resource.Object{engine.PositionalArgs: resource.NewArray(pos...)}}
	inst.mu.Lock()
	ref, ok := inst.providers[local]
	inst.mu.Unlock()
	if ok {
		req.Provider = ref
		return req
	}
	_, req.Version = r.required(inst.mod, local)
	return req
}
