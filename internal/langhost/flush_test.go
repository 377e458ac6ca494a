package langhost

import (
	"context"
	"strings"
	"testing"
)

// writingHost is a host whose program writes to its stdout and exits.
type writingHost struct{ text string }

func (writingHost) Check(*Project) error { return nil }
func (h writingHost) Run(_ context.Context, req RunRequest) error {
	_, err := req.Stdout.Write([]byte(h.text))
	return err
}

// heldLines is a writer that holds what it is given until Flush.
type heldLines struct {
	held    strings.Builder
	flushed []string
}

func (w *heldLines) Write(p []byte) (int, error) { return w.held.Write(p) }
func (w *heldLines) Flush() {
	w.flushed = append(w.flushed, w.held.String())
	w.held.Reset()
}

// TestProgramFlushesOutput: when the program ends, Run flushes a Stdout
// that holds back an unfinished line, so the program's last words
// ("Line 10", written without a newline) are shown.
func TestProgramFlushesOutput(t *testing.T) {
	out := &heldLines{}
	p := &Program{Project: &Project{Name: "proj"}, Host: writingHost{text: "Line 10"}, Stdout: out}
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if len(out.flushed) != 1 || out.flushed[0] != "Line 10" {
		t.Errorf("flushed %q, want one flush of %q", out.flushed, "Line 10")
	}
}
