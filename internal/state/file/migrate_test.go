package file_test

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/statetest"
)

// migrateChildEnv, set to "FROM TO PART", makes the test binary a
// migrate that stops before it writes PART, says so on standard output
// and waits to be killed.
const migrateChildEnv = "PLINTH_TEST_MIGRATE_CHILD"

func TestMain(m *testing.M) {
	if arg := os.Getenv(migrateChildEnv); arg != "" {
		os.Exit(migrateChild(strings.SplitN(arg, " ", 3)))
	}
	os.Exit(m.Run())
}

func migrateChild(args []string) int {
	stop := func(p state.Part) {
		if string(p) == args[2] {
			fmt.Printf("stopped before the %s\n", p)
			time.Sleep(time.Minute)
		}
	}
	_, err := state.Migrate(context.Background(), file.New(args[0]), file.New(args[1]), "dev", state.MigrateOptions{BeforeWrite: stop})
	fmt.Println("migrate ended:", err)
	return 1
}

// TestMigrateKilled kills (SIGKILL) a migrate between file backends at
// each point of its copy. The source is left as it was, and works once
// its lock is broken (`plinth state unlock`); migrate run again, with
// the target's lock broken too, finishes the copy.
func TestMigrateKilled(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		part state.Part
		// marked writes the target's stack.json, as a kill between it
		// and snapshot.json leaves it.
		marked bool
	}{
		{part: state.PartSecrets}, {part: state.PartSnapshot}, {part: state.PartSnapshot, marked: true},
		{part: state.PartJournal}, {part: state.PartHistory},
	} {
		t.Run(fmt.Sprintf("%s marked=%v", c.part, c.marked), func(t *testing.T) {
			from, to := t.TempDir(), t.TempDir()
			statetest.SeedKilledStack(t, file.New(from))
			before := files(t, from)
			killMigrate(t, from, to, c.part)
			if c.marked {
				data, err := os.ReadFile(filepath.Join(from, "stacks", "dev", "stack.json"))
				must(t, err)
				must(t, os.WriteFile(filepath.Join(to, "stacks", "dev", "stack.json"), data, 0o600))
			}
			src, dst := file.New(from), file.New(to)
			must(t, src.ForceUnlock(ctx, "dev"))
			must(t, dst.ForceUnlock(ctx, "dev"))
			if diff := cmp.Diff(before, files(t, from)); diff != "" {
				t.Fatalf("the killed migrate changed the source beyond its lock (-before +after):\n%s", diff)
			}
			if _, err := state.Load(ctx, src, "dev", state.OpenOptions{Verify: true}); err != nil {
				t.Fatalf("the source does not load after the kill: %v", err)
			}
			rep, err := state.Migrate(ctx, src, dst, "dev", state.MigrateOptions{})
			if err != nil {
				t.Fatalf("migrate run again: %v", err)
			}
			if rep.JournalRecords != 1 || rep.HistoryRecords != 1 {
				t.Errorf("migrate run again copied %+v, want a journal record and a history record", rep)
			}
			if diff := cmp.Diff(before, files(t, from)); diff != "" {
				t.Errorf("migrate changed the source (-before +after):\n%s", diff)
			}
			s, err := state.Open(ctx, src, "dev", state.OpenOptions{Command: "test"})
			if err != nil {
				t.Fatalf("the source does not open: %v", err)
			}
			must(t, s.Close(ctx))
		})
	}
}

// killMigrate runs a migrate from from to to in a process of its own,
// and kills it once it stops before writing part.
func killMigrate(t *testing.T, from, to string, part state.Part) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), migrateChildEnv+"="+from+" "+to+" "+string(part))
	out, err := cmd.StdoutPipe()
	must(t, err)
	cmd.Stderr = os.Stderr
	must(t, cmd.Start())
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "stopped before") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the migrate did not stop before the %s: %q", part, line)
	}
	must(t, cmd.Process.Kill())
	_ = cmd.Wait()
}

// files returns every file under dir and its contents.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	must(t, err)
	return out
}
