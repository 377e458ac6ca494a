package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/display"
)

// diagView records the diagnostics a view is given; nothing else is
// called on it.
type diagView struct {
	display.View
	got []display.Diagnostic
}

func (v *diagView) Diagnostic(d display.Diagnostic) { v.got = append(v.got, d) }

// TestProgramOutputLines: a Pulumi program's output, written in pieces as
// pulumi/pulumi's printf program writes it (console.log and
// process.stdout.write without a newline), becomes one info diagnostic of
// the stack per line, the last on Flush, blank lines dropped, as pulumi
// lists it under Diagnostics (pulumi-yaml's l1-builtin-secret: its
// warnings without the blank lines between them); before, it went to the terminal between the display's own
// lines.
func TestProgramOutputLines(t *testing.T) {
	v := &diagView{}
	o := &outputLines{view: v}
	for _, piece := range []string{"Line 0\nLi", "ne 1\r\n", "\n", "Line 10"} {
		if _, err := o.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if len(v.got) != 2 {
		t.Errorf("%d lines reported before the program ended, want 2 (the blank one dropped, the last without a newline yet)", len(v.got))
	}
	o.Flush()
	o.Flush() // nothing left: no empty line
	var lines []string
	for _, d := range v.got {
		if !d.Logged || d.Where != "" || d.Severity.String() != "info" {
			t.Errorf("diagnostic %+v: want a logged info diagnostic of the stack", d)
		}
		lines = append(lines, d.Detail)
	}
	if diff := cmp.Diff([]string{"Line 0", "Line 1", "Line 10"}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
