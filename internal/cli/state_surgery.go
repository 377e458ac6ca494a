package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// State surgery: taint, untaint, mv and rm. Each names resources by URN,
// by name or, in a Terraform configuration, by address (random_pet.a
// names every instance of a counted resource, module.site everything in
// the module), and each change is one journaled write, made under the
// stack's lock.

// resolveRecorded finds the live resources arg names: the resource with
// that URN, else every resource (not a provider) whose name is arg or
// lies under the address arg.
func resolveRecorded(stack string, snap *state.Snapshot, arg string) ([]*state.Resource, error) {
	if isURN(arg) {
		if r := snap.Find(resource.URN(arg)); r != nil {
			return []*state.Resource{r}, nil
		}
		return nil, display.Errorf("No such resource", "Stack %s records no resource %s. `plinth state ls` lists the URNs and addresses it records.", stack, arg)
	}
	var found []*state.Resource
	for _, r := range snap.Resources {
		if !r.Delete && !state.IsProviderType(r.Type) && matchesAddress(r.URN.Name(), arg) {
			found = append(found, r)
		}
	}
	if len(found) == 0 {
		return nil, display.Errorf("No such resource", "Stack %s records no resource %s. Give a URN, a resource name or a Terraform address such as random_pet.a, random_pet.a[0] or module.site; `plinth state ls` lists what it records.", stack, arg)
	}
	return found, nil
}

// resolveAllRecorded resolves every argument, without duplicates, in the
// order the state records them.
func resolveAllRecorded(stack string, snap *state.Snapshot, args []string) ([]*state.Resource, error) {
	want := map[*state.Resource]bool{}
	for _, arg := range args {
		rs, err := resolveRecorded(stack, snap, arg)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			want[r] = true
		}
	}
	var out []*state.Resource
	for _, r := range snap.Resources {
		if want[r] {
			out = append(out, r)
		}
	}
	return out, nil
}

func (a *app) stateTaintCommand(taint bool) *cobra.Command {
	use, short, long := "taint ADDRESS|URN...", "Mark resources tainted: the next up replaces them",
		"Taint marks resources in the state so that the next `plinth up` replaces them (creates a\n"+
			"new one and deletes the old), even though their configuration did not change. `plinth\n"+
			"preview` shows them as replaced because they are tainted. To replace a resource in one\n"+
			"run without recording anything, use `plinth up --replace ADDRESS`."
	if !taint {
		use, short, long = "untaint ADDRESS|URN...", "Clear the taint of resources",
			"Untaint clears the taint of resources, so that the next `plinth up` keeps them."
	}
	verb := strings.Fields(use)[0]
	return &cobra.Command{
		Use: use, Short: short, Long: long,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runStateEdit(c.Context(), "state "+verb, true, func(ctx context.Context, ws *workspace, s *state.Session) error {
				rs, err := resolveAllRecorded(ws.stack, s.Base(), args)
				if err != nil {
					return err
				}
				for _, r := range rs {
					if err := s.SetTainted(ctx, r.URN, taint); err != nil {
						return display.Errorf("Cannot "+verb+" resource", "%v.", err)
					}
					fmt.Fprintf(a.env.Stdout, "Resource %s has been %sed.\n", r.URN.Name(), verb)
				}
				return nil
			})
		},
	}
}

func (a *app) stateMvCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mv SOURCE DESTINATION",
		Short: "Rename resources in the state without touching them",
		Long: "Mv gives recorded resources a new name, so that a renamed resource in the program is\n" +
			"taken over instead of replaced; references to them follow. SOURCE and DESTINATION\n" +
			"are names, URNs or, in a Terraform configuration, addresses: random_pet.a to\n" +
			"random_pet.b, random_pet.a to module.m.random_pet.a (into a module), module.a to\n" +
			"module.b (every resource in it), random_pet.a (every instance) to random_pet.b.\n" +
			"A resource's type does not change.",
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runStateEdit(c.Context(), "state mv", true, func(ctx context.Context, ws *workspace, s *state.Session) error {
				moves, err := planMoves(ws.stack, s.Base(), args[0], args[1])
				if err != nil {
					return err
				}
				for _, m := range moves {
					if err := s.Rename(ctx, m[0], m[1]); err != nil {
						return display.Errorf("Cannot move resource", "%v.", err)
					}
					fmt.Fprintf(a.env.Stdout, "Moved %s to %s.\n", m[0].Name(), m[1].Name())
				}
				fmt.Fprintf(a.env.Stdout, "Successfully moved %d object(s).\n", len(moves))
				return nil
			})
		},
	}
}

