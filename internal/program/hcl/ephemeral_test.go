package hcl

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// OpenEphemeral makes fakeMonitor an engine.EphemeralOpener: the result
// is the arguments with a "secret" attribute; closing is recorded.
func (f *fakeMonitor) OpenEphemeral(_ context.Context, req engine.InvokeRequest) (resource.Object, func(context.Context) error, error) {
	f.mu.Lock()
	f.opened = append(f.opened, req.Token)
	f.mu.Unlock()
	out := req.Args.Copy()
	out["secret"] = resource.NewString("s3cr3t-" + req.Args["name"].Str())
	return out, func(context.Context) error {
		f.mu.Lock()
		f.closed = append(f.closed, req.Token)
		f.mu.Unlock()
		return nil
	}, nil
}

// TestEphemeralResources: an ephemeral block is opened (not read), and
// left for the engine to close when the operation ends; its values flow into locals, other
// ephemeral resources and provider configuration, but never into a
// resource's arguments or a root output, which are recorded in state.
func TestEphemeralResources(t *testing.T) {
	base := `
ephemeral "random_password" "a" { name = "a" }
ephemeral "random_password" "b" { name = ephemeral.random_password.a.secret }
locals { pw = upper(ephemeral.random_password.b.secret) }
output "n" { value = ephemeralasnull(local.pw) }
`
	tests := map[string]struct {
		extra   string
		wantErr string // a substring of the error; "" for success
		// provider is the provider registration's EphemeralInputs.
		provider []string
	}{
		"flows into locals and ephemeral resources": {},
		"provider configuration":                    {extra: `provider "vault" { token = local.pw }`, provider: []string{"token"}},
		"resource argument":                         {extra: `resource "random_pet" "p" { prefix = local.pw }`, wantErr: `Ephemeral value not allowed`},
		"data source argument":                      {extra: `data "random_thing" "d" { name = ephemeral.random_password.a.secret }`, wantErr: `Ephemeral value not allowed`},
		"root output":                               {extra: `output "o" { value = local.pw }`, wantErr: `is not declared as returning an ephemeral value`},
		"root output declared ephemeral": {extra: `output "o" {
  value     = local.pw
  ephemeral = true
}`, wantErr: `Ephemeral output not allowed`},
		"module variable not ephemeral": {extra: `
module "m" {
  source = "./m"
  pw     = local.pw
}`, wantErr: `The input variable "pw" does not accept ephemeral values`},
		"ephemeral module variable and output keep the mark": {extra: `
module "e" {
  source = "./e"
  pw     = local.pw
}
locals { back = module.e.pw }
resource "random_pet" "p" { prefix = local.back }`, wantErr: `The argument "prefix" of random_pet.p is derived from an ephemeral value`},
		"ephemeral variable in resource": {extra: `
variable "token" {
  default   = "t"
  ephemeral = true
}
resource "random_pet" "p" { prefix = var.token }`, wantErr: `main.tf:11:29: Ephemeral value not allowed`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mon, err := runConfig(t, map[string]string{"main.tf": base + tc.extra, "m/main.tf": `variable "pw" {}`,
				"e/main.tf": "variable \"pw\" {\n ephemeral = true\n}\noutput \"pw\" {\n value = var.pw\n ephemeral = true\n}"}, program.Options{}, false)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]string{"random:index:random_password", "random:index:random_password"}, mon.opened); diff != "" {
					t.Errorf("opened (-want +got):\n%s", diff)
				}
				if len(mon.closed) != 0 {
					t.Errorf("the front end closed %v: the engine closes them when the operation ends", mon.closed)
				}
				if len(mon.invokes) != 0 {
					t.Errorf("ephemeral resources were read as data sources: %v", mon.invokes)
				}
				if diff := cmp.Diff(tc.provider, mon.regs["default"].EphemeralInputs); diff != "" {
					t.Errorf("provider EphemeralInputs (-want +got):\n%s", diff)
				}
				// ephemeralasnull makes n null, and a null root output is
				// left out, as terraform leaves it out.
				if diff := cmp.Diff(resource.Object{}, mon.outputs); diff != "" {
					t.Errorf("outputs (-want +got):\n%s", diff)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
			}
			for n, reg := range mon.regs {
				if s := fmt.Sprint(reg.Inputs); strings.Contains(strings.ToLower(s), "s3cr3t") {
					t.Errorf("registration %s got the ephemeral value: %v", n, reg.Inputs)
				}
			}
		})
	}
}
