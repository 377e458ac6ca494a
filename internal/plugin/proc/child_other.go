//go:build !unix

package proc

import (
	"fmt"
	"os/exec"
	"time"
)

// StartChild starts cmd, a command plinth runs for the user. This system
// has no process groups to tie it to plinth with: cancelling cmd's
// context kills the command alone, and it outlives a plinth that is
// killed (TiesChildren is false).
func StartChild(cmd *exec.Cmd) error {
	cmd.WaitDelay = Grace + 2*time.Second
	if err := startOnSpawner(cmd); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	return nil
}
