package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

const echoProgram = `name: provisioned
resources:
  pet:
    type: plinth:random:Pet
  note:
    type: plinth:fs:File
    properties:
      path: out/note.txt
      content: "note about ${pet.id}"
    options:
      provisioners:
        - type: echo
          message: "${pet.id}"
        - type: echo
          when: destroy
          message: goodbye
outputs:
  pet: ${pet.id}
`

// TestSDKProvisionerPlugin: a provisioner written with plinth's SDK
// (provserve's echo), put in the project's .plinth/plugins as
// terraform-provisioner-echo, is started out of process by up (its output
// shown line by line, resolved from another resource) and at destroy.
func TestSDKProvisionerPlugin(t *testing.T) {
	dir := t.TempDir()
	plugins := filepath.Join(dir, ".plinth", "plugins")
	bin := filepath.Join(plugins, "terraform-provisioner-echo")
	out, err := exec.Command("go", "build", "-o", bin, "../../sdk/provider/provserve/testdata/echo").CombinedOutput()
	if err != nil {
		t.Fatalf("building the echo provisioner: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte(echoProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	up := run(t, dir, "up", "--yes").Output()
	pet := strings.TrimSpace(run(t, dir, "stack", "output", "pet").Stdout)
	for _, want := range []string{"hello " + pet, "second line"} {
		if pet == "" || !strings.Contains(up, want) {
			t.Errorf("up does not show the plugin's output %q:\n%s", want, up)
		}
	}
	if strings.Contains(up, "goodbye") {
		t.Errorf("the destroy-time provisioner ran at create:\n%s", up)
	}
	if down := run(t, dir, "destroy", "--yes").Output(); !strings.Contains(down, "hello goodbye") {
		t.Errorf("destroy does not run the destroy-time plugin provisioner:\n%s", down)
	}
	// Without the plugin, up says where to put it.
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(t, dir, clitest.Options{}, "up", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), "terraform-provisioner-echo in "+plugins) {
		t.Errorf("up without the plugin: exit %d, want an error naming where to put it:\n%s", r.Code, r.Output())
	}
}
