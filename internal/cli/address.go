package cli

import (
	"context"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A Terraform configuration's resources are named by their addresses
// (internal/program/hcl), so --target and --exclude take an address
// where they take a URN: the URN whose name it is, every instance of a
// resource with count or for_each (random_pet.a matches random_pet.a[0]),
// and everything under a module call (module.site matches
// module.site["a"].local_file.page).

// matchesAddress reports whether a resource named name is what addr
// names.
func matchesAddress(name, addr string) bool {
	if name == addr {
		return true
	}
	rest, ok := strings.CutPrefix(name, addr)
	return ok && (rest[0] == '[' || rest[0] == '.' && strings.HasPrefix(addr, "module."))
}

// isURN reports whether a --target value is a URN rather than an address.
func isURN(v string) bool { return strings.HasPrefix(v, "urn:") }

// resolveAddresses rewrites the --target and --exclude values of a
// Terraform configuration that are addresses into the URNs they name,
// among the resources of the state and, when learn is given, those the
// program registers. URNs are left as they are; a YAML program's values
// are all left for urns() to check.
func (r *stackRun) resolveAddresses(f *opFlags, base *state.Snapshot, learn func() ([]resource.URN, error)) error {
	if err := resolveReplaces(r.ws.stack, f, base); err != nil {
		return err
	}
	if !r.project.Terraform() || !hasAddress(f.targets) && !hasAddress(f.excludes) {
		return nil
	}
	known := map[resource.URN]bool{}
	if base != nil {
		for _, res := range base.Resources {
			known[res.URN] = true
		}
	}
	if learn != nil {
		urns, err := learn()
		if err != nil {
			return err
		}
		for _, u := range urns {
			known[u] = true
		}
	}
	var err error
	if f.targets, err = resolveAll("target", f.targets, known); err != nil {
		return err
	}
	f.excludes, err = resolveAll("exclude", f.excludes, known)
	return err
}

func hasAddress(values []string) bool {
	for _, v := range values {
		if !isURN(v) {
			return true
		}
	}
	return false
}

// resolveAll replaces each address among values by the URNs it names.
func resolveAll(flag string, values []string, known map[resource.URN]bool) ([]string, error) {
	var out []string
	for _, v := range values {
		if isURN(v) {
			out = append(out, v)
			continue
		}
		n := len(out)
		for u := range known {
			if !state.IsProviderType(u.Type()) && matchesAddress(u.Name(), v) {
				out = append(out, string(u))
			}
		}
		if len(out) == n {
			return nil, display.Errorf("Invalid "+flag, "--%s %s names no resource of the configuration or the state. Give a resource address such as random_pet.name, random_pet.name[0] or module.site (`plinth state ls` lists the addresses recorded), or a URN.", flag, v)
		}
	}
	return out, nil
}

// learnURNs previews the program with no targets and returns the URNs
// of the resources it registers, for addresses that name resources not
// yet created.
func (r *stackRun) learnURNs(ctx context.Context, hard context.Context, f opFlags, ev engine.Program, base *state.Snapshot) func() ([]resource.URN, error) {
	return func() ([]resource.URN, error) {
		opts, err := r.options(nil, hard, opFlags{parallel: f.parallel, parallelSet: f.parallelSet})
		if err != nil {
			return nil, err
		}
		var mu sync.Mutex
		var urns []resource.URN
		opts.Events = func(e engine.Event) {
			if e.Kind == engine.EventStepDone && e.URN != "" {
				mu.Lock()
				urns = append(urns, e.URN)
				mu.Unlock()
			}
		}
		if _, err := engine.Preview(ctx, ev, base, opts); err != nil {
			return nil, display.Summarise("Cannot resolve the target addresses", err)
		}
		return urns, nil
	}
}

// resolveReplaces rewrites the --replace values (URNs, names, addresses)
// into the URNs of the recorded resources they name: only a resource
// that exists can be replaced.
func resolveReplaces(stack string, f *opFlags, base *state.Snapshot) error {
	if len(f.replaces) == 0 {
		return nil
	}
	if base == nil {
		base = &state.Snapshot{}
	}
	var out []string
	for _, v := range f.replaces {
		rs, err := resolveRecorded(stack, base, v)
		if err != nil {
			return display.Errorf("Invalid replace", "--replace %s names no resource stack %s records: only an existing resource can be replaced. Give a URN, a resource name or an address such as random_pet.a (`plinth state ls` lists them).", v, stack)
		}
		for _, r := range rs {
			out = append(out, string(r.URN))
		}
	}
	f.replaces = out
	return nil
}
