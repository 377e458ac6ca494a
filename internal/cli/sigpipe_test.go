//go:build unix

package cli_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestClosedStdout runs the real binary as `plinth up --yes | head -1`
// would: the reader takes the first line and closes the pipe while a
// step is in flight. plinth must not die of SIGPIPE: the update
// finishes, its state is saved and the stack is unlocked.
func TestClosedStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the plinth binary")
	}
	bin := filepath.Join(t.TempDir(), "plinth")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/plinth-iac/plinth/cmd/plinth").CombinedOutput(); err != nil {
		t.Fatalf("building plinth: %v\n%s", err, out)
	}
	dir := clitest.CopyDir(t, filepath.Join("testdata", "slow"))
	clitest.MustRun(t, dir, clitest.Options{}, "config", "set", "wait", "1s")
	cmd := exec.Command(bin, "-C", dir, "up", "--yes", "--diff")
	cmd.Env = append(os.Environ(), "PLINTH_HOME="+t.TempDir(), "NO_COLOR=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(stdout).ReadString('\n')
	stdout.Close() // as head does after its line; the nap is still ahead
	err = cmd.Wait()
	if !strings.HasPrefix(first, "Previewing update") || err != nil {
		t.Errorf("first line %q, exit %v, want the preview's title and success\nstderr:\n%s", first, err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ".plinth", "stacks", "dev", "lock")); !os.IsNotExist(err) {
		t.Errorf("the stack is still locked (err %v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "after.txt")); err != nil {
		t.Errorf("the update did not finish: %v", err)
	}
	if ls := clitest.MustRun(t, dir, clitest.Options{}, "state", "ls").Stdout; !strings.Contains(ls, "plinth:fs:File::after") {
		t.Errorf("the update's last step was not recorded:\n%s", ls)
	}
}
