package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/plinth-iac/plinth/internal/secrets"
)

// The environment variables that set the agent up.
const (
	// ModeEnv is "off" (never ask or start an agent) or "on" (always);
	// unset, the agent is used when standard input is a terminal.
	ModeEnv = "PLINTH_KEY_AGENT"
	// TTLEnv is how long a key is kept after its last use, a Go
	// duration (DefaultTTL if unset or invalid).
	TTLEnv = "PLINTH_KEY_AGENT_TTL"
)

// Client asks this user's agent for keys and hands keys to it, starting
// it when none runs. Every failure is a miss: the caller derives the key
// as if there were no agent.
type Client struct {
	// Dir holds the agent's socket (DefaultDir).
	Dir string
	// Start is the command line that runs an agent, to which Dir is
	// appended (the plinth binary and Command); nil starts none.
	Start []string
	// TTL is how long the agent keeps the keys handed to it after
	// their last use; 0 means DefaultTTL.
	TTL time.Duration
	// Off makes Key and Keep do nothing; Forget still reaches an agent
	// started before.
	Off bool
	// Timeout bounds one request; 0 means 300 ms (a miss then costs a
	// derivation, about that much CPU).
	Timeout time.Duration
}

var _ secrets.KeyCache = (*Client)(nil)

// FromEnv returns the Client of a command: ModeEnv and TTLEnv read with
// getenv, interactive saying whether standard input is a terminal, and
// this executable as the agent.
func FromEnv(getenv func(string) string, interactive bool) *Client {
	c := &Client{Dir: DefaultDir(getenv), TTL: DefaultTTL}
	switch strings.ToLower(getenv(ModeEnv)) {
	case "off", "0", "false", "no":
		c.Off = true
	case "on", "1", "true", "yes":
	default:
		c.Off = !interactive
	}
	c.Off = c.Off || !Supported
	if d, err := time.ParseDuration(getenv(TTLEnv)); err == nil && d > 0 {
		c.TTL = d
	}
	if exe, err := os.Executable(); err == nil {
		c.Start = []string{exe, Command}
	}
	return c
}

// Key returns the key the agent holds for salt, kdf and passphrase.
func (c *Client) Key(salt []byte, kdf secrets.KDFParams, passphrase string) ([]byte, bool) {
	if c.Off {
		return nil, false
	}
	resp, err := c.call(&request{Op: opKey, Salt: salt, KDF: kdf, Passphrase: []byte(passphrase)}, false)
	if err != nil || len(resp.Key) != secrets.KeySize {
		return nil, false
	}
	return resp.Key, true
}

// Keep hands the agent a key that opened its stack's check value,
// starting an agent if none answers. It does not wait for a new agent
// to listen: the key reaches it through a pipe.
func (c *Client) Keep(salt []byte, kdf secrets.KDFParams, passphrase string, key []byte) {
	if c.Off {
		return
	}
	req := &request{Op: opKeep, Salt: salt, KDF: kdf, Passphrase: []byte(passphrase), Key: key, TTL: c.TTL}
	if _, err := c.call(req, true); err == nil || c.Start == nil || !noAgent(err) {
		return
	}
	_ = c.start(req)
}

// ErrNotRunning is returned by Forget when no agent runs.
var ErrNotRunning = errors.New("no key agent is running")

// Forgotten is what Forget did: how many keys the agent dropped, and the
// process id of the agent, which then exits.
type Forgotten struct{ Keys, PID int }

// Forget makes the agent drop every key it holds; holding none, it exits.
func (c *Client) Forget() (Forgotten, error) {
	resp, err := c.call(&request{Op: opForget}, false)
	if noAgent(err) {
		return Forgotten{}, ErrNotRunning
	}
	if err != nil {
		return Forgotten{}, fmt.Errorf("the key agent at %s: %w", socketPath(c.Dir), err)
	}
	return Forgotten{Keys: resp.Forgot, PID: resp.PID}, nil
}

// noAgent says whether err means that nothing listens on the socket.
func noAgent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)
}

// call sends req to the agent and returns its answer. With create, a
// missing Dir is made; it is refused unless only this user can enter it,
// and the agent is refused unless it runs as this user.
func (c *Client) call(req *request, create bool) (response, error) {
	if err := checkDir(c.Dir, create); err != nil {
		return response{}, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 300 * time.Millisecond
	}
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: socketPath(c.Dir), Net: "unix"})
	if err != nil {
		return response{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		return response{}, fmt.Errorf("the socket %s is not served by uid %d", socketPath(c.Dir), os.Getuid())
	}
	var resp response
	if err := writeMessage(conn, req); err != nil {
		return response{}, err
	}
	if err := readMessage(conn, &resp); err != nil {
		return response{}, err
	}
	if resp.Error != "" {
		return response{}, errors.New(resp.Error)
	}
	return resp, nil
}

// start runs an agent with req as its first key, detached: a session of
// its own, no standard streams, an empty environment (no passphrase in
// it), and never waited for but to reap it.
func (c *Client) start(req *request) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command(c.Start[0], append(c.Start[1:], c.Dir)...)
	cmd.Env, cmd.Dir = []string{}, "/"
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = detached()
	err = cmd.Start()
	r.Close()
	if err == nil {
		err = writeMessage(w, req)
		go func() { _ = cmd.Wait() }()
	}
	w.Close()
	return err
}
