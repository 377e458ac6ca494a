package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// terminal is one screen that standard output and standard error both
// write to, in the order their writes reach it.
type terminal struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	wrote  chan struct{}
}

func newTerminal() *terminal { return &terminal{wrote: make(chan struct{}, 100)} }

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writes++
	select {
	case t.wrote <- struct{}{}:
	default:
	}
	return t.b.Write(p)
}

func (t *terminal) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}

// TestOutBufferKeepsWhatIsSeen: standard output is buffered (many lines,
// few writes), and yet standard error, a prompt read from standard input
// and the command's end see everything written before them.
func TestOutBufferKeepsWhatIsSeen(t *testing.T) {
	for name, c := range map[string]struct {
		run  func(out *outBuffer, errOut io.Writer, in io.Reader)
		want string
	}{
		"stderr after stdout": {
			run: func(out *outBuffer, errOut io.Writer, _ io.Reader) {
				io.WriteString(out, "step 1\n")
				io.WriteString(errOut, "warning\n")
				io.WriteString(out, "step 2\n")
				out.Close()
			},
			want: "step 1\nwarning\nstep 2\n",
		},
		"prompt before the answer is read": {
			run: func(out *outBuffer, _ io.Writer, in io.Reader) {
				io.WriteString(out, "Do you want to perform this update? [yes/no] ")
				io.ReadAll(in)
				io.WriteString(out, "done\n")
				out.Close()
			},
			want: "Do you want to perform this update? [yes/no] (read)done\n",
		},
		"the end writes the rest": {
			run: func(out *outBuffer, _ io.Writer, _ io.Reader) {
				for range 1000 {
					io.WriteString(out, "+ plinth:random:Pet pet created\n")
				}
				out.Close()
			},
			want: strings.Repeat("+ plinth:random:Pet pet created\n", 1000),
		},
	} {
		t.Run(name, func(t *testing.T) {
			screen := newTerminal()
			out := newOutBuffer(screen, time.Hour)
			in := readMark{screen}
			c.run(out, stderrAfter{out: out, w: screen}, flushBeforeRead{out: out, r: in})
			if diff := cmp.Diff(c.want, screen.String()); diff != "" {
				t.Errorf("what the screen shows (-want +got):\n%s", diff)
			}
		})
	}
}

// readMark is standard input: reading it marks the screen, to show
// what was on it when the answer was awaited.
type readMark struct{ screen *terminal }

func (r readMark) Read([]byte) (int, error) {
	io.WriteString(r.screen, "(read)")
	return 0, io.EOF
}

// TestOutBufferBatchesWrites: a thousand lines reach standard output in
// a handful of writes, not a thousand.
func TestOutBufferBatchesWrites(t *testing.T) {
	screen := newTerminal()
	out := newOutBuffer(screen, time.Hour)
	for range 1000 {
		io.WriteString(out, "+ plinth:random:Pet pet created\n")
	}
	out.Close()
	if screen.writes > 5 {
		t.Errorf("%d writes for 1000 lines, want a few", screen.writes)
	}
}

// TestOutBufferShowsProgress: what a long run writes shows without
// waiting for its end.
func TestOutBufferShowsProgress(t *testing.T) {
	screen := newTerminal()
	out := newOutBuffer(screen, time.Millisecond)
	defer out.Close()
	io.WriteString(out, "Updating stack dev\n")
	deadline := time.After(10 * time.Second)
	for screen.String() == "" {
		select {
		case <-screen.wrote:
		case <-deadline:
			t.Fatal("the buffered line never reached the screen while the command ran")
		}
	}
}

// TestMainBuffersStdout: an update of 300 resources writes its
// 300-odd lines of progress to standard output in a few writes (it
// took one write a line before outBuffer), and the output is whole.
func TestMainBuffersStdout(t *testing.T) {
	dir := t.TempDir()
	var y strings.Builder
	y.WriteString("name: many\nresources:\n")
	for i := range 300 {
		fmt.Fprintf(&y, "  r%d:\n    type: plinth:random:Pet\n    properties: { length: 2 }\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "plinth.yaml"), []byte(y.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	screen := newTerminal()
	var errOut bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: screen, Stderr: &errOut, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), []string{"-C", dir, "up", "--yes"}, env); code != 0 {
		t.Fatalf("up: exit %d\n%s%s", code, screen.String(), errOut.String())
	}
	if n := strings.Count(screen.String(), "\n"); n < 300 || !strings.Contains(screen.String(), "300 created") {
		t.Errorf("up wrote %d lines, want one a resource and its summary:\n%s", n, screen.String())
	}
	if screen.writes > 50 {
		t.Errorf("up wrote its %d lines in %d writes, want them buffered", strings.Count(screen.String(), "\n"), screen.writes)
	}
}
