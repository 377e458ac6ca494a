package tfserve

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProtobufBoundary checks the boundary DESIGN.md's "Protobuf
// registration conflict" draws: plinth's engine binary links none of
// terraform-plugin-go's server packages, and tfserve (with its tests)
// links none of plinth's generated tfplugin5/6 code or its Terraform
// client. Either would register the same proto names twice and panic.
func TestProtobufBoundary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("go list is slow; skipped in -short mode")
	}
	cases := map[string]struct {
		args      []string
		forbidden []string
	}{
		"cmd/plinth": {args: []string{"./cmd/plinth"}, forbidden: []string{
			"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server",
			"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server",
			"github.com/plinth-iac/plinth/sdk/provider/tfserve"}},
		"tfserve and its tests": {args: []string{"-test", "./sdk/provider/tfserve", "./cmd/terraform-provider-plinth"}, forbidden: []string{
			"github.com/plinth-iac/plinth/sdk/tfplugin5",
			"github.com/plinth-iac/plinth/sdk/tfplugin6",
			"github.com/plinth-iac/plinth/internal/provider/tfplugin"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("go", append([]string{"list", "-deps"}, tc.args...)...)
			cmd.Dir = "../.."
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			deps := map[string]bool{}
			for _, line := range strings.Fields(string(out)) {
				deps[line] = true
			}
			if len(deps) < 10 {
				t.Fatalf("go list gave too little to judge:\n%s", out)
			}
			for _, pkg := range tc.forbidden {
				if deps[pkg] {
					t.Errorf("%s depends on %s; see DESIGN.md, \"Protobuf registration conflict\"", name, pkg)
				}
			}
		})
	}
}
