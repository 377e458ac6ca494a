package display

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/internal/engine"
)

// liveView draws a LiveModel on a terminal with plain ANSI: finished
// steps scroll up as permanent lines, and below them the block of steps
// in flight is erased and redrawn on every change and every tick.
type liveView struct {
	opts Options

	mu     sync.Mutex
	m      *LiveModel
	height int // lines of the block drawn last
	// pending are permanent lines not yet drawn: with many steps a second,
	// the block is redrawn at most once a tick, not once an event.
	pending []string
	drawn   time.Time
	stop    chan struct{}
	ticker  sync.WaitGroup
}

func newLiveView(opts Options) *liveView { return &liveView{opts: opts} }

func (v *liveView) Begin(op Operation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m != nil {
		fmt.Fprintln(v.opts.Out)
	}
	v.m = NewLiveModel(v.opts, op, v.opts.now())
	fmt.Fprintln(v.opts.Out, v.m.f.paint(colourBold, op.title()))
	v.draw(nil)
	tick := v.opts.Tick
	if tick == 0 {
		tick = 200 * time.Millisecond
	}
	if tick > 0 {
		v.stop = make(chan struct{})
		v.ticker.Add(1)
		go v.tick(tick)
	}
}

func (v *liveView) tick(every time.Duration) {
	defer v.ticker.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-v.stop:
			return
		case <-t.C:
			v.mu.Lock()
			v.flush()
			v.mu.Unlock()
		}
	}
}

func (v *liveView) Event(e engine.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.opts.now()
	v.pending = append(v.pending, v.m.Apply(e, now)...)
	if v.opts.Tick < 0 || now.Sub(v.drawn) >= redrawEvery {
		v.flush()
	}
}

// redrawEvery is the least time between two redraws caused by events.
const redrawEvery = 50 * time.Millisecond

func (v *liveView) flush() {
	v.draw(v.pending)
	v.pending = v.pending[:0]
}

func (v *liveView) Diagnostic(d Diagnostic) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil { // before the first operation: nothing to redraw
		fmt.Fprintln(v.opts.Out, d.text(painter{on: v.opts.Colour}))
		return
	}
	v.pending = append(v.pending, strings.Split(d.text(v.m.f.painter), "\n")...)
	v.flush()
}

func (v *liveView) Notice(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		fmt.Fprintln(v.opts.Out, s)
		return
	}
	v.pending = append(v.pending, v.m.f.paint(colourYellow, s))
	v.flush()
}

func (v *liveView) End(o Outcome) {
	if v.stop != nil {
		close(v.stop)
		v.ticker.Wait()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.pending) > 0 {
		v.flush()
	}
	v.erase()
	writeEnd(v.opts, v.m.f.painter, v.m.op, o, v.m.Elapsed(v.opts.now()))
}

// draw erases the block, writes the permanent lines and draws the block
// again.
func (v *liveView) draw(permanent []string) {
	var b strings.Builder
	v.eraseInto(&b)
	for _, l := range permanent {
		b.WriteString(l + "\n")
	}
	frame := v.m.Frame(v.opts.now())
	for _, l := range frame {
		b.WriteString(fit(l, v.opts.Width) + "\n")
	}
	v.height = len(frame)
	v.drawn = v.opts.now()
	fmt.Fprint(v.opts.Out, b.String())
}

func (v *liveView) erase() {
	var b strings.Builder
	v.eraseInto(&b)
	fmt.Fprint(v.opts.Out, b.String())
	v.height = 0
}

// eraseInto moves the cursor up over the last block and clears to the
// end of the screen.
func (v *liveView) eraseInto(b *strings.Builder) {
	if v.height > 0 {
		fmt.Fprintf(b, "\x1b[%dA\x1b[J", v.height)
	}
}

// fit cuts a line to width visible columns (ANSI colour sequences take
// none), so that no line wraps and the block's height stays its line
// count. Width 0 leaves the line alone.
func fit(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) < width {
		return s
	}
	var b strings.Builder
	cols := 0
	for i := 0; i < len(s); {
		if s[i] == '\x1b' {
			j := strings.IndexByte(s[i:], 'm')
			if j < 0 {
				break
			}
			b.WriteString(s[i : i+j+1])
			i += j + 1
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if cols < width-1 {
			b.WriteRune(r)
			cols++
		}
		i += size
	}
	return b.String()
}
