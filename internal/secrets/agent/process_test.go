//go:build linux

package agent_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/secrets/agent"
	"github.com/plinth-iac/plinth/internal/secrets/agent/agenttest"
)

// The test binary is the agent too: started as `agent.test __key-agent
// DIR`, as the plinth binary is, it runs agent.Main.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == agent.Command {
		os.Exit(agent.Main(os.Args[2]))
	}
	if os.Getenv(peerEnv) != "" {
		peerMain()
	}
	os.Exit(m.Run())
}

var (
	salt = []byte("0123456789abcdef")
	kdf  = secrets.KDFParams{Time: 3, Memory: 64 * 1024, Threads: 4}
	key  = bytes.Repeat([]byte{7}, secrets.KeySize)
)

// client returns a Client for a fresh agent directory whose agents are
// this test binary, ended when the test ends.
func client(t *testing.T) *agent.Client { return agenttest.Client(t) }

// waitKey waits until the agent of c holds key for pass.
func waitKey(t *testing.T, c *agent.Client, salt []byte, pass string) {
	t.Helper()
	agenttest.WaitFor(t, "the agent holds the key", func() bool {
		got, ok := c.Key(salt, kdf, pass)
		return ok && bytes.Equal(got, key)
	})
}

// TestAgentStartsAndServesLaterCommands: a Keep with no agent running
// starts one, detached, and a later client (a later command) gets the
// key with the same passphrase only; forget empties it and it exits.
func TestAgentStartsAndServesLaterCommands(t *testing.T) {
	first := client(t)
	if _, ok := first.Key(salt, kdf, "right"); ok {
		t.Fatal("a key was found before any was kept")
	}
	first.Keep(salt, kdf, "right\xff", key)
	later := &agent.Client{Dir: first.Dir}
	waitKey(t, later, salt, "right\xff")
	if n := len(agenttest.Pids(first.Dir)); n != 1 {
		t.Errorf("%d agents serve the directory, want 1", n)
	}
	// Invalid UTF-8 must not be folded into another passphrase on the way.
	if _, ok := later.Key(salt, kdf, "right\xfe"); ok {
		t.Error("a passphrase differing in an invalid byte got the key")
	}
	if _, ok := later.Key(salt, kdf, "right\xff"); ok {
		t.Error("the key is still held after a wrong passphrase was tried")
	}
	first.Keep(salt, kdf, "right", key) // the agent that emptied has gone: a new one
	waitKey(t, later, salt, "right")
	f, err := later.Forget()
	if err != nil || f.Keys != 1 {
		t.Fatalf("forget: %+v, %v; want one key forgotten", f, err)
	}
	agenttest.WaitFor(t, "the agent exits", func() bool { return len(agenttest.Pids(first.Dir)) == 0 })
	if _, err := later.Forget(); err != agent.ErrNotRunning {
		t.Errorf("forget with no agent: %v, want ErrNotRunning", err)
	}
}

// TestTwoStartersLeaveOneAgent: two commands that find no agent and
// start one each at once leave one agent, holding both keys.
func TestTwoStartersLeaveOneAgent(t *testing.T) {
	c := client(t)
	other := []byte("fedcba9876543210")
	var wg sync.WaitGroup
	for _, s := range [][]byte{salt, other} {
		wg.Go(func() { c.Keep(s, kdf, "right", key) })
	}
	wg.Wait()
	waitKey(t, c, salt, "right")
	waitKey(t, c, other, "right")
	agenttest.WaitFor(t, "one agent is left", func() bool { return len(agenttest.Pids(c.Dir)) == 1 })
}

// TestAgentExitsWhenItsKeysExpire: an agent whose keys all expired ends.
func TestAgentExitsWhenItsKeysExpire(t *testing.T) {
	c := client(t)
	c.TTL = 300 * time.Millisecond
	c.Keep(salt, kdf, "right", key)
	agenttest.WaitFor(t, "the agent starts", func() bool { return len(agenttest.Pids(c.Dir)) == 1 })
	agenttest.WaitFor(t, "the agent exits", func() bool { return len(agenttest.Pids(c.Dir)) == 0 })
	if _, ok := c.Key(salt, kdf, "right"); ok {
		t.Error("an expired key was handed out")
	}
}

