package state

import (
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Helpers that build small states for tests.

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func urn(name string) resource.URN {
	return resource.NewURN("dev", "proj", "", "plinth:test:Thing", name)
}

func providerURN(pkg string) resource.URN {
	return resource.NewURN("dev", "proj", "", "pulumi:providers:"+pkg, "default")
}

// prov returns a provider resource for pkg with ID "p-1".
func prov(pkg string) *Resource {
	return &Resource{URN: providerURN(pkg), Type: "pulumi:providers:" + pkg, Custom: true, ID: "p-1", Created: t0}
}

// thing returns a custom resource managed by prov("test").
func thing(name, id string, deps ...resource.URN) *Resource {
	return &Resource{
		URN: urn(name), Type: "plinth:test:Thing", Custom: true, ID: id,
		Inputs:       resource.Object{"name": resource.NewString(name)},
		Outputs:      resource.Object{"name": resource.NewString(name), "id": resource.NewString(id)},
		Provider:     ProviderRef(providerURN("test"), "p-1"),
		Dependencies: deps,
		Created:      t0,
	}
}

func begin(step uint64, op Op, old, new *Resource) *Entry {
	return &Entry{Step: step, Kind: Begin, Op: op, Old: old, New: new, Time: t0}
}

func end(step uint64, op Op, old, new *Resource) *Entry {
	return &Entry{Step: step, Kind: End, Op: op, Old: old, New: new, Time: t0}
}

func write(op Op, old, new *Resource) *Entry {
	return &Entry{Kind: Write, Op: op, Old: old, New: new, Time: t0}
}

func urns(s *Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		u := r.URN.Name() + "/" + r.ID
		if r.Delete {
			u += "(delete)"
		}
		out = append(out, u)
	}
	return out
}
