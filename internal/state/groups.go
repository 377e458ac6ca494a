package state

import (
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// GroupOf returns the group URN of an instance of a counted or for_each
// resource: its URN without the trailing instance key (`random_pet.a[0]`
// and `random_pet.a["x"]` belong to `random_pet.a`). ok is false for a URN
// whose name has no instance key.
func GroupOf(u resource.URN) (resource.URN, bool) {
	s := string(u)
	if !strings.HasSuffix(s, "]") {
		return "", false
	}
	name := strings.LastIndex(s, "::")
	if strings.HasSuffix(s, `"]`) {
		for i := strings.LastIndex(s, `["`); i > name; i = strings.LastIndex(s[:i], `["`) {
			if _, err := strconv.Unquote(s[i+1 : len(s)-1]); err == nil {
				return resource.URN(s[:i]), i > name+2
			}
		}
		return "", false
	}
	i := strings.LastIndexByte(s, '[')
	if i <= name+2 {
		return "", false
	}
	if _, err := strconv.Atoi(s[i+1 : len(s)-1]); err != nil {
		return "", false
	}
	return resource.URN(s[:i]), true
}

// URNKeys returns the keys under which a resource is found by a reference:
// its URN and, for an instance, its group URN (DependencyGroups).
func URNKeys(u resource.URN) []resource.URN {
	if g, ok := GroupOf(u); ok {
		return []resource.URN{u, g}
	}
	return []resource.URN{u}
}

// ExpandGroups returns r's Dependencies followed by every resource of rs
// that belongs to one of r's DependencyGroups, without duplicates: the
// dependency list in the form a format without groups (Pulumi's) needs.
func ExpandGroups(r *Resource, rs []*Resource) []resource.URN {
	if len(r.DependencyGroups) == 0 {
		return r.Dependencies
	}
	want := map[resource.URN]bool{}
	for _, g := range r.DependencyGroups {
		want[g] = true
	}
	seen := map[resource.URN]bool{}
	out := make([]resource.URN, 0, len(r.Dependencies))
	for _, d := range r.Dependencies {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, m := range rs {
		if g, ok := GroupOf(m.URN); ok && want[g] && !m.Delete && !seen[m.URN] {
			seen[m.URN] = true
			out = append(out, m.URN)
		}
	}
	return out
}
