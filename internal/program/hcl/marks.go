package hcl

import (
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// resultMarks makes a resource's or data source's result secret where
// terraform marks it sensitive: where its provider's schema says (props,
// at any depth of nested attributes and blocks) and where its arguments
// were secret (keepSecretPaths). What else the engine or the provider
// adapter made secret (an output named like a secret argument, the whole
// of an argument holding a secret, terraform_data's output) is made
// plain, as terraform leaves it. Without a schema the result keeps the
// engine's secrets, and gains the arguments'.
func resultMarks(out resource.Object, props map[string]schema.Property, args resource.Object) resource.Object {
	if props == nil {
		return keepSecretPaths(out, args)
	}
	plain, _ := resource.NewObject(out).Unsecret()
	return keepSecretPaths(secretBySchema(plain.Object(), props), args)
}

// secretBySchema makes secret the attributes props call sensitive, null
// ones included, as terraform marks them whatever their value.
func secretBySchema(o resource.Object, props map[string]schema.Property) resource.Object {
	out := o.Copy()
	for name, p := range props {
		v, ok := out[name]
		if !ok {
			continue
		}
		if p.Secret {
			out[name] = resource.MakeSecret(v)
			continue
		}
		out[name] = secretByType(v, p.Type)
	}
	return out
}

// secretByType descends into a value of a nested type: an object's
// properties, a list's or a map's elements.
func secretByType(v resource.Value, t schema.Type) resource.Value {
	switch {
	case t.Kind == schema.TypeObject && len(t.Properties) > 0 && v.Kind() == resource.ObjectKind:
		return resource.NewObject(secretBySchema(v.Object(), t.Properties))
	case t.Kind == schema.TypeArray && t.Elem != nil && v.Kind() == resource.ArrayKind:
		elems := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = secretByType(e, *t.Elem)
		}
		return resource.NewArray(elems...)
	case t.Kind == schema.TypeMap && t.Elem != nil && v.Kind() == resource.ObjectKind:
		out := resource.Object{}
		for k, e := range v.Object() {
			out[k] = secretByType(e, *t.Elem)
		}
		return resource.NewObject(out)
	}
	return v
}

// keepSecretPaths makes secret, in a resource's, data source's or
// ephemeral resource's result, what its arguments held secret at the
// same paths, as terraform marks a result with its configuration's
// marks. The rest of the result stays as it is: an attribute computed
// from a sensitive argument (tls_public_key's public_key_openssh from
// private_key_pem) is not sensitive unless the schema says so.
func keepSecretPaths(out, args resource.Object) resource.Object {
	if !resource.NewObject(args).ContainsSecrets() {
		return out
	}
	res := out.Copy()
	for k, a := range args {
		if v, ok := res[k]; ok {
			res[k] = secretLike(v, a)
		}
	}
	return res
}

// secretLike makes v secret where arg, its argument, is: the whole of v
// when arg is a secret, else the parts of v at the paths arg holds
// secrets at. Where their shapes part (a set the provider reordered, an
// argument the provider turned into something else) and arg holds a
// secret below, the whole of v is made secret: more, never less.
func secretLike(v, arg resource.Value) resource.Value {
	switch {
	case !arg.ContainsSecrets() || v.IsSecret():
		return v
	case arg.IsSecret():
		return resource.MakeSecret(v)
	case arg.Kind() == resource.ObjectKind && v.Kind() == resource.ObjectKind:
		return resource.NewObject(keepSecretPaths(v.Object(), arg.Object()))
	case arg.Kind() == resource.ArrayKind && v.Kind() == resource.ArrayKind && len(arg.Array()) == len(v.Array()):
		elems := make([]resource.Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = secretLike(e, arg.Array()[i])
		}
		return resource.NewArray(elems...)
	}
	return resource.MakeSecret(v)
}
