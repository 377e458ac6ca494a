package cli

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// outFlushEvery is how often buffered standard output is written out
// while a command runs, so that a long run still shows its progress.
const outFlushEvery = 100 * time.Millisecond

// outBuffer buffers a command's standard output: a 100,000-resource
// update writes a line per step, and a write each cost a system call.
// What people see is unchanged: the buffer is written out before
// anything goes to standard error (stderrAfter), before standard input
// is read (flushBeforeRead), every outFlushEvery, and when the command
// ends (Close), so the two streams keep their order and a prompt shows
// before its answer is read.
type outBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// newOutBuffer buffers w, writing it out every interval until Close.
func newOutBuffer(w io.Writer, interval time.Duration) *outBuffer {
	b := &outBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushEvery(interval)
	return b
}

func (b *outBuffer) flushEvery(interval time.Duration) {
	defer close(b.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.Flush()
		}
	}
}

func (b *outBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

// Flush writes out what is buffered.
func (b *outBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.w.Buffered() == 0 {
		return nil
	}
	return b.w.Flush()
}

// Close stops the periodic writes and writes out the rest.
func (b *outBuffer) Close() error {
	close(b.stop)
	<-b.done
	return b.Flush()
}

// stderrAfter is standard error, written after what standard output
// buffered.
type stderrAfter struct {
	out *outBuffer
	w   io.Writer
}

func (s stderrAfter) Write(p []byte) (int, error) {
	s.out.Flush()
	return s.w.Write(p)
}

// flushBeforeRead is standard input, read after standard output is
// written out: the question is on the screen before the answer is
// awaited.
type flushBeforeRead struct {
	out *outBuffer
	r   io.Reader
}

func (f flushBeforeRead) Read(p []byte) (int, error) {
	f.out.Flush()
	return f.r.Read(p)
}
