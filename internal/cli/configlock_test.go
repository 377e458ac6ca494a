package cli_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
)

// TestConcurrentConfigSets runs several `config set` of different keys
// at once, on a plinth program and a Pulumi program, plain and secret,
// with a generated key and with a passphrase, on a new stack. Each
// command is held just before it writes the file until all of them are
// there or a while has passed, which puts every read before every write
// unless the commands exclude each other. Every key must be in the file
// afterwards, and every secret must open. Before the files were locked
// each command wrote back what it had read, and all but one key was
// lost (checked by making lockConfig lock nothing).
func TestConcurrentConfigSets(t *testing.T) {
	const n = 4
	projects := map[string]func(t *testing.T) (dir, file string){
		"plinth program": func(t *testing.T) (string, string) {
			return clitest.CopyDir(t, filepath.Join("testdata", "base")), "plinth.dev.yaml"
		},
		"pulumi program": func(t *testing.T) (string, string) { return pulumiProject(t, ""), "Pulumi.dev.yaml" },
	}
	kinds := map[string]struct {
		flags []string
		env   map[string]string
	}{
		"plain":                   {},
		"secret, generated key":   {flags: []string{"--secret"}},
		"secret with passphrase":  {flags: []string{"--secret"}, env: map[string]string{"PLINTH_PASSPHRASE": "correct horse"}},
		"plain with a passphrase": {env: map[string]string{"PLINTH_PASSPHRASE": "correct horse"}},
	}
	for project, newProject := range projects {
		for kind, k := range kinds {
			t.Run(project+"/"+kind, func(t *testing.T) {
				dir, file := newProject(t)
				held := holdWrites(n)
				opts := clitest.Options{Env: k.env, BeforeConfigWrite: held}
				var wg sync.WaitGroup
				results := make([]clitest.Result, n)
				for i := range n {
					args := append([]string{"config", "set"}, k.flags...)
					args = append(args, fmt.Sprintf("key%d", i), fmt.Sprintf("value %d", i))
					wg.Go(func() { results[i] = clitest.Run(t, dir, opts, args...) })
				}
				wg.Wait()
				for i, r := range results {
					if r.Code != 0 {
						t.Fatalf("config set key%d, one of %d at once: exit %d\n%s", i, n, r.Code, r.Output())
					}
				}
				got := map[string]string{}
				want := map[string]string{}
				for i := range n {
					key := fmt.Sprintf("key%d", i)
					want[key] = fmt.Sprintf("value %d", i)
					r := clitest.Run(t, dir, clitest.Options{Env: k.env}, "config", "get", key)
					got[key] = strings.TrimSuffix(r.Stdout, "\n")
					if r.Code != 0 {
						got[key] = "missing: " + strings.TrimSpace(r.Output())
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					data, _ := os.ReadFile(filepath.Join(dir, file))
					t.Errorf("config after %d config set at once (-want +got):\n%s\n%s:\n%s", n, diff, file, data)
				}
			})
		}
	}
}

// holdWrites returns a BeforeConfigWrite that holds each write until n
// writes are waiting or a second has passed: commands that do not
// exclude each other all read before any writes.
func holdWrites(n int) func(string) {
	var arrived atomic.Int32
	all := make(chan struct{})
	return func(string) {
		if arrived.Add(1) == int32(n) {
			close(all)
		}
		select {
		case <-all:
		case <-time.After(time.Second):
		}
	}
}

// TestConfigSetBesideFirstUp runs `config set --secret` while the first
// `up` of a new passphrase stack is about to commit the stack's salt line
// to plinth.dev.yaml: the `up` is held just before its write until the
// `config set` has finished, or a second has passed. The secret must
// still be in the file afterwards and open, and the salt line too.
// Before the files were locked the `up` wrote back the file as it had
// read it, without the secret (checked by making lockConfig lock
// nothing).
func TestConfigSetBesideFirstUp(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	env := map[string]string{"PLINTH_PASSPHRASE": "correct horse"}
	var set clitest.Result
	var once sync.Once
	setDone := make(chan struct{})
	hold := func(string) {
		once.Do(func() {
			go func() {
				defer close(setDone)
				set = clitest.Run(t, dir, clitest.Options{Env: env}, "config", "set", "--secret", "extra", "s3cr3t")
			}()
			select {
			case <-setDone:
			case <-time.After(time.Second):
			}
		})
	}
	up := clitest.Run(t, dir, clitest.Options{Env: env, BeforeConfigWrite: hold}, "up", "--yes")
	if up.Code != 0 {
		t.Fatalf("up: exit %d\n%s", up.Code, up.Output())
	}
	select { // the config set may have waited for the up's lock
	case <-setDone:
	case <-time.After(time.Minute):
		t.Fatalf("the first up never wrote plinth.dev.yaml, or the config set beside it never ended\n%s", up.Output())
	}
	if set.Code != 0 {
		t.Fatalf("config set --secret beside the first up: exit %d\n%s", set.Code, set.Output())
	}
	got := clitest.Run(t, dir, clitest.Options{Env: env}, "config", "get", "extra")
	data, _ := os.ReadFile(filepath.Join(dir, "plinth.dev.yaml"))
	if got.Code != 0 || got.Stdout != "s3cr3t\n" {
		t.Errorf("config get extra after config set --secret beside the first up: exit %d, want the secret\n%s\nplinth.dev.yaml:\n%s", got.Code, got.Output(), data)
	}
	if !strings.Contains(string(data), "encryptionsalt:") {
		t.Errorf("plinth.dev.yaml lost the salt line:\n%s", data)
	}
}

// holderEnv names the project directory in which the helper process of
// TestConfigLockDiesWithItsHolder runs a `config set` that stops for good
// just before it writes, holding the config files' lock.
const holderEnv = "PLINTH_TEST_CONFIG_LOCK_HOLDER"

// TestConfigLockHolderProcess is the helper process, not a test of its
// own: it does nothing unless holderEnv is set.
func TestConfigLockHolderProcess(t *testing.T) {
	dir := os.Getenv(holderEnv)
	if dir == "" {
		return
	}
	clitest.Run(t, dir, clitest.Options{BeforeConfigWrite: func(string) {
		fmt.Println("holding")
		select {} // until killed
	}}, "config", "set", "held", "never written")
}

// TestConfigLockDiesWithItsHolder kills, with SIGKILL, a process that
// holds the config files' lock in the middle of `config set`. While it
// lives another `config set` waits; once it is dead the other goes on
// at once, with nothing to clean up by hand: the lock dies with its
// holder, as a lock file would not.
func TestConfigLockDiesWithItsHolder(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "base"))
	holder := exec.Command(os.Args[0], "-test.run=^TestConfigLockHolderProcess$")
	holder.Env = append(os.Environ(), holderEnv+"="+dir)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "holding\n" {
		t.Fatalf("the helper process did not reach its write: %q, %v", line, err)
	}
	done := make(chan clitest.Result, 1)
	go func() { done <- clitest.Run(t, dir, clitest.Options{}, "config", "set", "after", "written") }()
	select {
	case r := <-done:
		t.Fatalf("config set finished while another process held the lock:\n%s", r.Output())
	case <-time.After(500 * time.Millisecond):
	}
	if err := holder.Process.Kill(); err != nil { // SIGKILL

		t.Fatal(err)
	}
	_ = holder.Wait()
	var r clitest.Result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("config set still waits for the lock of a process killed a minute ago")
	}
	if r.Code != 0 {
		t.Fatalf("config set after its rival was killed: exit %d\n%s", r.Code, r.Output())
	}
	data, _ := os.ReadFile(filepath.Join(dir, "plinth.dev.yaml"))
	if diff := cmp.Diff("config:\n  after: written\n", string(data)); diff != "" {
		t.Errorf("plinth.dev.yaml (-want +got):\n%s", diff)
	}
}

