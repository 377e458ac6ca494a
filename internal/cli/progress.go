package cli

import (
	"fmt"
	"io"
	"strings"
)

// progressBar draws one download's progress on a terminal: a line
// redrawn in place whenever the whole percentage changes, ended with a
// newline when the download ends. Off a terminal nothing is drawn: the
// commands print plain lines instead.
type progressBar struct {
	w          io.Writer
	name       string
	size, done int64
	shown      int // the percentage last drawn; -1 for none
}

const barWidth = 30

// progressBars is a Registry's Progress drawing on w.
func progressBars(w io.Writer) func(name string, size int64) (io.Writer, func()) {
	return func(name string, size int64) (io.Writer, func()) {
		b := &progressBar{w: w, name: name, size: size, shown: -1}
		b.draw()
		return b, b.finish
	}
}

func (b *progressBar) Write(p []byte) (int, error) {
	b.done += int64(len(p))
	if b.percent() != b.shown {
		b.draw()
	}
	return len(p), nil
}

// percent is how much is done; 0 while the size is unknown.
func (b *progressBar) percent() int {
	if b.size <= 0 {
		return 0
	}
	return int(min(b.done*100/b.size, 100))
}

func (b *progressBar) draw() {
	b.shown = b.percent()
	filled := b.shown * barWidth / 100
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled)
	if filled > 0 && filled < barWidth {
		bar = bar[:filled-1] + ">" + bar[filled:]
	}
	total := "?"
	if b.size > 0 {
		total = mebibytes(b.size)
	}
	fmt.Fprintf(b.w, "\r  %s [%s] %3d%% %s/%s", b.name, bar, b.shown, mebibytes(b.done), total)
}

func (b *progressBar) finish() {
	if b.size <= 0 {
		b.size = b.done
	}
	b.draw()
	fmt.Fprintln(b.w)
}

func mebibytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
