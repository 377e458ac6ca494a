package cli

import (
	"bytes"
	"sync"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
)

// outputLines is where a Pulumi program's own output (console.log,
// fmt.Println) goes under the Pulumi-style display: each line becomes an
// info diagnostic of the stack, as pulumi shows it ("Diagnostics:", the
// stack's heading, the lines below it). Written straight to the terminal,
// as before, it broke into the display's lines ("Line 10Errln 20 +
// pulumi:pulumi:Stack ..."). A line is reported once it ends, or when the
// program ends (Flush), so a line written in pieces stays one line.
type outputLines struct {
	mu   sync.Mutex
	view display.View
	buf  bytes.Buffer
}

// Write implements io.Writer.
func (o *outputLines) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	for {
		line, err := o.buf.ReadBytes('\n')
		if err != nil { // no newline: keep the piece for the next write
			o.buf.Reset()
			o.buf.Write(line)
			return len(p), nil
		}
		o.report(string(bytes.TrimRight(line, "\r\n")))
	}
}

// Flush reports a last line that did not end in a newline.
func (o *outputLines) Flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.buf.Len() > 0 {
		o.report(o.buf.String())
		o.buf.Reset()
	}
}

// report shows one line; an empty one is dropped, as pulumi drops them
// (pulumi-yaml's warnings, each followed by a blank line, are listed
// without them).
func (o *outputLines) report(line string) {
	if line == "" {
		return
	}
	o.view.Diagnostic(display.Diagnostic{Severity: engine.SeverityInfo, Summary: "Program output", Detail: line, Logged: true})
}
