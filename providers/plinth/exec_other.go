//go:build !unix

package plinth

import "os/exec"

// killProcessGroup leaves the default: cancellation kills the shell only.
func killProcessGroup(*exec.Cmd) {}
