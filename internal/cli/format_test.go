package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	goyaml "go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/display"
)

// TestFormatOf: the files a directory holds choose its program format,
// and every question the commands ask of the format (which one runs,
// how the views word it, whether state ls shows addresses) has the one
// answer formatOf gives. A directory with both Pulumi.yaml and .tf files
// ran as a Pulumi program but was shown in terraform's style and listed
// by address when the CLI chose the format in two places.
func TestFormatOf(t *testing.T) {
	const program = "name: p\n"
	tests := map[string]struct {
		files     map[string]string
		want      string
		style     display.Style
		terraform bool
		loadErr   string // "" when loadProject succeeds
	}{
		"plinth.yaml":              {files: map[string]string{"plinth.yaml": program}, want: programYAML},
		"plinth.yaml wins over tf": {files: map[string]string{"plinth.yaml": program, "main.tf": ""}, want: programYAML},
		"plinth.yaml wins over Pulumi.yaml": {files: map[string]string{"plinth.yaml": program, "Pulumi.yaml": "name: p\nruntime: nodejs\n"},
			want: programYAML},
		"tf":      {files: map[string]string{"main.tf": ""}, want: programTerraform, style: display.StyleTerraform, terraform: true},
		"tf.json": {files: map[string]string{"main.tf.json": "{}"}, want: programTerraform, style: display.StyleTerraform, terraform: true},
		"Pulumi.yaml": {files: map[string]string{"Pulumi.yaml": "name: p\nruntime: nodejs\n"}, want: programPulumi, style: display.StylePulumi,
			loadErr: "holds a Pulumi program, which plinth runs but does not otherwise read"},
		"Pulumi.yaml wins over tf": {files: map[string]string{"Pulumi.yml": "name: p\nruntime: nodejs\n", "main.tf": ""}, want: programPulumi, style: display.StylePulumi,
			loadErr: "holds a Pulumi program"},
		"nothing is read as YAML": {want: programYAML, loadErr: "There is no plinth.yaml"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for f, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := loadProject(dir)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if tc.loadErr == "" && err != nil || !strings.Contains(gotErr, tc.loadErr) {
				t.Errorf("loadProject = %v, want an error containing %q", err, tc.loadErr)
			}
			type answers struct {
				Format    string
				Style     display.Style
				Terraform bool
				Pulumi    bool
			}
			want := answers{tc.want, tc.style, tc.terraform, tc.want == programPulumi}
			got := answers{formatOf(dir).name, displayStyle(dir), isTerraform(dir), isPulumiProject(dir)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLeadingName checks the fast path of nameKey on project files: where
// it answers, the name is the one a full YAML parse finds; it answers for
// the usual file (name first, a plain word), and leaves every other form
// to the full parse.
func TestLeadingName(t *testing.T) {
	tests := map[string]struct {
		file string
		want string // "" when the fast path must not answer
	}{
		"name first":                 {file: "name: alpha\nruntime: yaml\nresources:\n  a:\n    type: t\n", want: "alpha"},
		"after comments":             {file: "# a project\n\n  # indented comment\nname: alpha-2.b_c\nresources: {}\n", want: "alpha-2.b_c"},
		"with a comment":             {file: "name: alpha   # the project\nresources: {}\n", want: "alpha"},
		"CRLF":                       {file: "name: alpha\r\nresources: {}\r\n", want: "alpha"},
		"alone":                      {file: "name: alpha", want: "alpha"},
		"digits":                     {file: "name: 123\n", want: "123"},
		"a word YAML reads as bool":  {file: "name: true\n", want: "true"},
		"quoted":                     {file: "name: \"alpha\"\n"},
		"single quoted":              {file: "name: 'alpha'\n"},
		"continued on the next line": {file: "name: alpha\n  beta\nresources: {}\n"},
		"continued after a comment":  {file: "name: alpha\n# c\n  beta\n"},
		"no space after the colon":   {file: "name:alpha\n"},
		"null":                       {file: "name: null\nresources: {}\n"},
		"tilde":                      {file: "name: ~\n"},
		"empty":                      {file: "name:\nresources: {}\n"},
		"hash inside the word":       {file: "name: al#pha\n"},
		"not first":                  {file: "runtime: yaml\nname: alpha\n"},
		"document marker":            {file: "---\nname: alpha\n"},
		"directive":                  {file: "%YAML 1.2\n---\nname: alpha\n"},
		"indented mapping":           {file: " name: alpha\n"},
		"byte order mark":            {file: "\ufeffname: alpha\n"},
		"anchor":                     {file: "name: &n alpha\n"},
		"tag":                        {file: "name: !!str alpha\n"},
		"flow mapping":               {file: "{name: alpha}\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := leadingName([]byte(tc.file))
			if want := tc.want != ""; ok != want {
				t.Fatalf("leadingName answered %v (%q), want %v", ok, got, want)
			}
			if !ok {
				return
			}
			var top struct {
				Name string `yaml:"name"`
			}
			if err := goyaml.Unmarshal([]byte(tc.file), &top); err != nil {
				t.Fatalf("the full parse fails: %v", err)
			}
			if got != tc.want || got != top.Name {
				t.Errorf("leadingName = %q, want %q; the full parse finds %q", got, tc.want, top.Name)
			}
		})
	}
}

// TestNameKeyReadsNoFurther: with the name first, nameKey does not parse
// the rest of the file (a large program's resources); YAML wrong further
// on is reported when the program loads, not here.
func TestNameKeyReadsNoFurther(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plinth.yaml")
	if err := os.WriteFile(path, []byte("name: alpha\nresources:\n  a: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := nameKey(path); err != nil || got != "alpha" {
		t.Errorf("nameKey = %q, %v; want alpha", got, err)
	}
}
