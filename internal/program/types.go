package program

import (
	"fmt"
	"strings"
	"unicode"
)

// ProviderTypePrefix starts the type token of every provider resource.
const ProviderTypePrefix = "pulumi:providers:"

// NormalizeType maps a resource type as a program writes it to its type
// token and the package whose provider manages it.
//
// A type with colons is a token: "plinth:random:Pet" belongs to package
// "plinth"; a provider resource "pulumi:providers:random" configures, and so
// belongs to, package "random". A Terraform type name without colons,
// "random_pet", maps to "random:index:random_pet" in package "random".
func NormalizeType(typ string) (token, pkg string, err error) {
	if !strings.Contains(typ, ":") {
		return terraformToken(typ)
	}
	if p, ok := strings.CutPrefix(typ, ProviderTypePrefix); ok {
		if !isIdent(p) {
			return "", "", fmt.Errorf("%q is not a provider type: write pulumi:providers:PACKAGE, with PACKAGE a name such as random", typ)
		}
		return typ, p, nil
	}
	if err := checkToken(typ); err != nil {
		return "", "", err
	}
	return typ, typ[:strings.Index(typ, ":")], nil
}

// terraformToken maps a Terraform type name such as random_pet.
func terraformToken(name string) (string, string, error) {
	pkg, rest, ok := strings.Cut(name, "_")
	if !ok || !isIdent(pkg) || rest == "" || !isIdent(name) {
		return "", "", fmt.Errorf("%q is neither a type token (package:module:Type, such as plinth:random:Pet) nor a Terraform type name (provider_type, such as random_pet)", name)
	}
	return pkg + ":index:" + name, pkg, nil
}

// checkToken checks package:[module:]Type. The module may hold "/" as in
// Pulumi's aws:s3/bucket:Bucket.
func checkToken(t string) error {
	parts := strings.Split(t, ":")
	bad := len(parts) < 2 || len(parts) > 3 || !isIdent(parts[0]) || !isIdent(parts[len(parts)-1])
	if len(parts) == 3 {
		for _, seg := range strings.Split(parts[1], "/") {
			bad = bad || !isIdent(seg)
		}
	}
	if bad {
		return fmt.Errorf("%q is not a type token: write package:module:Type (such as plinth:random:Pet), or a Terraform type name (such as random_pet)", t)
	}
	return nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || r == '_' || r == '-'))) {
			return false
		}
	}
	return s != ""
}

// IsPackageName reports whether s can name a package: a letter, then
// letters, digits, "_" or "-" (random, azure-native).
func IsPackageName(s string) bool { return isIdent(s) }

// IsProviderType reports whether a token is a provider resource's type.
func IsProviderType(token string) bool { return strings.HasPrefix(token, ProviderTypePrefix) }

// NormalizeFunction maps a function as a program writes it to its token
// and package, as NormalizeType does for types, and also accepts a
// Terraform data source whose name is its provider's (external, http):
// external is external:index:external, of package external.
func NormalizeFunction(fn string) (token, pkg string, err error) {
	if !strings.ContainsAny(fn, ":_") && isIdent(fn) {
		return fn + ":index:" + fn, fn, nil
	}
	return NormalizeType(fn)
}
