package tflang

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// exportUnsuitable names the configurations of the side-by-side corpus
// whose export without --previous terraform cannot plan clean, and why.
// Keep it short: every entry is a gap in what the export proves.
var exportUnsuitable = map[string]string{}

// TestExportCorpus checks that plinth's state stands on its own as a
// Terraform state: plinth applies each configuration of testdata/compare
// (and its step2.tf.txt) in a directory terraform has initialised;
// `plinth state export --format terraform`, with no --previous state to
// take types from, writes terraform.tfstate there; and terraform plans no
// changes against it (outputs included: a list written as a tuple, or a
// map as an object, is a change).
func TestExportCorpus(t *testing.T) {
	needReal(t)
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: the export check needs it (install terraform 1.11)")
	}
	dirs, err := filepath.Glob("testdata/compare/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no configurations under testdata/compare: %v", err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			if why, ok := exportUnsuitable[name]; ok {
				t.Skip(why)
			}
			t.Parallel()
			exportAlone(t, tf, dir)
		})
	}
}

// exportAlone runs the check for one configuration.
func exportAlone(t *testing.T, tf, src string) {
	d := newTFTree(t, tf, src)
	p := newProject(t, configDir(t, ""))
	p.dir = d.dir
	vars := cliVars(t, src, "--var")
	p.must(append([]string{"up", "--yes"}, vars...)...)
	if step2, err := os.ReadFile(filepath.Join(d.dir, "step2.tf.txt")); err == nil {
		writeConfig(t, d.dir, string(step2))
		p.must(append([]string{"up", "--yes"}, vars...)...)
	}
	p.must("state", "export", "--format", "terraform", "--file", filepath.Join(d.dir, "terraform.tfstate"))
	checkPlanClean(t, d, cliVars(t, src, "-var")...)
}
