package display

import (
	"strconv"
	"time"
)

// colour is an ANSI foreground colour; colourNone leaves text as it is.
type colour uint8

const (
	colourNone colour = iota
	colourRed
	colourGreen
	colourYellow
	colourBlue
	colourMagenta
	colourCyan
	colourDim
	colourBold
)

var ansiCodes = [...]string{
	colourRed: "31", colourGreen: "32", colourYellow: "33", colourBlue: "34",
	colourMagenta: "35", colourCyan: "36", colourDim: "2", colourBold: "1",
}

// painter colours text when colour is on.
type painter struct{ on bool }

func (p painter) paint(c colour, s string) string {
	if !p.on || c == colourNone || s == "" {
		return s
	}
	return "\x1b[" + ansiCodes[c] + "m" + s + "\x1b[0m"
}

func itoa(n int) string { return strconv.Itoa(n) }

// Duration formats a duration for people: "35ms", "12.3s", "2m05s".
func Duration(d time.Duration) string {
	if d < time.Second {
		return itoa(int(d.Milliseconds())) + "ms"
	}
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	d = d.Round(time.Second)
	m := int(d / time.Minute)
	s := int((d % time.Minute) / time.Second)
	if s < 10 {
		return itoa(m) + "m0" + itoa(s) + "s"
	}
	return itoa(m) + "m" + itoa(s) + "s"
}
