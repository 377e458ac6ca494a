package yaml

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// TestParseResourcesLetsNodesGo checks that once the resources are
// parsed, the resources mapping no longer holds their nodes, so that
// yaml.v3's tree of a large program is garbage resource by resource
// rather than held to the end beside the parsed form; and that a
// mapping with an anchor, which an alias may read again, is kept.
func TestParseResourcesLetsNodesGo(t *testing.T) {
	tests := map[string]struct {
		src      string
		wantKept bool
	}{
		"plain":    {src: "a:\n  type: fake:index:Pet\nb:\n  type: fake:index:Pet\n", wantKept: false},
		"anchored": {src: "&res\na:\n  type: fake:index:Pet\nb:\n  type: fake:index:Pet\n", wantKept: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.src), &doc); err != nil {
				t.Fatal(err)
			}
			n := doc.Content[0]
			p := &Project{}
			r := &reader{diags: &diags{file: "plinth.yaml"}, budget: 1 << 20}
			p.parseResources(r, n)
			var keys []string
			for _, d := range p.resources {
				keys = append(keys, d.key)
			}
			if diff := cmp.Diff([]string{"a", "b"}, keys); diff != "" {
				t.Errorf("parsed resources (-want +got):\n%s", diff)
			}
			if kept := len(n.Content) > 0; kept != tc.wantKept {
				t.Errorf("the mapping kept its nodes: %v, want %v", kept, tc.wantKept)
			}
		})
	}
}

// TestAnchorInAResourceStillResolves: an alias in a later resource to
// an anchor inside an earlier one still reads it after the earlier
// resource's nodes were let go.
func TestAnchorInAResourceStillResolves(t *testing.T) {
	p := mustParse(t, "name: x\nresources:\n  a:\n    type: fake:index:Pet\n    properties: &props { length: 3 }\n  b:\n    type: fake:index:Pet\n    properties: *props\n")
	var got []string
	for _, d := range p.resources {
		for _, pr := range d.props {
			got = append(got, d.key+"."+pr.key)
		}
	}
	if diff := cmp.Diff([]string{"a.length", "b.length"}, got); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
}
