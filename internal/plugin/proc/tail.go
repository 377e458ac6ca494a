package proc

import (
	"strings"
	"sync"
)

// Limits of a Tail: what is kept of a plugin's stderr for error messages.
const (
	// TailBytes bounds the lines kept, in bytes.
	TailBytes = 64 << 10
	// LineBytes bounds one line; the rest of a longer line is dropped.
	LineBytes = 4 << 10
)

// Tail is an io.Writer that keeps the last lines written to it, at most
// Lines of them and TailBytes in all, each cut at LineBytes; what scrolls
// out is dropped, so a plugin that writes without end costs bounded
// memory. Skip, if set, leaves out lines it returns true for. It is safe
// for concurrent use.
type Tail struct {
	Lines int // 0 means no limit but the byte limit
	Skip  func(line string) bool

	mu    sync.Mutex
	lines []string
	size  int
	part  []byte
	cut   bool // the line being written was cut
}

// Write implements io.Writer.
func (t *Tail) Write(b []byte) (int, error) {
	n := len(b)
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(b) > 0 {
		i := indexNL(b)
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		t.add(chunk)
		if i < 0 {
			break
		}
		t.endLine()
		b = b[i+1:]
	}
	return n, nil
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func (t *Tail) add(chunk []byte) {
	room := LineBytes - len(t.part)
	if len(chunk) > room {
		chunk, t.cut = chunk[:room], true
	}
	t.part = append(t.part, chunk...)
}

func (t *Tail) endLine() {
	line := string(t.part)
	if t.cut {
		line += " [...]"
	}
	t.part, t.cut = t.part[:0], false
	if t.Skip != nil && t.Skip(line) {
		return
	}
	t.lines = append(t.lines, line)
	t.size += len(line)
	for len(t.lines) > 0 && (t.size > TailBytes || (t.Lines > 0 && len(t.lines) > t.Lines)) {
		t.size -= len(t.lines[0])
		t.lines = t.lines[1:]
	}
	if cap(t.lines) > 4*len(t.lines)+64 {
		t.lines = append([]string(nil), t.lines...) // let what scrolled out go
	}
}

// Get returns the kept lines, with the unfinished last one if any.
func (t *Tail) Get() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.part) > 0 {
		out = append(out, string(t.part))
	}
	return out
}

// Size returns the bytes kept.
func (t *Tail) Size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size + len(t.part)
}

// String renders the kept lines, one per line.
func (t *Tail) String() string { return strings.Join(t.Get(), "\n") }
