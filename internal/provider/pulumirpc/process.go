package pulumirpc

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
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
// and when it exited, the collector setting it was started with and the
// key its memory is recorded under ("" if its binary's checksum was not
// known at the start; gogc.go).
type process struct {
	*grpcplugin.Process
	name   string
	path   string
	gc     grpcplugin.Collector
	memKey string
}

// describeTail formats the stderr tail for an error message.
func describeTail(lines []string) string {
	return grpcplugin.DescribeTail(lines, "    ")
}
