package yaml

import (
	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var invokeKeys = []string{"function", "arguments", "return", "options"}

// parseInvoke checks fn::invoke's argument:
// {function: TOKEN, arguments: {...}, return: NAME, options: {provider, version}}.
func (r *reader) parseInvoke(n *yaml.Node, where string, depth int) *invokeSpec {
	entries, ok := r.mapping(n, where, "The argument of fn::invoke")
	if !ok {
		return nil
	}
	spec, fnAt, good := &invokeSpec{}, at(n), true
	for _, en := range entries {
		p := joinPath(where, en.key)
		switch en.key {
		case "function":
			spec.token, spec.pkg, good = r.invokeToken(en, p, good)
			fnAt = en.at
		case "arguments":
			spec.args = r.parseExpr(en.value, p, depth+1)
			good = good && spec.args != nil
		case "return":
			spec.ret, ok = r.str(en.value, p, "return")
			good = good && ok
		case "options":
			good = r.invokeOptions(en.value, p, spec) && good
		default:
			r.errorf(en.at, p, "Unknown field", "fn::invoke has no field %q.%s Its fields are %s.", en.key, suggest(en.key, invokeKeys), quoteList(invokeKeys, 10))
			good = false
		}
	}
	if good && spec.token == "" {
		r.errorf(fnAt, where, "Missing function", "fn::invoke needs a function token: fn::invoke: {function: TOKEN, arguments: {...}}.")
		return nil
	}
	if !good {
		return nil
	}
	spec.at, spec.where = fnAt, where
	return spec
}

func (r *reader) invokeToken(en entry, p string, good bool) (string, string, bool) {
	s, ok := r.str(en.value, p, "function")
	if !ok {
		return "", "", false
	}
	token, pkg, err := program.NormalizeFunction(s)
	if err != nil || program.IsProviderType(token) {
		r.errorf(at(en.value), p, "Invalid function token", "%q is not a function token: write package:module:function, or a Terraform data source name such as local_file.", s)
		return "", "", false
	}
	return token, pkg, good
}

func (r *reader) invokeOptions(n *yaml.Node, where string, spec *invokeSpec) bool {
	entries, ok := r.mapping(n, where, "The options of fn::invoke")
	for _, en := range entries {
		p := joinPath(where, en.key)
		switch en.key {
		case "provider":
			spec.provider = r.resourceRef(en.value, p, "provider")
			ok = ok && spec.provider != nil
		case "version":
			var good bool
			spec.version, good = r.str(en.value, p, "version")
			ok = ok && good
		default:
			r.errorf(en.at, p, "Unknown option", "fn::invoke has no option %q. Its options are \"provider\" and \"version\".", en.key)
			ok = false
		}
	}
	return ok
}

// invoke calls a provider function. Unknown arguments (in a preview) make
// the result unknown without calling, and so does an argument that depends
// on a resource yet to be created or replaced; secret arguments are passed
// plain, since functions take no secrets, and make the result secret.
func (r *run) invoke(e *expr) (resource.Value, error) {
	spec := e.call()
	args := resource.NewObject(nil)
	if spec.args != nil {
		v, err := r.eval(spec.args)
		if err != nil {
			return resource.Value{}, err
		}
		args = v
	}
	if args.ContainsUnknowns() || r.dependsOnPending(spec.args) {
		return resource.Sticky(resource.Unknown(), args), nil
	}
	plain, _ := args.Unsecret()
	if plain.Kind() != resource.ObjectKind && !plain.IsNull() {
		return resource.Value{}, r.fail(e, "Invalid function argument", "The arguments of fn::invoke must be a mapping, not %s.", describeValue(args))
	}
	res, err := r.mon.Invoke(r.ctx, engine.InvokeRequest{
		Token: spec.token, Args: plain.Object(), Provider: r.invokeProvider(spec), Version: spec.version,
	})
	if err != nil {
		return resource.Value{}, r.fail(e, "Function call failed", "fn::invoke of %s failed: %s.", spec.token, err)
	}
	out := resource.NewObject(res)
	if spec.ret != "" {
		v, ok := res[spec.ret]
		if !ok {
			return resource.Value{}, r.fail(e, "Unknown function result",
				"%s returned no property %q.%s It returned %s.", spec.token, spec.ret, suggest(spec.ret, res.Keys()), quoteList(res.Keys(), 20))
		}
		out = v
	}
	return resource.Sticky(out, args), nil
}

// dependsOnPending reports whether the arguments refer, directly or
// through variables, to a custom resource whose ID is unknown: one a
// preview is to create or replace. Like Terraform, which reads such a data
// source during apply, plinth does not call the function then: it would
// read a world in which the resource does not exist yet (a local_file data
// source reading the file a local_file resource is to write).
func (r *run) dependsOnPending(args *expr) bool {
	pending := false
	check := func(j int) {
		n := r.p.nodes[j]
		if n.kind == nodeResource && !n.res.component && r.state[j].registered().ID.ContainsUnknowns() {
			pending = true
		}
	}
	args.refs(func(rf *ref) {
		if j, ok := r.p.index[rf.root]; ok {
			check(j)
			for _, k := range r.p.nodes[j].resDeps {
				check(k)
			}
		}
	})
	return pending
}

// invokeProvider is the explicit provider for a call: the one it names, or
// the providers-block provider of its package.
func (r *run) invokeProvider(spec *invokeSpec) string {
	if spec.provider != nil {
		return r.state[r.p.index[spec.provider.root]].registered().ProviderRef
	}
	if i, ok := r.p.defaultProviders[spec.pkg]; ok {
		return r.state[i].registered().ProviderRef
	}
	return ""
}
