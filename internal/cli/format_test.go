package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
