package pulumirpc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
)

// LogLine is one line a plugin wrote, or a message it logged through the
// engine service.
type LogLine struct {
	Provider string
	// Stream is "stdout", "stderr" or "engine".
	Stream string
	// Severity is set for engine messages: debug, info, warning or error.
	Severity string
	URN      string
	Text     string
}

func (l LogLine) String() string {
	if l.Severity != "" {
		return fmt.Sprintf("[%s] %s: %s", l.Provider, l.Severity, l.Text)
	}
	return fmt.Sprintf("[%s] %s", l.Provider, l.Text)
}

// process is a running plugin: its command, what it last wrote to stderr
// and when it exited.
type process struct {
	name   string
	path   string
	proc   *proc.Process
	log    func(LogLine)
	exited chan struct{} // closed when the process has exited
	err    error         // exit error, set before exited is closed

	tail *proc.Tail // last stderr lines, bounded in bytes

	drained   sync.WaitGroup  // output readers
	firstLine chan lineResult // the first line of stdout, the port
}

type lineResult struct {
	line string
	err  error
}

// readStdout hands the first line to the launcher, then forwards the rest
// to the log. One goroutine owns stdout, whatever the launcher decides.
func (p *process) readStdout(r *bufio.Reader) {
	line, err := r.ReadString('\n')
	p.firstLine <- lineResult{line, err}
	p.forward(r, "stdout")
}

// stderrTail returns the last lines the plugin wrote to stderr.
func (p *process) stderrTail() []string {
	return p.tail.Get()
}

// forward sends each line of r to the log, cut at proc.LineBytes (a line
// without end is not kept whole); for stderr it also keeps the tail for
// crash reports. It reads to the end, so the plugin never blocks on a
// full pipe.
func (p *process) forward(r io.Reader, stream string) {
	defer p.drained.Done()
	br := bufio.NewReaderSize(r, proc.LineBytes)
	var line []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err != nil {
			return
		}
		if len(line) < proc.LineBytes {
			line = append(line, chunk[:min(len(chunk), proc.LineBytes-len(line))]...)
		}
		if isPrefix {
			continue
		}
		if stream == "stderr" {
			p.tail.Write(append(line, '\n'))
		}
		p.log(LogLine{Provider: p.name, Stream: stream, Text: string(line)})
		line = line[:0]
	}
}

// wait reaps the process, then gives its output a moment to drain, so a
// crash report has its last lines.
func (p *process) wait() {
	p.err = p.proc.Wait()
	drained := make(chan struct{})
	go func() { p.drained.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(time.Second):
	}
	close(p.exited)
}

// hasExited reports whether the process has exited, waiting up to grace
// for it to do so.
func (p *process) hasExited(grace time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	if grace <= 0 {
		return false
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus describes how the process ended.
func (p *process) exitStatus() string {
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	if p.err != nil && !errors.Is(p.err, exec.ErrWaitDelay) {
		return p.err.Error()
	}
	return "exit status 0"
}

// describeTail formats the stderr tail for an error message.
func describeTail(lines []string) string {
	if len(lines) == 0 {
		return "it wrote nothing to stderr"
	}
	return "its last stderr lines:\n    " + strings.Join(lines, "\n    ")
}

// stop asks the process to exit (SIGTERM), kills it if it has not exited
// within grace, and then kills what is left of its process group (children
// it started). It returns once the process is reaped, which a child
// holding its output cannot delay beyond proc.WaitDelay.
func (p *process) stop(grace time.Duration) {
	if !p.hasExited(0) {
		_ = p.proc.Signal(syscall.SIGTERM)
		p.hasExited(grace)
	}
	_ = p.proc.Kill()
	<-p.exited
}
