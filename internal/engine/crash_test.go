package engine_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The crash test: a child process runs updates of a few hundred resources
// against a provider whose ledger of what exists lives on disk, and is
// killed with SIGKILL at random moments. After each kill the test plays
// the user: it resolves the pending creates by looking in the ledger (the
// "cloud console"), then runs the update again to completion, and checks
// that ledger and state agree exactly.

const crashResources = 300

func TestMain(m *testing.M) {
	if dir := os.Getenv("PLINTH_CRASH_CHILD"); dir != "" {
		os.Exit(crashChild(dir, os.Getenv("PLINTH_CRASH_MODE"), os.Getenv("PLINTH_CRASH_GEN")))
	}
	os.Exit(pgtest.Main(m))
}

// ledger is the fake cloud: an append-only file of what was made and
// removed. A line is written (not synced: SIGKILL does not lose written
// data) before the provider call returns.
type ledger struct {
	mu   sync.Mutex
	path string
}

func (l *ledger) append(line string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(line + "\n")
	return err
}

// live reads the ledger: the objects that exist, ID -> URN, and how many
// objects each URN has had created.
func readLedger(path string) (live map[string]string, err error) {
	live = map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return live, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Fields(sc.Text())
		switch {
		case len(parts) == 3 && parts[0] == "create":
			live[parts[2]] = parts[1]
		case len(parts) == 2 && parts[0] == "delete":
			delete(live, parts[1])
		}
	}
	return live, sc.Err()
}

func ledgerProvider(l *ledger) *provider.Fake {
	pause := func() { time.Sleep(time.Duration(mrand.IntN(3000)) * time.Microsecond) }
	f := &provider.Fake{
		CreateF: func(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id := hex.EncodeToString(b[:])
			if err := l.append("create " + string(req.URN) + " " + id); err != nil {
				return provider.CreateResponse{}, err
			}
			pause()
			return provider.CreateResponse{ID: id, Outputs: req.Inputs}, nil
		},
		UpdateF: func(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
			pause()
			return provider.UpdateResponse{Outputs: req.News}, l.append("update " + req.ID)
		},
		DeleteF: func(_ context.Context, req provider.DeleteRequest) (provider.DeleteResponse, error) {
			pause()
			return provider.DeleteResponse{}, l.append("delete " + req.ID)
		},
		ReadF: func(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
			live, err := readLedger(l.path)
			if err != nil || live[req.ID] == "" {
				return provider.ReadResponse{}, err
			}
			return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Inputs}, nil
		},
	}
	replaceOnKey(f, "k", false)
	return f
}

// crashProgram is generation gen of the program: resources come and go,
// change (x) and are replaced (k) from one generation to the next; chains
// of five depend on each other; every third replaces delete-first.
func crashProgram(gen int) prog {
	var p prog
	prev := ""
	for i := range crashResources {
		name := fmt.Sprintf("r%03d", i)
		if (i*7+gen)%11 == 0 {
			prev = ""
			continue
		}
		s := spec{name: name, inputs: map[string]any{"x": gen, "k": (gen + i) / 4}}
		if i%5 != 0 && prev != "" {
			s.deps = []string{prev}
		}
		if i%3 == 0 {
			s.opt = func(r *engine.Registration) { r.DeleteBeforeReplace = true }
		}
		p = append(p, s)
		prev = name
	}
	return p
}

func crashChild(dir, mode, genText string) int {
	gen, _ := strconv.Atoi(genText)
	ctx := context.Background()
	s, err := state.Open(ctx, crashBackend(dir), "dev", state.OpenOptions{Command: "crash child"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	src := &source{fakes: map[string]*provider.Fake{"pkg": ledgerProvider(&ledger{path: filepath.Join(dir, "ledger")})}, instances: map[string]int{}}
	opts := engine.Options{Stack: "dev", Project: "proj", Providers: src, Journal: s, Parallel: 8}
	fmt.Println("ready")
	if mode == "refresh" {
		_, err = engine.Refresh(ctx, s.Base(), opts)
	} else {
		_, err = engine.Update(ctx, crashProgram(gen), s.Base(), opts)
	}
	if cerr := s.Close(ctx); err == nil {
		err = cerr
	}
	fmt.Println("done")
	if err != nil {
		fmt.Fprintln(os.Stderr, mode, "failed:", err)
		return 1
	}
	return 0
}

// startChild starts a child and returns once it is about to run its
// operation (it has opened the state), so kills land in the operation and
// not in process start-up.
func startChild(t *testing.T, dir, mode string, gen int) (*exec.Cmd, *bufio.Reader) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PLINTH_CRASH_CHILD="+dir, "PLINTH_CRASH_MODE="+mode, "PLINTH_CRASH_GEN="+strconv.Itoa(gen))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, _ := r.ReadString('\n')
	if line != "ready\n" {
		_ = cmd.Wait()
		t.Fatalf("child did not start: %q; stderr: %s", line, stderr.String())
	}
	t.Cleanup(func() {
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("child stderr: %s", stderr.String())
		}
	})
	return cmd, r
}

