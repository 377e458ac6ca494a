package provisioner

import (
	"fmt"
	"sort"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// plain returns v with its secret marks removed: a provisioner's command
// may use a secret, and its output is where the user sees it.
func plain(v resource.Value) resource.Value {
	u, _ := v.Unsecret()
	return u
}

// str reads an optional string property.
func str(cfg resource.Object, key string) (string, error) {
	v := plain(cfg[key])
	switch v.Kind() {
	case resource.NullKind:
		return "", nil
	case resource.StringKind:
		return v.Str(), nil
	}
	return "", fmt.Errorf("%q must be a string, not %s", key, v.Kind())
}

// strList reads an optional list of strings.
func strList(cfg resource.Object, key string) ([]string, error) {
	v := plain(cfg[key])
	if v.IsNull() {
		return nil, nil
	}
	if v.Kind() != resource.ArrayKind {
		return nil, fmt.Errorf("%q must be a list of strings, not %s", key, v.Kind())
	}
	var out []string
	for i, e := range v.Array() {
		e = plain(e)
		if e.Kind() != resource.StringKind {
			return nil, fmt.Errorf("%s[%d] must be a string, not %s", key, i, e.Kind())
		}
		out = append(out, e.Str())
	}
	return out, nil
}

// strMap reads an optional map of strings as KEY=VALUE pairs, sorted.
func strMap(cfg resource.Object, key string) ([]string, error) {
	v := plain(cfg[key])
	if v.IsNull() {
		return nil, nil
	}
	if v.Kind() != resource.ObjectKind {
		return nil, fmt.Errorf("%q must be a map of strings, not %s", key, v.Kind())
	}
	var out []string
	for k, e := range v.Object() {
		e = plain(e)
		if e.Kind() != resource.StringKind && e.Kind() != resource.NumberKind && e.Kind() != resource.BoolKind {
			return nil, fmt.Errorf("%s.%s must be a string, not %s", key, k, e.Kind())
		}
		out = append(out, k+"="+scalar(e))
	}
	sort.Strings(out)
	return out, nil
}

func scalar(v resource.Value) string {
	if v.Kind() == resource.StringKind {
		return v.Str()
	}
	return v.String()
}

// unknownKeys reports properties a provisioner does not take.
func unknownKeys(cfg resource.Object, known ...string) []provider.CheckFailure {
	ok := map[string]bool{}
	for _, k := range known {
		ok[k] = true
	}
	var fs []provider.CheckFailure
	for k := range cfg {
		if !ok[k] {
			fs = append(fs, provider.CheckFailure{Property: k, Reason: fmt.Sprintf("unknown property %q; this provisioner takes %v", k, known)})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Property < fs[j].Property })
	return fs
}
