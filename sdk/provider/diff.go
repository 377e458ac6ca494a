package provider

import (
	"sort"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// diffResponse fills in the summary fields of a response from a detailed
// diff: whether anything changed and the top-level keys changed and
// replaced.
func diffResponse(dd resource.DetailedDiff, deleteBeforeReplace bool) DiffResponse {
	if len(dd) == 0 {
		if dd == nil {
			dd = resource.DetailedDiff{}
		}
		return DiffResponse{Changes: DiffNone, DetailedDiff: dd}
	}
	changed, replaced := map[string]bool{}, map[string]bool{}
	for p, d := range dd {
		changed[topName(p)] = true
		if d.Replace {
			replaced[topName(p)] = true
		}
	}
	return DiffResponse{
		Changes:             DiffSome,
		ChangedKeys:         sortedKeys(changed),
		ReplaceKeys:         nilIfEmpty(sortedKeys(replaced)),
		DetailedDiff:        dd,
		DeleteBeforeReplace: deleteBeforeReplace && len(replaced) > 0,
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// topName returns the top-level property of a path in text form.
func topName(path string) string {
	p, err := resource.ParsePath(path)
	if err != nil || len(p) == 0 {
		return path
	}
	if s, ok := p[0].(string); ok {
		return s
	}
	return path
}

// withoutIgnored drops the changes at or under an ignoreChanges path.
func withoutIgnored(dd resource.DetailedDiff, ignore []resource.PropertyPath) resource.DetailedDiff {
	if len(ignore) == 0 {
		return dd
	}
	out := resource.DetailedDiff{}
	for p, d := range dd {
		if !ignored(p, ignore) {
			out[p] = d
		}
	}
	return out
}

func ignored(path string, ignore []resource.PropertyPath) bool {
	p, err := resource.ParsePath(path)
	if err != nil {
		return false
	}
	for _, ig := range ignore {
		if ig.Contains(p) {
			return true
		}
	}
	return false
}

// allReplace marks every change as requiring replacement, for resources
// that cannot be updated in place.
func allReplace(dd resource.DetailedDiff) resource.DetailedDiff {
	if len(dd) == 0 {
		return dd
	}
	out := make(resource.DetailedDiff, len(dd))
	for p, d := range dd {
		d.Replace = true
		out[p] = d
	}
	return out
}

// unknownNames returns, sorted, the top-level properties of o that are or
// contain unknowns.
func unknownNames(o resource.Object) []string {
	var names []string
	for k, v := range o {
		if v.ContainsUnknowns() {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// markSecrets marks secret each property of out whose namesake in any of
// from contains a secret, and returns out.
func markSecrets(out resource.Object, from ...resource.Object) resource.Object {
	for _, o := range from {
		for k, v := range o {
			if w, ok := out[k]; ok && !w.IsSecret() && v.ContainsSecrets() {
				out[k] = resource.MakeSecret(w)
			}
		}
	}
	return out
}

// secretNames returns, sorted and without repeats, the top-level properties
// of the objects that are or contain secrets.
func secretNames(objs ...resource.Object) []string {
	seen := map[string]bool{}
	for _, o := range objs {
		for k, v := range o {
			if v.ContainsSecrets() {
				seen[k] = true
			}
		}
	}
	return nilIfEmpty(sortedKeys(seen))
}

// markNamed marks secret the named properties of out that are present, and
// returns out.
func markNamed(out resource.Object, names []string) resource.Object {
	for _, k := range names {
		if v, ok := out[k]; ok {
			out[k] = resource.MakeSecret(v)
		}
	}
	return out
}
