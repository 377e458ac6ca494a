package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// passphrase: what a stack's passphrase costs a command. examples/quickstart
// is made with `up`, then previewed n times (default 20) with
// PLINTH_PASSPHRASE, and as often with a generated key file as the
// yardstick: the difference is what deriving the key (argon2id, 64 MiB)
// adds to a no-change preview. It also runs a copy of quickstart without
// its secret, whose state holds none. The passphrase rows run twice: with
// the key agent off, so each preview derives the key, and with it on
// (PLINTH_KEY_AGENT=on, in a directory of the bench's), started by an
// untimed preview first, so each timed preview gets the key from it; the
// agent is made to forget and exit at the end. Each figure is the median
// of the runs, wall time and the child's user+system CPU (the agent's
// CPU, a few hundred microseconds per request, is not the child's).
func (h *harness) passphrase() error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	src, err := os.ReadFile(filepath.Join(root, "examples", "quickstart", "plinth.yaml"))
	if err != nil {
		return err
	}
	runs := h.size(20)
	fmt.Printf("passphrase: %d no-change previews of examples/quickstart per row\n", runs)
	type row struct {
		name    string
		program string
		env     []string
		warm    bool // the agent is started, untimed, before the runs
	}
	xdg := filepath.Join(h.work, "xdg")
	pw := []string{"PLINTH_PASSPHRASE=bench-passphrase", "PLINTH_KEY_AGENT=off"}
	agent := []string{"PLINTH_PASSPHRASE=bench-passphrase", "PLINTH_KEY_AGENT=on", "XDG_RUNTIME_DIR=" + xdg}
	defer func() {
		forget := exec.Command(h.plinth, "secrets", "forget")
		forget.Env = append(os.Environ(), agent...)
		_ = forget.Run()
	}()
	rows := []row{
		{"quickstart, key file", string(src), nil, false},
		{"quickstart, passphrase", string(src), pw, false},
		{"quickstart, agent", string(src), agent, true},
		{"no secret, key file", withoutSecret(string(src)), nil, false},
		{"no secret, passphrase", withoutSecret(string(src)), pw, false},
		{"no secret, agent", withoutSecret(string(src)), agent, true},
	}
	fmt.Printf("\n%-30s %10s %10s\n", "stack", "wall", "cpu")
	for i, r := range rows {
		project := filepath.Join(h.work, fmt.Sprintf("passphrase-%d", i))
		if err := writeFile(filepath.Join(project, "plinth.yaml"), r.program); err != nil {
			return err
		}
		upEnv := r.env
		if r.warm {
			upEnv = pw // timed: see below
		}
		if _, err := timed(project, upEnv, h.plinth, "up", "--yes"); err != nil {
			return err
		}
		if r.warm {
			// Untimed: the agent it starts outlives it, and the harness
			// would wait for it as an orphan.
			if _, _, err := medianRuns(project, r.env, 1, h.plinth, "preview"); err != nil {
				return err
			}
		}
		wall, cpu, err := medianRuns(project, r.env, runs, h.plinth, "preview", "--detailed-exitcode")
		if err != nil {
			return err
		}
		fmt.Printf("%-30s %10s %10s\n", r.name, round(wall), round(cpu))
	}
	return nil
}

// withoutSecret is the quickstart program without its secret config key,
// the resource it writes to and the output that shows it.
func withoutSecret(program string) string {
	out, skip := "", false
	for _, line := range strings.SplitAfter(program, "\n") {
		switch {
		case line == "  secretNote:\n":
			skip = true
		case line == "outputs:\n":
			skip = false
		}
		if skip || line == "  token: { type: string, secret: true, default: not-a-real-token }\n" || line == "  token: ${token}\n" {
			continue
		}
		out += line
	}
	return out
}

// medianRuns runs a command n times in dir and returns the medians of its
// wall time and of its user+system CPU time.
func medianRuns(dir string, env []string, n int, name string, args ...string) (wall, cpu time.Duration, err error) {
	var walls, cpus []time.Duration
	for range n {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		var out limitedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, 0, fmt.Errorf("%s %v in %s: %w\n%s", filepath.Base(name), args, dir, err, out.tail())
		}
		walls = append(walls, time.Since(start))
		cpus = append(cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	return median(walls), median(cpus), nil
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}
