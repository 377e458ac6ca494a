package hcl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

const provisionersConfig = `
variable "dir" { default = "/tmp" }
resource "terraform_data" "pet" {
  count = 2
  input = "pet-${count.index}"
  connection {
    host = "h-${self.id}"
    user = "root"
  }
  provisioner "local-exec" {
    command = "echo ${self.output} ${count.index} > ${var.dir}/${self.id}"
    connection { user = "admin" }
  }
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "rm ${path.module}/${self.id}-${count.index}"
  }
}
`

// TestProvisionerBlocks: provisioner and connection blocks become the
// registration's provisioners; self, count.index and var resolve once the
// engine gives the resource's values; the provisioner's connection
// overrides the resource's argument by argument.
func TestProvisionerBlocks(t *testing.T) {
	mon, err := runConfig(t, map[string]string{"main.tf": provisionersConfig}, program.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	reg := mon.regs["terraform_data.pet[1]"]
	if len(reg.Provisioners) != 2 {
		t.Fatalf("provisioners = %+v, want 2", reg.Provisioners)
	}
	self := resource.Object{"id": resource.NewString("abc"), "output": resource.NewString("pet-1")}
	type got struct {
		Type, When, OnFailure string
		Config, Connection    any
	}
	var gots []got
	for _, p := range reg.Provisioners {
		cfg, conn, err := p.Resolve(self)
		if err != nil {
			t.Fatal(err)
		}
		gots = append(gots, got{p.Type, p.When, p.OnFailure, resource.NewObject(cfg).ToGo(), resource.NewObject(conn).ToGo()})
	}
	want := []got{
		{"local-exec", "", "", map[string]any{"command": "echo pet-1 1 > /tmp/abc"}, map[string]any{"host": "h-abc", "user": "admin"}},
		{"local-exec", "destroy", "continue", map[string]any{"command": "rm ./abc-1"}, map[string]any{"host": "h-abc", "user": "root"}},
	}
	if d := cmp.Diff(want, gots); d != "" {
		t.Errorf("resolved provisioners (-want +got):\n%s", d)
	}
}

// TestProvisionerBlockErrors: Terraform's rules for provisioner blocks,
// in its words.
func TestProvisionerBlockErrors(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"destroy refers to a variable": {`
variable "v" { default = "x" }
resource "terraform_data" "a" {
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${var.v}"
  }
}`, "Invalid reference from destroy provisioner"},
		"destroy connection refers to a resource": {`
resource "terraform_data" "b" {}
resource "terraform_data" "a" {
  connection { host = terraform_data.b.id }
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.id} ${count.index}"
  }
}`, "may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'"},
		"bad when": {`
resource "terraform_data" "a" {
  provisioner "local-exec" {
    when    = later
    command = "true"
  }
}`, `The "when" argument requires one of the following keywords: create or destroy.`},
		"bad on_failure": {`
resource "terraform_data" "a" {
  provisioner "local-exec" {
    on_failure = "ignore"
    command    = "true"
  }
}`, `The "on_failure" argument requires one of the following keywords: continue or fail.`},
		"in a data block": {`
data "local_file" "a" {
  filename = "x"
  provisioner "local-exec" { command = "true" }
}`, "Provisioners can be used only in managed resources"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := runConfig(t, map[string]string{"main.tf": tc.body}, program.Options{}, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
