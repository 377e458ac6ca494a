package pulumi_test

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestImportBothWays adopts a file made outside plinth with `plinth
// import`, adds the YAML it prints to the program, checks that a preview
// then finds nothing to change, and destroys it; in process and through
// the plugin, with the same transcript. The ID is an absolute path (see
// the report: a relative one is resolved against plinth's working
// directory in process).
func TestImportBothWays(t *testing.T) {
	bothWays(t, "import.golden", adopt)
}

func adopt(t *testing.T, m mode) string {
	p := newProject(t, "import", m)
	tr := newTranscript(p)
	if err := os.MkdirAll(p.path("out"), 0o755); err != nil {
		t.Fatal(err)
	}
	p.writeFile("out/notes.txt", "made outside plinth\n")
	out := tr.stage("import", "import", "plinth:fs:File", "notes", p.path("out/notes.txt"), "--yes")
	_, yaml, ok := strings.Cut(out, "so that the program keeps managing notes:\n\n")
	if !ok {
		t.Fatalf("%s: import printed no YAML to add:\n%s", m.name, out)
	}
	f, err := os.OpenFile(p.path("plinth.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(yaml)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	tr.stage("nothing to change once adopted", "preview", "--detailed-exitcode")
	tr.stage("destroy", "destroy", "--yes")
	if _, err := os.Stat(p.path("out/notes.txt")); !os.IsNotExist(err) {
		t.Errorf("%s: destroy left the adopted file (%v)", m.name, err)
	}
	return tr.String()
}