// planMoves works out the renames of state mv: each resource src names
// gets dst in place of src at the start of its name (or, for a URN, the
// URN's name). It refuses a move onto a recorded resource, or one that
// would change a Terraform resource's type.
func planMoves(stack string, snap *state.Snapshot, src, dst string) ([][2]resource.URN, error) {
	rs, err := resolveRecorded(stack, snap, src)
	if err != nil {
		return nil, err
	}
	if isURN(src) {
		src = rs[0].URN.Name()
	}
	if isURN(dst) {
		u, err := resource.ParseURN(dst)
		if err != nil || len(rs) != 1 || u.QualifiedType() != rs[0].URN.QualifiedType() || u.Stack() != rs[0].URN.Stack() || u.Project() != rs[0].URN.Project() {
			return nil, display.Errorf("Invalid destination", "%s is not a URN that %s can move to: give a URN of the same stack, project and type (only the name changes), or a name or address.", dst, src)
		}
		dst = u.Name()
	}
	var moves [][2]resource.URN
	for _, r := range rs {
		name := dst + strings.TrimPrefix(r.URN.Name(), src)
		u := r.URN
		to := resource.NewURN(u.Stack(), u.Project(), u.ParentType(), u.Type(), name)
		if err := checkMove(stack, snap, r, to); err != nil {
			return nil, err
		}
		moves = append(moves, [2]resource.URN{r.URN, to})
	}
	return moves, nil
}

// checkMove refuses a move onto a recorded resource, or to an address of
// another resource type.
func checkMove(stack string, snap *state.Snapshot, r *state.Resource, to resource.URN) error {
	if snap.Find(to) != nil {
		return display.Errorf("Destination exists", "Stack %s already records %s. Remove it first with `plinth state rm`, or choose another destination.", stack, to.Name())
	}
	if typ, ok := addressType(to.Name()); ok && strings.Contains(r.URN.Name(), ".") && !strings.HasSuffix(r.Type, ":"+typ) {
		return display.Errorf("Invalid destination", "Cannot move %s to %s: a %s cannot become a %s. The destination address must name a resource of the same type.", r.URN.Name(), to.Name(), r.Type, typ)
	}
	return nil
}

// addressType is the resource type a Terraform address names:
// local_file for module.site["a"].local_file.page[1].
func addressType(addr string) (string, bool) {
	if strings.HasSuffix(addr, "]") {
		addr = addr[:strings.LastIndex(addr, "[")]
	}
	tail := addr[strings.LastIndex(addr, "]")+1:]
	parts := strings.Split(strings.TrimPrefix(tail, "."), ".")
	if len(parts) < 2 {
		return "", false
	}
	return parts[len(parts)-2], true
}

func (a *app) stateRmCommand() *cobra.Command {
	var yes bool
	c := &cobra.Command{
		Use:   "rm ADDRESS|URN...",
		Short: "Forget resources without deleting them",
		Long: "Rm removes resources from the state; the real resources are left alone, and plinth no\n" +
			"longer manages them. Each argument is a URN, a resource name or, in a Terraform\n" +
			"configuration, an address (random_pet.a names every instance, module.site everything\n" +
			"in the module). It refuses while resources not removed depend on them.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runStateEdit(c.Context(), "state rm", yes, func(ctx context.Context, ws *workspace, s *state.Session) error {
				return a.removeResources(ctx, ws, s, args, yes)
			})
		},
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return c
}

// removeResources forgets the resources args name, dependents first, after
// checking that nothing left refers to them.
func (a *app) removeResources(ctx context.Context, ws *workspace, s *state.Session, args []string, yes bool) error {
	rs, err := resolveAllRecorded(ws.stack, s.Base(), args)
	if err != nil {
		return err
	}
	if err := checkNoReferrers(ws.stack, s.Base(), rs); err != nil {
		return err
	}
	question := fmt.Sprintf("Forget %s (its %s stays as it is)?", rs[0].URN, rs[0].Type)
	if len(rs) > 1 {
		question = fmt.Sprintf("Forget %d resources (they stay as they are)?", len(rs))
	}
	if err := a.confirmEdit(ctx, yes, question); err != nil {
		return err
	}
	for _, r := range slices.Backward(rs) { // the state records dependents after what they depend on
		if err := s.RemoveResource(ctx, r.URN); err != nil {
			return display.Errorf("Cannot remove resource", "%v.", err)
		}
		fmt.Fprintf(a.env.Stdout, "Removed %s from the state of stack %s.\n", r.URN, ws.stack)
	}
	return nil
}

// checkNoReferrers refuses to forget resources others that stay refer to.
func checkNoReferrers(stack string, snap *state.Snapshot, rs []*state.Resource) error {
	gone := map[resource.URN]bool{}
	for _, r := range rs {
		for _, u := range state.URNKeys(r.URN) { // its group's dependents refer to it
			gone[u] = true
		}
	}
	for _, r := range snap.Resources {
		if r.Delete || gone[r.URN] {
			continue
		}
		for _, u := range r.References() {
			if gone[u] {
				return display.Errorf("Cannot remove resource", "Cannot remove %s from stack %s: resources that stay refer to it (%s); remove them too, or first.", u, stack, r.URN)
			}
		}
	}
	return nil
}