// TestStoppedOrKilledAgentIsAMiss: an agent that stops answering midway
// through a request, or was killed, is a miss (the caller derives), and
// the next Keep starts a new one in place of the dead one's socket.
func TestStoppedOrKilledAgentIsAMiss(t *testing.T) {
	c := client(t)
	c.Timeout = 200 * time.Millisecond
	c.Keep(salt, kdf, "right", key)
	waitKey(t, c, salt, "right")
	pid := agenttest.Pids(c.Dir)[0]
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	agenttest.WaitFor(t, "the agent is stopped", func() bool { return stopped(pid) })
	if _, ok := c.Key(salt, kdf, "right"); ok {
		t.Error("a stopped agent answered")
	}
	answered := make(chan bool)
	go func() {
		_, ok := c.Key(salt, kdf, "right")
		answered <- ok
	}()
	time.Sleep(20 * time.Millisecond)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if <-answered {
		t.Error("an agent killed during the request answered")
	}
	agenttest.WaitFor(t, "the agent is gone", func() bool { return len(agenttest.Pids(c.Dir)) == 0 })
	if _, ok := c.Key(salt, kdf, "right"); ok {
		t.Error("a dead agent's socket answered")
	}
	c.Keep(salt, kdf, "right", key)
	waitKey(t, c, salt, "right")
}

// stopped says whether every thread of process pid is stopped (state T
// in /proc): SIGSTOP takes effect after kill returns.
func stopped(pid int) bool {
	stats, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if _, after, _ := strings.Cut(string(b), ") "); err != nil || !strings.HasPrefix(after, "T") {
			return false
		}
	}
	return len(stats) > 0
}

// TestDirectoryIsRefusedUnlessPrivate: an agent directory that is not
// a directory of this user's with no access for others is never used:
// no agent is started in it, nothing is asked of a socket in it.
func TestDirectoryIsRefusedUnlessPrivate(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string){
		"open to the group": func(t *testing.T, dir string) { mkdir(t, dir, 0o750) },
		"open to others":    func(t *testing.T, dir string) { mkdir(t, dir, 0o701) },
		"a symbolic link to a private directory": func(t *testing.T, dir string) {
			real := dir + ".real"
			mkdir(t, real, 0o700)
			if err := os.Symlink(real, dir); err != nil {
				t.Fatal(err)
			}
		},
		"a file": func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"owned by another user": func(t *testing.T, dir string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a directory away")
			}
			mkdir(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			c := client(t)
			setup(t, c.Dir)
			c.Keep(salt, kdf, "right", key)
			time.Sleep(100 * time.Millisecond) // an agent, had one been started, would be up by now
			if pids := agenttest.Pids(c.Dir); len(pids) != 0 {
				t.Errorf("an agent was started in a refused directory: pids %v", pids)
			}
			if _, ok := c.Key(salt, kdf, "right"); ok {
				t.Error("a key was handed out through a refused directory")
			}
		})
	}
}

func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// TestOffClientNeitherAsksNorStarts: PLINTH_KEY_AGENT=off.
func TestOffClientNeitherAsksNorStarts(t *testing.T) {
	c := client(t)
	c.Keep(salt, kdf, "right", key)
	waitKey(t, c, salt, "right")
	off := *c
	off.Off = true
	if _, ok := off.Key(salt, kdf, "right"); ok {
		t.Error("a client that is off asked the agent")
	}
	pid := agenttest.Pids(c.Dir)[0]
	off.Keep([]byte("fedcba9876543210"), kdf, "right", key)
	if _, ok := c.Key([]byte("fedcba9876543210"), kdf, "right"); ok {
		t.Error("a client that is off handed a key over")
	}
	if f, err := off.Forget(); err != nil || f.PID != pid {
		t.Errorf("forget from a client that is off: %+v, %v; want the agent (pid %d) to forget", f, err, pid)
	}
}

// TestFromEnv: the agent is on at a terminal unless PLINTH_KEY_AGENT=off,
// off elsewhere unless PLINTH_KEY_AGENT=on.
func TestFromEnv(t *testing.T) {
	type want struct {
		Off bool
		TTL time.Duration
	}
	cases := map[string]struct {
		env         map[string]string
		interactive bool
		want        want
	}{
		"terminal":                   {nil, true, want{false, agent.DefaultTTL}},
		"no terminal":                {nil, false, want{true, agent.DefaultTTL}},
		"off at a terminal":          {map[string]string{agent.ModeEnv: "off"}, true, want{true, agent.DefaultTTL}},
		"on without a terminal":      {map[string]string{agent.ModeEnv: "on"}, false, want{false, agent.DefaultTTL}},
		"ttl":                        {map[string]string{agent.TTLEnv: "90s"}, true, want{false, 90 * time.Second}},
		"invalid ttl is the default": {map[string]string{agent.TTLEnv: "soon"}, true, want{false, agent.DefaultTTL}},
	}
	for name, tc := range cases {
		c := agent.FromEnv(func(k string) string { return tc.env[k] }, tc.interactive)
		if diff := cmp.Diff(tc.want, want{c.Off, c.TTL}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
