//go:build unix

package pulumiyaml_test

import (
	"syscall"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// children lists the processes of this test process that run binary.
func children(binary string) []int { return clitest.Children(binary) }

// running lists every live process that runs binary, whoever its parent:
// a plugin of this test's own build still running after a command ended
// is one nothing closed. Without /proc it finds none.
func running(binary string) []int { return clitest.Running(binary) }

// killAll kills the processes (this test's own plugins, by pid).
func killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
