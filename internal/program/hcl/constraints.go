package hcl

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
)

// providerConstraint is the version constraint a whole configuration puts
// on one provider: every module's required_providers entry for it,
// intersected, as terraform init does.
type providerConstraint struct {
	// version joins the distinct constraints, sorted (">= 3.0, ~> 3.6"),
	// so the same plugin is chosen whatever order modules are read in.
	version string
	// decls are the entries that constrain it, in module order.
	decls []constraintDecl
}

// constraintDecl is one required_providers entry with a version.
type constraintDecl struct {
	module  []string // module call path; nil for the root
	version string
	rng     hcl.Range
}

// providerAddress is the provider a required_providers entry (or a bare
// local name, which means hashicorp/NAME) stands for, normalised so
// "registry.terraform.io/hashicorp/random" and "hashicorp/random" match.
func providerAddress(source, local string) string {
	if source == "" {
		source = "hashicorp/" + local
	}
	source = strings.ToLower(source)
	return strings.TrimPrefix(source, "registry.terraform.io/")
}

// combineConstraints intersects every module's version constraints per
// provider. A constraint that does not parse, or a combination no version
// can meet, is an error at the entries that declare it.
func combineConstraints(root *Module) (map[string]*providerConstraint, hcl.Diagnostics) {
	out := map[string]*providerConstraint{}
	var ds hcl.Diagnostics
	var walk func(m *Module)
	walk = func(m *Module) {
		names := make([]string, 0, len(m.required))
		for n := range m.required {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ds = append(ds, addConstraint(out, m, n)...)
		}
		for _, c := range m.calls {
			if c.module != nil {
				walk(c.module)
			}
		}
	}
	walk(root)
	addrs := make([]string, 0, len(out))
	for a := range out {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, a := range addrs {
		pc := out[a]
		pc.version = joinConstraints(pc.decls)
		if !satisfiable(pc.version) {
			ds = append(ds, unsatisfiable(a, pc))
		}
	}
	return out, ds
}

// addConstraint records one module's required_providers entry.
func addConstraint(out map[string]*providerConstraint, m *Module, name string) hcl.Diagnostics {
	rp := m.required[name]
	addr := providerAddress(rp.source, name)
	pc := out[addr]
	if pc == nil {
		pc = &providerConstraint{}
		out[addr] = pc
	}
	if strings.TrimSpace(rp.version) == "" {
		return nil
	}
	if _, err := version.NewConstraint(rp.version); err != nil {
		return hcl.Diagnostics{errorAt(rp.rng, "Invalid provider version constraint",
			"%q is not a version constraint for provider %s: %v. Write one such as \"~> 3.6\" or \">= 3.0, < 4.0\".", rp.version, addr, err)}
	}
	pc.decls = append(pc.decls, constraintDecl{module: m.path, version: rp.version, rng: rp.rng})
	return nil
}

// joinConstraints joins the distinct single constraints of every
// declaration, sorted, with ", ".
func joinConstraints(decls []constraintDecl) string {
	seen := map[string]bool{}
	var atoms []string
	for _, d := range decls {
		for _, a := range strings.Split(d.version, ",") {
			a = normalAtom(a)
			if a != "" && !seen[a] {
				seen[a] = true
				atoms = append(atoms, a)
			}
		}
	}
	sort.Strings(atoms)
	return strings.Join(atoms, ", ")
}

var atomPattern = regexp.MustCompile(`^\s*(~>|>=|<=|!=|=|>|<)?\s*(\S+)\s*$`)

// normalAtom writes one constraint as OP VERSION (">=3.0" as ">= 3.0").
func normalAtom(a string) string {
	m := atomPattern.FindStringSubmatch(a)
	if m == nil {
		return strings.TrimSpace(a)
	}
	if m[1] == "" || m[1] == "=" {
		return m[2]
	}
	return m[1] + " " + m[2]
}

// unsatisfiable is the error for a combination no version meets: it
// names each constraint and where it is declared.
func unsatisfiable(addr string, pc *providerConstraint) *hcl.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "No version of provider %s can match the given constraints %s. They are declared at:", addr, pc.version)
	for _, d := range pc.decls {
		where := "the root module"
		if len(d.module) > 0 {
			where = "module." + strings.Join(d.module, ".module.")
		}
		fmt.Fprintf(&b, "\n  %s:%d:%d (%s): %q", d.rng.Filename, d.rng.Start.Line, d.rng.Start.Column, where, d.version)
	}
	b.WriteString("\nTerraform intersects every module's constraints for a provider and uses one version for the whole configuration. Change the constraints so that at least one version meets them all: relax the one that excludes the versions the others need, or ask for the same version everywhere.")
	rng := pc.decls[0].rng
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to query available provider packages",
		Detail: b.String(), Subject: &rng}
}
