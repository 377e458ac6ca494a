package plugin

import (
	"context"
	"sort"

	version "github.com/hashicorp/go-version"
)

// List returns every plugin found, for `plinth plugin ls`: sorted by
// name, kind, protocol and newest version first. With probe set, a Pulumi
// plugin whose version its name does not give is asked.
func (f *Finder) List(ctx context.Context, probe bool) []Plugin {
	out := append([]Plugin(nil), f.plugins()...)
	if probe && f.Probe != nil {
		for i, p := range out {
			if p.Version == "" && p.Protocol == ProtocolPulumi && p.Kind == KindResource {
				out[i].Version = f.probe(ctx, p)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return listLess(out[i], out[j]) })
	return out
}

func listLess(a, b Plugin) bool {
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Protocol != b.Protocol {
		return a.Protocol < b.Protocol
	}
	av, aerr := version.NewVersion(a.Version)
	bv, berr := version.NewVersion(b.Version)
	if aerr != nil || berr != nil {
		return aerr == nil && berr != nil
	}
	return av.GreaterThan(bv)
}