func runChild(t *testing.T, dir, mode string, gen int) time.Duration {
	t.Helper()
	cmd, out := startChild(t, dir, mode, gen)
	start := time.Now()
	_, _ = out.ReadString('\n') // "done", printed before the process exits (which can take long under -race)
	took := time.Since(start)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s of generation %d after recovery: %v", mode, gen, err)
	}
	return took
}

func TestCrashAtRandomMomentsLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test runs child processes; skipped with -short")
	}
	crashTest(t)
}

// crashTest runs the crash test against the backend crashBackend opens.
func crashTest(t *testing.T) {
	dir := t.TempDir()
	full := runChild(t, dir, "update", 0)
	checkAgreement(t, dir)
	kills, interrupted, pending, imported := 24, 0, 0, 0
	// On a busy machine many kills land before the run starts or after it
	// ends; more kills are made (up to three times as many) until a third
	// of the planned number have interrupted a run.
	gen := 1
	for ; gen <= kills || interrupted < kills/3 && gen <= 3*kills; gen++ {
		cmd, _ := startChild(t, dir, "update", gen)
		time.Sleep(time.Duration(mrand.Int64N(int64(full))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		r := resolveLikeAUser(t, dir)
		if r.recovered > 0 {
			interrupted++
		}
		pending += r.pending
		if r.imported > 0 {
			imported += r.imported
			runChild(t, dir, "refresh", gen)
		}
		// Kills land within the quickest full run seen, so that a slow
		// first run (a busy machine) does not make most kills land after
		// the run has finished.
		full = min(full, runChild(t, dir, "update", gen))
		checkAgreement(t, dir)
	}
	t.Logf("%d kills: %d interrupted a run with journal entries to recover; %d pending creates resolved, %d of them imported from the ledger", gen-1, interrupted, pending, imported)
	if interrupted < kills/3 {
		t.Errorf("only %d of %d kills landed during a run; the test is not exercising recovery", interrupted, gen-1)
	}
}

type resolution struct{ recovered, pending, imported int }

// resolveLikeAUser breaks the dead child's lock, checks that everything
// the ledger holds is in the state or reported pending, and resolves each
// pending create from the ledger. It reports what it found and did.
func resolveLikeAUser(t *testing.T, dir string) resolution {
	t.Helper()
	ctx := context.Background()
	b := crashBackend(dir)
	if err := b.ForceUnlock(ctx, "dev"); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer func() {
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}()
	live, err := readLedger(filepath.Join(dir, "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	res := resolution{recovered: s.Recovered()}
	recorded := map[string]bool{}
	for _, r := range s.Base().Resources {
		recorded[r.ID] = true
	}
	pendingCreate := map[resource.URN]bool{}
	for _, p := range s.Pending() {
		if p.Blocks() {
			pendingCreate[p.Resource.URN] = true
		}
	}
	unrecorded := map[resource.URN][]string{}
	for id, urn := range live {
		if recorded[id] {
			continue
		}
		if !pendingCreate[resource.URN(urn)] {
			t.Fatalf("the ledger holds %s (%s), which the state neither records nor reports as a pending create", id, urn)
		}
		unrecorded[resource.URN(urn)] = append(unrecorded[resource.URN(urn)], id)
	}
	for urn := range pendingCreate {
		ids := unrecorded[urn]
		if len(ids) > 1 {
			t.Fatalf("%s was created %d times: %v", urn, len(ids), ids)
		}
		id := ""
		if len(ids) == 1 {
			id = ids[0]
			res.imported++
		}
		res.pending++
		if err := s.ResolvePending(ctx, urn, id); err != nil {
			t.Fatalf("resolving %s: %v", urn, err)
		}
	}
	return res
}

// checkAgreement requires that the world and the state hold exactly the
// same resources, one per URN, with nothing pending.
func checkAgreement(t *testing.T, dir string) {
	t.Helper()
	snap, err := state.Load(context.Background(), crashBackend(dir), "dev", state.OpenOptions{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	live, err := readLedger(filepath.Join(dir, "ledger"))
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Pending) > 0 {
		t.Fatalf("after a completed update %d operations are still pending: %v", len(snap.Pending), snap.Pending[0].Describe())
	}
	perURN := map[string]int{}
	for _, urn := range live {
		perURN[urn]++
	}
	inState := 0
	for _, r := range snap.Resources {
		if !r.Custom || state.IsProviderType(r.Type) {
			continue
		}
		inState++
		if r.Delete {
			t.Errorf("%s is still pending deletion after a completed update", r.URN)
		}
		if live[r.ID] != string(r.URN) {
			t.Errorf("state records %s as %s, the ledger does not have it", r.URN, r.ID)
		}
	}
	for urn, n := range perURN {
		if n > 1 {
			t.Errorf("the world holds %d objects for %s", n, urn)
		}
	}
	if inState != len(live) {
		t.Errorf("state holds %d resources, the world %d", inState, len(live))
	}
}
