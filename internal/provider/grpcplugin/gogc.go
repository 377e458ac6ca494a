package grpcplugin

import (
	"fmt"
	"strconv"
	"strings"
)

// The collector setting of the plugins plinth starts.
//
// Most plugins are Go programs, and Go's collector runs when the heap has
// grown by GOGC percent over what the last collection kept, but never
// below a minimum heap of 4 MB × GOGC/100. A provider that keeps little
// (random keeps a few MB) so collects after every few MB it allocates:
// several collections per hundred calls, a third of its CPU. A higher
// GOGC raises both the minimum and the growth, so it would also multiply
// the heap of a provider that keeps hundreds of MB (aws), which the
// minimum never held back. So the GOGC is chosen per binary, from the
// peak memory of its largest run (Memory, kept by the adapter in the
// schema cache beside the binary's schema): what the higher setting adds is
// bounded by ExtraHeap, and a plugin plinth knows nothing of keeps Go's
// default. GOMEMLIMIT is never set: a limit below what a plugin keeps
// would have it collect without end.

// GOGCEnv names the variable that turns the choice off: "off" leaves
// every plugin at Go's default (or at the user's GOGC); unset or "auto"
// lets plinth choose.
const GOGCEnv = "PLINTH_PLUGIN_GOGC"

// ExtraHeap bounds the heap a chosen GOGC may add to a plugin, over what
// it would use at Go's default, estimated from its last run.
const ExtraHeap = 64 << 20

// MaxGOGC is the highest GOGC plinth chooses; minGOGC the lowest worth
// setting (below it the default is left alone).
const (
	MaxGOGC = 400
	minGOGC = 150
)

// defaultGOGC is Go's default GOGC.
const defaultGOGC = 100

// Memory is what a plugin binary used in a run: its peak resident memory
// and the GOGC it ran with.
type Memory struct {
	PeakRSS uint64
	GOGC    int
}

// Encode writes m as one line, "peak_rss=<bytes> gogc=<n>".
func (m Memory) Encode() []byte {
	return fmt.Appendf(nil, "peak_rss=%d gogc=%d\n", m.PeakRSS, m.GOGC)
}

// ParseMemory reads what Encode wrote; ok is false for anything else.
func ParseMemory(b []byte) (m Memory, ok bool) {
	n, err := fmt.Sscanf(string(b), "peak_rss=%d gogc=%d\n", &m.PeakRSS, &m.GOGC)
	if err != nil || n != 2 || m.PeakRSS == 0 || m.GOGC <= 0 {
		return Memory{}, false
	}
	return m, true
}

// Kept estimates the heap the run kept: at most its peak over
// (1 + GOGC/100). The peak also holds the binary's pages, stacks and the
// runtime's own, so this overestimates it, which errs towards the
// default.
func (m Memory) Kept() uint64 {
	if m.GOGC <= 0 {
		return m.PeakRSS
	}
	return m.PeakRSS * 100 / uint64(100+m.GOGC)
}

// Larger is whichever of last (ok false if none) and run kept more: the
// record a binary keeps, so that a small command (a destroy of one
// resource) does not raise the GOGC of the large one after it.
func Larger(last Memory, ok bool, run Memory) Memory {
	if ok && last.Kept() >= run.Kept() {
		return last
	}
	return run
}

// Collector is the collector setting of one plugin start: the variable to
// add to its environment ("" for none) and the GOGC it will run with (0
// when unknown: the user set GOGC or GOMEMLIMIT, or turned the choice
// off), so that its Memory can be recorded.
type Collector struct {
	Env  string
	GOGC int
}

// ChooseGOGC decides the collector setting of a plugin whose environment
// is environ (plinth's) plus extra (the adapter's), given the Memory of
// its last run (ok false if none). A GOGC or GOMEMLIMIT in either is the
// user's and is kept. An invalid GOGCEnv is an error.
func ChooseGOGC(getenv func(string) string, environ, extra []string, last Memory, ok bool) (Collector, error) {
	switch v := getenv(GOGCEnv); v {
	case "", "auto":
	case "off":
		if userSetGC(environ, extra) {
			return Collector{}, nil
		}
		return Collector{GOGC: defaultGOGC}, nil
	default:
		return Collector{}, fmt.Errorf("%s=%q: use auto (plinth chooses the GOGC of the plugins it starts) or off (Go's default)", GOGCEnv, v)
	}
	if userSetGC(environ, extra) {
		return Collector{}, nil
	}
	g := defaultGOGC
	if ok {
		g = gogcFor(last)
	}
	if g == defaultGOGC {
		return Collector{GOGC: g}, nil
	}
	return Collector{Env: "GOGC=" + strconv.Itoa(g), GOGC: g}, nil
}

// gogcFor chooses a GOGC from the Memory of the largest run. A GOGC of g
// adds about (g-100)% of what is kept (Memory.Kept) over the default's
// heap, so g = 100 + 100·ExtraHeap/kept keeps the addition near
// ExtraHeap; for a tiny heap the minimum heap rules instead, and 4 MB ×
// (MaxGOGC-100)/100 is within ExtraHeap too.
func gogcFor(m Memory) int {
	kept := m.Kept()
	if kept == 0 {
		return MaxGOGC
	}
	g := defaultGOGC + 100*ExtraHeap/kept
	switch {
	case g >= MaxGOGC:
		return MaxGOGC
	case g < minGOGC:
		return defaultGOGC
	}
	return int(g)
}

// userSetGC reports whether any of the environments sets GOGC or
// GOMEMLIMIT.
func userSetGC(envs ...[]string) bool {
	for _, env := range envs {
		for _, kv := range env {
			if k, _, _ := strings.Cut(kv, "="); k == "GOGC" || k == "GOMEMLIMIT" {
				return true
			}
		}
	}
	return false
}
