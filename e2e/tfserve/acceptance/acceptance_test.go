package acceptance

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

// TestMain turns the acceptance framework on (TF_ACC) when terraform is
// found, unless -short.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" && !isShort() {
		if path, err := exec.LookPath("terraform"); err == nil {
			os.Setenv("TF_ACC", "1")
			if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
				os.Setenv("TF_ACC_TERRAFORM_PATH", path)
			}
			os.Setenv("CHECKPOINT_DISABLE", "1")
		}
	}
	os.Exit(m.Run())
}

func isShort() bool {
	for _, a := range os.Args[1:] {
		if a == "-test.short" || a == "-test.short=true" {
			return true
		}
	}
	return false
}

// run runs a test case on both protocols, each with a fresh provider
// instance per terraform command (as a plugin process would be).
func run(t *testing.T, tc resource.TestCase) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprintf("protocol%d", protocol), func(t *testing.T) {
			if testing.Short() {
				t.Skip("acceptance tests drive terraform; skipped in -short mode")
			}
			c := tc
			if protocol == 5 {
				c.ProtoV5ProviderFactories = map[string]func() (tfprotov5.ProviderServer, error){
					"plinth": func() (tfprotov5.ProviderServer, error) { return tfserve.NewServer5(plinth.New()) }}
			} else {
				c.ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
					"plinth": func() (tfprotov6.ProviderServer, error) { return tfserve.NewServer6(plinth.New()) }}
			}
			resource.Test(t, c)
		})
	}
}

// attrOf reads an attribute of a resource in the state.
func attrOf(s *terraform.State, addr, name string) (string, error) {
	r, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s is not in the state", addr)
	}
	return r.Primary.Attributes[name], nil
}
