package pulumistate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// stackReferenceType is the type pulumi records a StackReference's read
// under, through its built-in provider (pulumi:providers:pulumi).
const stackReferenceType = "pulumi:pulumi:StackReference"

// builtinProviderType is the provider of pulumi's own resource types.
const builtinProviderType = "pulumi:providers:pulumi"

// dropStackReferences removes from snap what pulumi records of a program's
// StackReferences and plinth does not: the reads themselves, the
// dependencies on them, and pulumi's built-in provider once nothing left
// names it. Plinth answers a StackReference from its backend on every run
// without recording it, so adopting the records would make the first
// preview drop them as a change. It returns a note for people, or "".
func dropStackReferences(snap *state.Snapshot) string {
	refs := map[resource.URN]bool{}
	kept := snap.Resources[:0]
	for _, r := range snap.Resources {
		if r.Type == stackReferenceType && r.External {
			refs[r.URN] = true
			continue
		}
		kept = append(kept, r)
	}
	if len(refs) == 0 {
		return ""
	}
	snap.Resources = kept
	used := map[resource.URN]bool{} // providers still referenced
	for _, r := range snap.Resources {
		r.Dependencies = slices.DeleteFunc(r.Dependencies, func(u resource.URN) bool { return refs[u] })
		for k, deps := range r.PropertyDependencies {
			r.PropertyDependencies[k] = slices.DeleteFunc(deps, func(u resource.URN) bool { return refs[u] })
		}
		if i := strings.LastIndex(r.Provider, "::"); i > 0 {
			used[resource.URN(r.Provider[:i])] = true // "<URN>::<ID>"
		}
	}
	snap.Resources = slices.DeleteFunc(snap.Resources, func(r *state.Resource) bool {
		return r.Type == builtinProviderType && !used[r.URN]
	})
	return fmt.Sprintf("%d StackReference record(s) left out: plinth reads a StackReference from its backend on every run and does not record it", len(refs))
}
