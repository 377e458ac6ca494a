package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Provisioners run by terraform and by plinth on the same configuration
// and provider binaries: the same files are written, a failing
// provisioner taints its resource and the next apply replaces it.

// sideFiles reads the files a run wrote in dir, with each pet's name
// replaced by PET<i> so that both tools' files compare.
func sideFiles(t *testing.T, dir string, pets []any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pattern := range []string{"created-*.txt", "destroyed-*.txt"} {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			for i, p := range pets {
				text = strings.ReplaceAll(text, p.(string), "PET"+string(rune('0'+i)))
			}
			out[filepath.Base(m)] = text
		}
	}
	return out
}

// TestProvisionersSideBySide: a create-time local-exec writes a file from
// self.id and count.index, a destroy-time one writes another at destroy;
// terraform and plinth write the same files.
func TestProvisionersSideBySide(t *testing.T) {
	needReal(t)
	src := filepath.Join("testdata", "provisioners", "selfref")
	want := map[string]string{
		"created-0.txt": "PET0 0\n", "created-1.txt": "PET1 1\n",
		"destroyed-0.txt": "PET0\n", "destroyed-1.txt": "PET1\n",
	}
	p := newProject(t, src)
	p.must("up", "--yes")
	pets, _ := p.outputs()["pets"].([]any)
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth: a second preview is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	p.must("destroy", "--yes")
	if d := cmp.Diff(want, sideFiles(t, p.dir, pets)); d != "" {
		t.Errorf("plinth's provisioners wrote (-want +got):\n%s", d)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, src)
	d.must("apply", "-auto-approve", "-no-color")
	tfPets, _ := d.outputs()["pets"].([]any)
	d.must("destroy", "-auto-approve", "-no-color")
	if diff := cmp.Diff(want, sideFiles(t, d.dir, tfPets)); diff != "" {
		t.Errorf("terraform's provisioners wrote (-want +got):\n%s", diff)
	}
}

// TestProvisionerFailureTaintsSideBySide: a failing provisioner fails
// the apply and leaves its resource tainted in both tools; on_failure =
// continue does not; the next apply (the provisioner fixed) replaces the
// tainted resource and keeps the other.
func TestProvisionerFailureTaintsSideBySide(t *testing.T) {
	needReal(t)
	src := filepath.Join("testdata", "provisioners", "failing")
	step2, err := os.ReadFile(filepath.Join(src, "step2.tf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t, src)
	r := p.run("up", "--yes")
	if r.Code == 0 || !strings.Contains(r.Output(), "is now tainted") {
		t.Errorf("plinth: up with a failing provisioner: exit %d, want a failure naming the taint:\n%s", r.Code, r.Output())
	}
	if !strings.Contains(r.Output(), "continuing, as the provisioner sets on_failure = continue") {
		t.Errorf("plinth: no warning for the on_failure = continue provisioner:\n%s", r.Output())
	}
	if ls := p.must("state", "ls").Stdout; strings.Count(ls, "tainted") != 1 || !tainted(ls, "bad") {
		t.Errorf("plinth: want random_pet.bad (only) tainted:\n%s", ls)
	}
	writeConfig(t, p.dir, string(step2))
	if out := p.must("preview").Stdout; !strings.Contains(out, "tainted") {
		t.Errorf("plinth: the preview does not replace the tainted resource:\n%s", out)
	}
	p.must("up", "--yes")
	if ls := p.must("state", "ls").Stdout; strings.Contains(ls, "tainted") {
		t.Errorf("plinth: the tainted resource was not replaced:\n%s", ls)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth: a preview after the replacement is not clean (exit %d):\n%s", r.Code, r.Output())
	}

	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, src)
	if r := d.run("apply", "-auto-approve", "-no-color"); r.code == 0 || !strings.Contains(r.out, "local-exec provisioner error") {
		t.Errorf("terraform: apply with a failing provisioner: exit %d, want a failure with the provisioner's error:\n%s", r.code, r.out)
	}
	if out := d.must("state", "show", "-no-color", "random_pet.bad"); !strings.Contains(out, "(tainted)") {
		t.Errorf("terraform: random_pet.bad is not tainted:\n%s", out)
	}
	if out := d.must("state", "show", "-no-color", "random_pet.soft"); strings.Contains(out, "(tainted)") {
		t.Errorf("terraform: random_pet.soft is tainted despite on_failure = continue:\n%s", out)
	}
	writeConfig(t, d.dir, string(step2))
	if out := d.must("plan", "-no-color"); !strings.Contains(out, "is tainted, so must be replaced") || !strings.Contains(out, "1 to add, 0 to change, 1 to destroy") {
		t.Errorf("terraform: the plan does not replace just the tainted resource:\n%s", out)
	}
	d.must("apply", "-auto-approve", "-no-color")
}

// tainted says whether the state listing marks the named resource tainted.
func tainted(ls, name string) bool {
	for _, line := range strings.Split(ls, "\n") {
		if strings.Contains(line, name) && strings.Contains(line, "tainted") {
			return true
		}
	}
	return false
}
