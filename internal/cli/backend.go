package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/postgres"
)

// BackendEnv names the environment variable that chooses the state
// backend, as --backend does.
const BackendEnv = "PLINTH_BACKEND"

// backendChoice returns the state backend's address and where it was
// chosen: --backend, else PLINTH_BACKEND, else `backend:` in plinth.yaml,
// else "" (the project's .plinth directory).
func (w *workspace) backendChoice() (addr, from string) {
	if w.a.g.backend != "" {
		return w.a.g.backend, "--backend"
	}
	if v := w.a.env.getenv(BackendEnv); v != "" {
		return v, BackendEnv
	}
	if v := projectBackend(filepath.Join(w.dir, "plinth.yaml")); v != "" {
		return v, "backend: in " + filepath.Join(w.arg, "plinth.yaml")
	}
	return "", ""
}

// projectBackend reads the backend key of plinth.yaml, "" if it has none
// or cannot be read (loading the program reports that).
func projectBackend(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || !mayNameBackend(data) {
		return ""
	}
	var top struct {
		Backend string `yaml:"backend"`
	}
	_ = yaml.Unmarshal(data, &top)
	return top.Backend
}

// mayNameBackend reports whether a YAML document could have a backend
// key: only if it spells the word, or has an escape (a double-quoted
// "\x62ackend" is the same key). Most programs do neither, and parsing
// one only to find no key cost a second full parse of the program (0.7 s
// CPU for 100,000 resources).
func mayNameBackend(data []byte) bool {
	return bytes.Contains(data, []byte("backend")) || bytes.IndexByte(data, '\\') >= 0
}

// openBackend opens the backend at addr for the project in dir: a
// postgres:// URL (the database's stacks of the project named in dir),
// file:PATH (relative to the project), or "" for the project's .plinth
// directory. Backends opened are closed when the
// command ends.
func (a *app) openBackend(ctx context.Context, addr, from, dir string) (state.Backend, error) {
	switch {
	case addr == "":
		return file.New(filepath.Join(dir, stateDirName)), nil
	case strings.HasPrefix(addr, "file:"):
		p := strings.TrimPrefix(strings.TrimPrefix(addr, "file:"), "//")
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return file.New(p), nil
	case postgres.IsURL(addr):
		name, err := projectName(dir)
		if err != nil {
			return nil, display.Errorf("No project name", "%v. The PostgreSQL backend %s (from %s) keeps each project's stacks apart, by the project's name.",
				err, postgres.Redact(addr), from)
		}
		b, err := postgres.Open(ctx, postgres.Config{URL: addr, Project: name})
		if err != nil {
			return nil, display.Errorf("Cannot open the state backend", "%v. Check the URL given by %s, that the server is running and that the user may connect.", err, from)
		}
		a.closers = append(a.closers, b.Close)
		return b, nil
	}
	return nil, display.Errorf("Unknown state backend", "%s names the state backend %q. Use a postgres://user@host:port/database URL, file:DIRECTORY, or nothing for the project's .plinth directory.", from, redactAny(addr))
}

// redactAny hides what may be a password in an address plinth cannot
// parse: everything between "://" and "@".
func redactAny(addr string) string {
	i, j := strings.Index(addr, "://"), strings.LastIndex(addr, "@")
	if i < 0 || j < i {
		return addr
	}
	return addr[:i+3] + "xxxxx" + addr[j:]
}

// describeBackend names the stack's backend for people.
func describeBackend(b state.Backend) string {
	if s, ok := b.(fmt.Stringer); ok {
		return s.String()
	}
	return b.Describe("", state.PartSnapshot)
}
