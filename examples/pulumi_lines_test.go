package examples_test

import (
	"regexp"
	"strings"
)

// stepLine matches a step line of a Pulumi program's plain output, as
// pulumi writes it when its output is not a terminal: " +  type name
// create", " ~  type name updated (0.05s) [diff: ~content]".
var stepLine = regexp.MustCompile(`^ (\+-|\+\+|--|[+~=>-] ) \S+ \S+ `)

// stepDuration is the time in a finished step's line: " (0.05s)".
var stepDuration = regexp.MustCompile(` \(\d+(\.\d+)?s\)`)

// stepLines returns the step lines of a Pulumi program's plain output,
// trimmed, without their durations: "~  plinth:fs:File note-file update
// [diff: ~content]".
func stepLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if stepLine.MatchString(l) {
			lines = append(lines, strings.TrimSpace(stepDuration.ReplaceAllString(l, "")))
		}
	}
	return lines
}
