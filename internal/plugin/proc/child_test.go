package proc_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/plugin/proc"
	"github.com/plinth-iac/plinth/internal/plugin/proc/proctest"
)

// printGroup is a script's first command: it prints the shell's process
// group, which the tests watch.
const printGroup = "cut -d' ' -f5 /proc/$$/stat; "

// runCommandAsPlinth plays plinth running a command for the user: it
// starts PROC_TEST_SCRIPT with proc.StartChild, its output on ours, and
// waits to be killed.
func runCommandAsPlinth() {
	cmd := exec.CommandContext(context.Background(), "sh", "-c", os.Getenv("PROC_TEST_SCRIPT"))
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := proc.StartChild(cmd); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	cmd.Wait()
	time.Sleep(time.Hour)
}

// TestChildDiesWithPlinth: a command plinth started, and the subshell it
// started, are killed when plinth is killed with SIGKILL; the effects
// they had yet to make (after a 1 s sleep) never happen.
func TestChildDiesWithPlinth(t *testing.T) {
	if !proc.TiesChildren {
		t.Skip("this system cannot tie a command to plinth's life")
	}
	dir := t.TempDir()
	script := printGroup + "(sleep 1; echo gc > grandchild) & sleep 1; echo done > child; wait"
	plinth := selfAs("plinth-with-command")
	plinth.Dir, plinth.Env = dir, append(plinth.Env, "PROC_TEST_SCRIPT="+script)
	group := startForGroup(t, plinth)
	plinth.Process.Kill()
	plinth.Wait()
	killed := time.Now()
	if !groupGoneWithin(group, time.Second) {
		t.Errorf("processes %v of the command's group still run 1 s after plinth was killed", groupMembers(group))
	}
	t.Logf("the command's group was gone %s after plinth was killed", time.Since(killed).Round(time.Millisecond))
	time.Sleep(1500 * time.Millisecond)
	for _, f := range []string{"child", "grandchild"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("the command's %s wrote its file after plinth was killed", f)
		}
	}
}

// startForGroup starts cmd (which runs a printGroup script) and returns
// the process group the script printed.
func startForGroup(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	group, aerr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || aerr != nil || group <= 1 {
		cmd.Process.Kill()
		t.Fatalf("the command printed %q as its process group (%v)", line, err)
	}
	t.Cleanup(func() { syscall.Kill(-group, syscall.SIGKILL) })
	return group
}

// TestChildStopsOnCancel: cancelling a command's context sends SIGTERM
// to its group, and SIGKILL after proc.Grace to what ignores SIGTERM;
// nothing of the group is left when Wait returns.
func TestChildStopsOnCancel(t *testing.T) {
	if !proctest.HasDeathSignal { // the test finds the group through /proc
		t.Skip("no /proc process groups to watch on this system")
	}
	tests := map[string]struct {
		setup    string // what runs before the script prints its group
		min, max time.Duration
	}{
		"it obeys SIGTERM":   {max: time.Second},
		"it ignores SIGTERM": {setup: "trap '' TERM; ", min: proc.Grace - 500*time.Millisecond, max: proc.Grace + time.Second},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd := exec.CommandContext(ctx, "sh", "-c", tt.setup+printGroup+"(sleep 30) & sleep 30")
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = w
			if err := proc.StartChild(cmd); err != nil {
				t.Fatal(err)
			}
			w.Close()
			line, _ := bufio.NewReader(r).ReadString('\n')
			group, err := strconv.Atoi(strings.TrimSpace(line))
			if err != nil {
				cancel()
				t.Fatalf("the command printed %q as its process group", line)
			}
			t.Cleanup(func() { syscall.Kill(-group, syscall.SIGKILL) })
			stopped := time.Now()
			cancel()
			cmd.Wait()
			took := time.Since(stopped)
			if took < tt.min || took > tt.max {
				t.Errorf("Wait returned %s after the cancel, want between %s and %s", took.Round(time.Millisecond), tt.min, tt.max)
			}
			if left := groupMembers(group); len(left) > 0 {
				t.Errorf("processes %v of the command's group still run after Wait returned", left)
			}
		})
	}
}

// TestChildRunsAsTheCommand: through its reaper, a command sees its own
// directory and environment (not the reaper's variable), writes to the
// caller's output, and exits with its own status; its parent, the
// reaper, bears the name of this binary.
func TestChildRunsAsTheCommand(t *testing.T) {
	dir := t.TempDir()
	type outcome struct {
		Stdout string
		Code   int
		Signal string
	}
	tests := map[string]struct {
		script string
		want   outcome
	}{
		"output and directory": {script: "echo hi; pwd", want: outcome{Stdout: "hi\n" + dir + "\n"}},
		"environment":          {script: `echo "$NOTE ${PLINTH_CHILD_REAPER-unset}"`, want: outcome{Stdout: "from the caller unset\n"}},
		"exit status":          {script: "exit 7", want: outcome{Code: 7}},
		"killed by a signal":   {script: "kill -TERM $$", want: outcome{Code: -1, Signal: "terminated"}},
		// ps shows the reaper by its binary's name, not as "exe".
		"the reaper's name": {script: "cat /proc/$PPID/comm", want: outcome{Stdout: commName(t) + "\n"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			cmd := exec.CommandContext(context.Background(), "sh", "-c", tt.script)
			cmd.Dir, cmd.Env, cmd.Stdout = dir, append(os.Environ(), "NOTE=from the caller"), &out
			err := proc.StartChild(cmd)
			if err == nil {
				err = cmd.Wait()
			}
			got := outcome{Stdout: out.String()}
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				got.Code = exit.ExitCode()
				if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					got.Signal = ws.Signal().String()
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("the command (-want +got):\n%s", d)
			}
		})
	}
}

// groupMembers lists the running (not zombie) processes of a group.
func groupMembers(group int) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		data, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 3 || fields[0] == "Z" || fields[0] == "X" || fields[2] != strconv.Itoa(group) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(stat)))
		out = append(out, pid)
	}
	return out
}

// groupGoneWithin waits up to d for a group to have no running process.
func groupGoneWithin(group int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if len(groupMembers(group)) == 0 {
			return true
		}
	}
	return len(groupMembers(group)) == 0
}

// commName is this binary's name as /proc/PID/comm shows it: cut at 15
// bytes.
func commName(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(exe)
	return name[:min(len(name), 15)]
}