// TestLosingFirstUpSaysWrongPassphraseOnce: a first `up` whose new stack
// got its secrets configuration from another command at the same time,
// with another passphrase, fails with the wrong passphrase. Every record
// it tried failed with that error (its first resource, its outputs), and
// the command's end found it again; it used to be printed three times.
// It must be printed once. The other command (`config set --secret`,
// with the other passphrase) runs while the `up` derives its new key,
// so it stores its configuration first.
func TestLosingFirstUpSaysWrongPassphraseOnce(t *testing.T) {
	dir := clitest.CopyDir(t, filepath.Join("testdata", "secretout"))
	var once sync.Once
	var winner clitest.Result
	rival := func() {
		once.Do(func() {
			winner = clitest.Run(t, dir, clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "first"}},
				"config", "set", "--secret", "extra", "v1")
		})
	}
	loser := clitest.Run(t, dir, clitest.Options{Env: map[string]string{"PLINTH_PASSPHRASE": "second"}, OnDerive: rival}, "up", "--yes")
	if winner.Code != 0 {
		t.Fatalf("config set --secret while the first up derived its key: exit %d\n%s", winner.Code, winner.Output())
	}
	if loser.Code == 0 || !strings.Contains(loser.Stderr, "Wrong passphrase") {
		t.Fatalf("the up that lost the stack's secrets configuration: exit %d, want Wrong passphrase\n%s", loser.Code, loser.Output())
	}
	if n := strings.Count(loser.Output(), "Wrong passphrase"); n != 1 {
		t.Errorf("the up that lost said Wrong passphrase %d times, want once:\n%s", n, loser.Output())
	}
}
