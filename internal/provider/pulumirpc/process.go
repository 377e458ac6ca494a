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
	cmd    *exec.Cmd
	log    func(LogLine)
	exited chan struct{} // closed when the process has exited
	err    error         // exit error, set before exited is closed

	mu   sync.Mutex
	tail []string // last stderr lines
	keep int

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
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.tail...)
}

func (p *process) remember(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tail = append(p.tail, line)
	if len(p.tail) > p.keep {
		p.tail = p.tail[len(p.tail)-p.keep:]
	}
}

// forward sends each line of r to the log; for stderr it also keeps the
// tail for crash reports.
func (p *process) forward(r io.Reader, stream string) {
	defer p.drained.Done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if stream == "stderr" {
			p.remember(line)
		}
		p.log(LogLine{Provider: p.name, Stream: stream, Text: line})
	}
}

// wait reaps the process once its output is drained, as exec.Cmd requires.
func (p *process) wait() {
	p.drained.Wait()
	p.err = p.cmd.Wait()
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
	if p.err != nil {
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

// stop asks the process to exit (SIGTERM), then kills it if it has not
// exited within grace.
func (p *process) stop(grace time.Duration) {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if !p.hasExited(grace) {
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}
