package tfplugin

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	plinthplugin "github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/plugin/proc/proctest"
	"github.com/plinth-iac/plinth/internal/provider"
)

// plinthRole, set in a re-run of the test binary, makes it play plinth:
// start the fake provider and print its PID (see TestMain).
const plinthRole = "PLINTH_TFPLUGIN_TEST_PLINTH"

func playPlinth() {
	exe, _ := os.Executable()
	p, err := Start(context.Background(), Config{Path: exe, Name: "fake", Env: []string{fakeModeEnv + "=" + modeInconsistent}})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(p.runner.p.Cmd.Process.Pid)
	time.Sleep(time.Hour)
}

func startFakeConfig(t *testing.T, mode string, timeout time.Duration) (*Provider, error) {
	t.Helper()
	exe, err := os.Executable()
	mustOK(t, "os.Executable", err)
	return Start(context.Background(), Config{Path: exe, Dir: t.TempDir(), Name: "fake", Env: []string{fakeModeEnv + "=" + mode}, StartTimeout: timeout})
}

// TestProviderDiesWithPlinth: SIGKILL plinth; its provider is gone within 5 s.
func TestProviderDiesWithPlinth(t *testing.T) {
	if !proctest.HasDeathSignal {
		t.Skip("no parent-death signal on this system")
	}
	exe, err := os.Executable()
	mustOK(t, "os.Executable", err)
	plinth := exec.Command(exe)
	plinth.Env = append(os.Environ(), plinthRole+"=1")
	out, _ := plinth.StdoutPipe()
	mustOK(t, "start plinth", plinth.Start())
	line, _ := bufio.NewReader(out).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		plinth.Process.Kill()
		t.Fatalf("plinth said %q", line)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	plinth.Process.Kill()
	plinth.Wait()
	if !proctest.GoneWithin(pid, 5*time.Second) {
		t.Errorf("provider %d still runs 5 s after plinth was killed", pid)
	}
}

// TestHandshakeTimeout: a provider that never completes go-plugin's
// handshake fails after the timeout in the environment, naming the binary
// and the variable.
func TestHandshakeTimeout(t *testing.T) {
	t.Setenv(plinthplugin.HandshakeTimeoutEnv, "700ms")
	start := time.Now()
	p, err := startFakeConfig(t, modeSilent, 0)
	if err == nil {
		p.Close()
		t.Fatal("Start succeeded")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Start took %s", took)
	}
	exe, _ := os.Executable()
	for _, w := range []string{exe, "did not complete its handshake within 700ms", plinthplugin.HandshakeTimeoutEnv} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

// TestStartCancelled: a cancelled context (a second Ctrl-C) ends a start
// at once.
func TestStartCancelled(t *testing.T) {
	exe, _ := os.Executable()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	p, err := Start(ctx, Config{Path: exe, Dir: t.TempDir(), Name: "fake", Env: []string{fakeModeEnv + "=" + modeSilent}, StartTimeout: time.Hour})
	if err == nil {
		p.Close()
		t.Fatal("Start succeeded")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a cancelled Start took %s", took)
	}
	if !strings.Contains(err.Error(), "was cancelled") {
		t.Errorf("error %q does not say the start was cancelled", err)
	}
}

// TestStderrSpamIsBounded: what is kept of a provider's stderr stays
// within proc.TailBytes however much it writes.
func TestStderrSpamIsBounded(t *testing.T) {
	p, err := startFakeConfig(t, modeSpam, 0)
	mustOK(t, "Start", err)
	defer p.Close()
	if got := p.tail.Size(); got > proc.TailBytes {
		t.Errorf("kept %d bytes of stderr, want at most %d", got, proc.TailBytes)
	}
	if len(p.tail.Get()) == 0 {
		t.Errorf("kept nothing of stderr")
	}
}

// TestClientCertificate: the provider is given a P-256 client
// certificate (not go-plugin's AutoMTLS P-521 one, whose key took 12 ms
// to make before every start), and plinth connects to it: the provider,
// given a certificate, serves only mutual TLS, so a plain or otherwise
// mismatched connection would fail Start and Configure.
func TestClientCertificate(t *testing.T) {
	log := filepath.Join(t.TempDir(), "cert")
	exe, err := os.Executable()
	mustOK(t, "os.Executable", err)
	p, err := Start(context.Background(), Config{Path: exe, Dir: t.TempDir(), Name: "fake",
		Env: []string{fakeModeEnv + "=" + modePlain, fakeCertLogEnv + "=" + log}})
	mustOK(t, "Start", err)
	defer p.Close()
	_, err = p.Configure(context.Background(), provider.ConfigureRequest{})
	mustOK(t, "Configure over mutual TLS", err)
	got, err := os.ReadFile(log)
	mustOK(t, "reading what the fake was given", err)
	if want := "client certificate with an ECDSA P-256 key"; string(got) != want {
		t.Errorf("the provider was given: %s; want: %s", got, want)
	}
}
