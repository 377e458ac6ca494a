package hcl

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
)

// TestProviderNamedTypes: a resource or data source type named like its
// provider (data "external", data "http") is that provider's, checked
// against its schema and run, as terraform takes it; a label that is
// not a name at all is refused where it is written.
func TestProviderNamedTypes(t *testing.T) {
	tests := map[string]struct {
		src     string
		invokes []string
		regs    []string
		want    string // what the error says; "": none
	}{
		"data source": {src: `data "ext" "x" { query = "q" }
output "o" { value = data.ext.x.query }`, invokes: []string{"ext:index:ext"}},
		"resource":           {src: `resource "ext" "r" { query = "q" }`, regs: []string{"ext"}},
		"checked":            {src: `data "ext" "x" { qeury = "q" }`, want: "main.tf:1:18: Unsupported argument"},
		"not a name":         {src: `resource "a:b" "x" {}`, want: "main.tf:1:10: Invalid resource type name"},
		"digit first":        {src: `data "1ext" "x" {}`, want: "main.tf:1:6: Invalid resource type name"},
		"unknown, suggested": {src: `data "ext_nope" "x" {}`, want: "main.tf:1:1: Invalid data source"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, map[string]string{"main.tf": tc.src}, program.Options{}, false)
			if tc.want != "" {
				if err == nil || !containsAll(err.Error(), tc.want) {
					t.Fatalf("error %v, want one saying %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.invokes, mon.invokes); diff != "" {
				t.Errorf("data sources read (-want +got):\n%s", diff)
			}
			var regs []string
			for _, reg := range mon.regs {
				regs = append(regs, reg.Type[len(reg.Type)-len("ext"):])
				if reg.Type != "ext:index:ext" {
					t.Errorf("registered %s as %s, want ext:index:ext", reg.Name, reg.Type)
				}
			}
			if diff := cmp.Diff(tc.regs, regs); diff != "" {
				t.Errorf("registrations (-want +got):\n%s", diff)
			}
		})
	}
}
