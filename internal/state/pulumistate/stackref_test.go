package pulumistate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestDropStackReferences: adopting pulumi's stack leaves out the records
// of its StackReferences, the dependencies on them and pulumi's built-in
// provider once nothing else uses it, with a note; a stack with none is
// left as it is. Pulumi records them, plinth reads them on every run, so
// keeping them made the first preview discard them (the corpus's
// yaml-stackref).
func TestDropStackReferences(t *testing.T) {
	urn := func(typ, name string) resource.URN { return resource.NewURN("dev", "app", "", typ, name) }
	builtin, ref := urn(builtinProviderType, "default"), urn(stackReferenceType, "base")
	file := urn("plinth:fs:File", "note")
	tests := map[string]struct {
		in        []*state.Resource
		want      []resource.URN
		wantDeps  []resource.URN
		wantNoted bool
	}{
		"a reference": {
			in: []*state.Resource{
				{URN: builtin, Type: builtinProviderType, Custom: true, ID: "b0"},
				{URN: ref, Type: stackReferenceType, Custom: true, External: true, ID: "org/app/base", Provider: string(builtin) + "::b0"},
				{URN: file, Type: "plinth:fs:File", Custom: true, ID: "f", Dependencies: []resource.URN{ref}, PropertyDependencies: map[string][]resource.URN{"content": {ref}}},
			},
			want:      []resource.URN{file},
			wantDeps:  []resource.URN{},
			wantNoted: true,
		},
		"the built-in provider still used": {
			in: []*state.Resource{
				{URN: builtin, Type: builtinProviderType, Custom: true, ID: "b0"},
				{URN: ref, Type: stackReferenceType, Custom: true, External: true, ID: "org/app/base", Provider: string(builtin) + "::b0"},
				{URN: file, Type: "plinth:fs:File", Custom: true, ID: "f", Provider: string(builtin) + "::b0", Dependencies: []resource.URN{ref}},
			},
			want:      []resource.URN{builtin, file},
			wantDeps:  []resource.URN{},
			wantNoted: true,
		},
		"none": {
			in: []*state.Resource{
				{URN: builtin, Type: builtinProviderType, Custom: true, ID: "b0"},
				{URN: file, Type: "plinth:fs:File", Custom: true, ID: "f", Dependencies: []resource.URN{builtin}},
			},
			want:     []resource.URN{builtin, file},
			wantDeps: []resource.URN{builtin},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			snap := &state.Snapshot{Resources: tc.in}
			note := dropStackReferences(snap)
			var got []resource.URN
			for _, r := range snap.Resources {
				got = append(got, r.URN)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("resources kept (-want +got):\n%s", diff)
			}
			last := snap.Resources[len(snap.Resources)-1]
			if diff := cmp.Diff(tc.wantDeps, last.Dependencies); diff != "" {
				t.Errorf("dependencies of %s (-want +got):\n%s", last.URN, diff)
			}
			if deps := last.PropertyDependencies["content"]; len(deps) > 0 {
				t.Errorf("property dependencies of %s still name %v", last.URN, deps)
			}
			if got := strings.Contains(note, "StackReference"); got != tc.wantNoted {
				t.Errorf("note %q, noted %v, want %v", note, got, tc.wantNoted)
			}
		})
	}
}
