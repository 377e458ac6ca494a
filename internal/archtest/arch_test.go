package archtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const module = "github.com/plinth-iac/plinth"

// pkg is one package as go list reports it: its direct imports (not its
// tests') and everything it depends on.
type pkg struct {
	imports, deps []string
}

// rule forbids packages under from to reach packages under any of to,
// directly or, if deep, through anything they depend on.
type rule struct {
	from string
	to   []string
	deep bool
	why  string
}

var rules = []rule{
	{from: "internal/plugin", deep: true,
		to:  []string{"internal/engine", "internal/registry", "internal/provider"},
		why: "plugin only finds binaries and chooses versions; starting them is internal/registry's"},
	{from: "internal/program",
		to:  []string{"internal/provider"},
		why: "the program checks against internal/schema, not the provider interface"},
	{from: "internal/display",
		to:  []string{"internal/plugin", "internal/provider", "internal/registry", "internal/secrets"},
		why: "errors describe themselves through display.Diagnosable; the display knows none of their types"},
	{from: "internal/schema", deep: true,
		to:  []string{""},
		why: "the schema model is a leaf"},
	{from: "sdk", deep: true,
		to:  []string{"internal"},
		why: "the SDK is public: provider authors cannot import plinth's internal packages, so neither may the SDK (protocol stubs it needs live under sdk/)"},
	{from: "cmd/plinth", deep: true,
		to:  []string{"github.com/hashicorp/terraform-plugin-go"},
		why: "its protocol descriptors would clash with sdk/tfplugin5 and tfplugin6"},
}

func TestImportRules(t *testing.T) {
	pkgs := list(t)
	for _, r := range rules {
		n := 0
		for path, p := range pkgs {
			if !under(path, module+"/"+r.from) {
				continue
			}
			n++
			reached := p.imports
			if r.deep {
				reached = p.deps
			}
			for _, dep := range reached {
				if forbidden(dep, r.to) {
					t.Errorf("%s imports %s: %s", path, dep, r.why)
				}
			}
		}
		if n == 0 {
			t.Errorf("no package under %s: the rule guards nothing; update it", r.from)
		}
	}
}

// TestProgramFormatsStandApart: internal/program is what the program
// formats share and imports none of them; a format is a package directly
// under it (internal/program/yaml, internal/program/hcl) and imports the
// shared package and its own sub-packages, never another format, so a
// new format is a package of its own.
func TestProgramFormatsStandApart(t *testing.T) {
	root := module + "/internal/program"
	formats := map[string]bool{}
	for path, p := range list(t) {
		if !under(path, root) {
			continue
		}
		if f := programFormat(root, path); f != "" {
			formats[f] = true
		}
		for _, dep := range p.imports {
			if dep == root || !under(dep, root) || programFormat(root, dep) == programFormat(root, path) {
				continue
			}
			if programFormat(root, path) == "" {
				t.Errorf("%s imports %s: the shared program package imports no format; move what both need into it", path, dep)
			} else {
				t.Errorf("%s imports %s: a program format imports no other format; move what both need into %s", path, dep, root)
			}
		}
	}
	if len(formats) < 2 {
		t.Errorf("found the program formats %v under %s, want yaml and hcl at least: the rule guards nothing; update it", formats, root)
	}
}

// programFormat is the format a package under root belongs to: the
// first element of its path below root, or "" for root itself.
func programFormat(root, path string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(path, root), "/")
	format, _, _ := strings.Cut(rest, "/")
	return format
}

// forbidden reports whether dep is under one of the forbidden paths: a
// path of this module relative to its root ("" for the whole module), or
// a full path outside it.
func forbidden(dep string, to []string) bool {
	for _, t := range to {
		full := t
		if !strings.Contains(strings.SplitN(t, "/", 2)[0], ".") {
			full = strings.TrimSuffix(module+"/"+t, "/")
		}
		if under(dep, full) {
			return true
		}
	}
	return false
}

// under reports whether path is root or inside it.
func under(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+"/")
}

// list runs go list over the module.
func list(t *testing.T) map[string]pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]pkg{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list printed %q, want path|imports|deps", line)
		}
		pkgs[f[0]] = pkg{imports: strings.Fields(f[1]), deps: strings.Fields(f[2])}
	}
	return pkgs
}

// TestDisplayKnowsNoErrorTypes: the display names no error type of the
// engine and looks for no URN in an error's text; errors describe
// themselves through display.Diagnosable.
func TestDisplayKnowsNoErrorTypes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "display", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no display sources found (%v)", err)
	}
	bad := regexp.MustCompile(`\*engine\.\w+Error\b|engine\.\w+Error\{|"urn:pulumi:`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := bad.FindString(line); m != "" {
				t.Errorf("%s:%d: %s: give the error a Diagnostic method at its source instead", f, i+1, m)
			}
		}
	}
}
