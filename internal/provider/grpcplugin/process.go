package grpcplugin

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
)

// Process is a running plugin: its first line of stdout (the port), what
// it last wrote to stderr and when it exited.
type Process struct {
	Proc *proc.Process
	// Tail keeps the last stderr lines, bounded in bytes.
	Tail *proc.Tail
	// FirstLine receives the first line of stdout, once.
	FirstLine chan Line

	log     func(stream, line string)
	exited  chan struct{} // closed when the process has exited
	err     error         // exit error, set before exited is closed
	drained sync.WaitGroup
}

// Line is the first line a plugin wrote to stdout, and the error that
// ended it (io.EOF if the output ended first).
type Line struct {
	Text string
	Err  error
}

// Start starts cmd, keeping its last tailLines stderr lines. The first
// line of stdout goes to FirstLine; every later line of stdout and every
// line of stderr goes to log with its stream ("stdout" or "stderr").
func Start(cmd *exec.Cmd, tailLines int, log func(stream, line string)) (*Process, error) {
	pr, err := proc.Start(cmd)
	if err != nil {
		return nil, err
	}
	p := &Process{Proc: pr, Tail: &proc.Tail{Lines: tailLines}, FirstLine: make(chan Line, 1),
		log: log, exited: make(chan struct{})}
	p.drained.Add(2)
	go p.forward(pr.Stderr, "stderr")
	go func() {
		br := bufio.NewReaderSize(pr.Stdout, proc.LineBytes)
		line, err := br.ReadString('\n')
		p.FirstLine <- Line{line, err}
		p.forward(br, "stdout")
	}()
	go p.wait()
	return p, nil
}

// forward sends each line of r to the log, cut at proc.LineBytes (a line
// without end is not kept whole); for stderr it also keeps the tail for
// crash reports. It reads to the end, so the plugin never blocks on a
// full pipe.
func (p *Process) forward(r io.Reader, stream string) {
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
			p.Tail.Write(append(line, '\n'))
		}
		p.log(stream, string(line))
		line = line[:0]
	}
}

// wait reaps the process, then gives its output a moment to drain, so a
// crash report has its last lines.
func (p *Process) wait() {
	p.err = p.Proc.Wait()
	drained := make(chan struct{})
	go func() { p.drained.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(time.Second):
	}
	close(p.exited)
}

// HasExited reports whether the process has exited, waiting up to grace
// for it to do so.
func (p *Process) HasExited(grace time.Duration) bool {
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

// ExitStatus describes how the process ended: "exit status 3", "killed
// by signal killed", or the error that ended it.
func (p *Process) ExitStatus() string {
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

// DescribeTail formats stderr lines for an error message, each on a line
// of its own after indent.
func DescribeTail(lines []string, indent string) string {
	if len(lines) == 0 {
		return "it wrote nothing to stderr"
	}
	return "its last stderr lines:\n" + indent + strings.Join(lines, "\n"+indent)
}

// Stop asks the process to exit (SIGTERM), kills it if it has not exited
// within grace, and then kills what is left of its process group (children
// it started). It returns once the process is reaped, which a child
// holding its output cannot delay beyond proc.WaitDelay.
func (p *Process) Stop(grace time.Duration) {
	if !p.HasExited(0) {
		_ = p.Proc.Signal(syscall.SIGTERM)
		p.HasExited(grace)
	}
	_ = p.Proc.Kill()
	<-p.exited
}

// ParsePort reads the port in a plugin's first line; kind names what the
// plugin should be ("Pulumi resource plugin") when it is not a port.
func ParsePort(name, path, kind, line string) (int, error) {
	s := strings.TrimSpace(line)
	port, err := strconv.Atoi(s)
	if err != nil || port <= 0 || port > 65535 {
		if len(s) > 80 {
			s = s[:80] + "..."
		}
		return 0, fmt.Errorf("provider %s (%s) printed %q where its gRPC port should be: it is not a %s, or it wrote to stdout before its port",
			name, path, s, kind)
	}
	return port, nil
}

// Window is the fixed HTTP/2 flow-control window, of each stream and of
// the connection, of the loopback gRPC connections plinth dials and
// serves (plugins, the resource monitor). Setting it turns off gRPC's
// bandwidth-delay estimation, which otherwise answers nearly every
// message of a slow run of small calls (a language host registering
// resources one by one, a provider's answers) with a PING and its ack:
// a write and a read more on each side of every call, for a bandwidth
// that over loopback there is no need to estimate. 4 MiB lets large
// messages (schemas) through in a few window updates.
const Window = 4 << 20

// Dial connects to the plugin's port on the loopback interface, allowing
// messages of up to 400 MiB, with the window Window.
func Dial(name, path string, port int) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient("127.0.0.1:"+strconv.Itoa(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(400<<20), grpc.MaxCallSendMsgSize(400<<20)),
		grpc.WithInitialWindowSize(Window), grpc.WithInitialConnWindowSize(Window))
	if err != nil {
		return nil, fmt.Errorf("provider %s (%s): connecting to port %d: %w", name, path, port, err)
	}
	return conn, nil
}
