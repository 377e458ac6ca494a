package hcl

import "github.com/plinth-iac/plinth/sdk/resource"

// keepSecretPaths makes secret, in a data source's (or ephemeral
// resource's) result, what its arguments held secret at the same paths,
// as terraform marks a read's result with its configuration's marks. The
// rest of the result stays as the provider returned it: the provider
// adapter has already made secret what its schema calls sensitive, so an
// attribute computed from a sensitive argument (tls_public_key's
// public_key_openssh from private_key_pem) is not sensitive unless the
// schema says so.
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
