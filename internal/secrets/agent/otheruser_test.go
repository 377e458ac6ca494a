//go:build linux

package agent_test

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/plinth-iac/plinth/internal/secrets/agent/agenttest"
)

// peerEnv makes the test binary a raw client instead (see peerMain).
const peerEnv = "AGENT_TEST_PEER_SOCKET"

// peerMain asks the agent at the socket $AGENT_TEST_PEER_SOCKET for the
// test key with the right passphrase, bypassing the Client's own checks,
// and prints "key" if it answered with one, else "refused".
func peerMain() {
	conn, err := net.Dial("unix", os.Getenv(peerEnv))
	if err != nil {
		os.Stdout.WriteString("dial: " + err.Error())
		os.Exit(1)
	}
	_ = json.NewEncoder(conn).Encode(map[string]any{"op": "key", "salt": salt, "kdf": kdf, "passphrase": []byte("right")})
	b, _ := io.ReadAll(conn)
	var resp struct{ Key []byte }
	if json.Unmarshal(b, &resp) == nil && len(resp.Key) > 0 {
		os.Stdout.WriteString("key")
	} else {
		os.Stdout.WriteString("refused")
	}
	os.Exit(0)
}

// TestAnotherUserIsRefused: a process of another uid that reaches the
// agent's socket (here because the test opens the directory, which
// plinth never does) gets nothing: the agent asks the kernel who
// connected. The same raw client run as the agent's own user gets the
// key. Needs root, to run a process as another user.
func TestAnotherUserIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	base, err := os.MkdirTemp("", "agentpeer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	exe := filepath.Join(base, "agent.test")
	copyFile(t, exe)
	c := client(t)
	c.Dir = filepath.Join(base, "agent")
	agenttest.Cleanup(t, c.Dir)
	c.Keep(salt, kdf, "right", key)
	waitKey(t, c, salt, "right")
	sock := filepath.Join(c.Dir, "agent.sock")
	for _, p := range []string{base, c.Dir, sock} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct {
		cred *syscall.Credential
		want string
	}{
		"own uid":   {nil, "key"},
		"uid 65534": {&syscall.Credential{Uid: 65534, Gid: 65534}, "refused"},
	} {
		cmd := exec.Command(exe)
		cmd.Env = []string{peerEnv + "=" + sock}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: tc.cred}
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != tc.want {
			t.Errorf("%s: %q (%v), want %q", name, got, err, tc.want)
		}
	}
}

func copyFile(t *testing.T, to string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
