//go:build !unix

package provisioner

import "os/exec"

// killGroup leaves cmd's default cancellation (kill the process).
func killGroup(*exec.Cmd) {}
