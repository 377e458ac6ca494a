package statetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Option tunes Run to what a backend can do.
type Option func(*config)

type config struct {
	tear       func(t *testing.T, b state.Backend, stack string)
	corrupt    func(t *testing.T, b state.Backend, stack string, record int)
	staleLocks bool
	lose       func(t *testing.T, b state.Backend, stack string)
	procs      *Processes
	interrupt  func(t *testing.T, b state.Backend, stack string, records [][]byte) error
}

// WithLoseSnapshot lets Run delete a stack's snapshot behind the
// backend's back, as a person or a tool might. Run then checks that the
// stack is reported as lost, never read as empty.
func WithLoseSnapshot(f func(t *testing.T, b state.Backend, stack string)) Option {
	return func(c *config) { c.lose = f }
}

// WithTear lets Run cut the last journal record of a stack short, as a
// kill in the middle of an append would. Without it the torn-tail checks
// are skipped (a transactional backend cannot tear).
func WithTear(f func(t *testing.T, b state.Backend, stack string)) Option {
	return func(c *config) { c.tear = f }
}

// WithCorrupt lets Run damage a journal record (counting from 0) in place.
func WithCorrupt(f func(t *testing.T, b state.Backend, stack string, record int)) Option {
	return func(c *config) { c.corrupt = f }
}

// WithStaleLocks says the backend reports a lock held by a dead process on
// this host as stale.
func WithStaleLocks() Option {
	return func(c *config) { c.staleLocks = true }
}

// Run checks that the backends newBackend makes behave as the state
// package's storage interfaces say. Each subtest gets a fresh backend.
func Run(t *testing.T, newBackend func(t *testing.T) state.Backend, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	tests := map[string]func(*testing.T, state.Backend){
		"snapshot":            testSnapshot,
		"journal":             testJournal,
		"torn tail":           c.testTornTail,
		"corrupt record":      c.testCorruptRecord,
		"lock":                testLock,
		"stale lock":          c.testStaleLock,
		"live lock":           c.testLiveLock,
		"lost snapshot":       c.testLostSnapshot,
		"backup":              testBackup,
		"stacks":              testStacks,
		"secrets config":      testSecretsConfig,
		"secrets create":      testCreateSecretsConfig,
		"secrets create race": testCreateSecretsConfigRace,
		"stack names":         testStackNames,
		"describe":            testDescribe,
		"session":             testSession,
		"session secrets":     testSessionSecrets,
		"two processes":       c.testTwoProcesses,
		"holder death":        c.testHolderDeath,
		"interrupted append":  c.testInterruptedAppend,
		"history":             testHistory,
		"version":             testVersion,
		"tokens":              testTokens,
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) { f(t, newBackend(t)) })
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantNotExist(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s: error = %v, want one matching fs.ErrNotExist", what, err)
	}
}

func testSnapshot(t *testing.T, b state.Backend) {
	ctx := context.Background()
	_, err := b.ReadSnapshot(ctx, "dev")
	wantNotExist(t, "reading a snapshot never written", err)
	big := bytes.Repeat([]byte(`{"x":"0123456789"}`), 1<<18) // 4.5 MiB
	for i, data := range [][]byte{[]byte(`{"a":1}`), big, []byte(`{"b":2}`)} {
		must(t, b.WriteSnapshot(ctx, "dev", data))
		got, err := b.ReadSnapshot(ctx, "dev")
		must(t, err)
		if !bytes.Equal(got, data) {
			t.Errorf("write %d: read back %d bytes, want the %d written", i, len(got), len(data))
		}
	}
	must(t, b.WriteSnapshot(ctx, "prod", []byte("other")))
	got, err := b.ReadSnapshot(ctx, "dev")
	must(t, err)
	if string(got) != `{"b":2}` {
		t.Errorf("another stack's write changed dev's snapshot to %q", got)
	}
}

func records(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func readJournal(t *testing.T, b state.Backend, stack string) []string {
	t.Helper()
	rs, err := b.ReadJournal(context.Background(), stack)
	must(t, err)
	out := []string{}
	for _, r := range rs.Records {
		out = append(out, string(r))
	}
	return out
}

func testJournal(t *testing.T, b state.Backend) {
	ctx := context.Background()
	if got := readJournal(t, b, "dev"); len(got) != 0 {
		t.Errorf("a journal never written holds %q", got)
	}
	must(t, b.TruncateJournal(ctx, "dev"))
	odd := string([]byte{0, '\n', 0xff, 0, 0, 0, 0})
	big := string(bytes.Repeat([]byte("j"), 1<<20))
	must(t, b.AppendJournal(ctx, "dev", records("a", "b")))
	must(t, b.AppendJournal(ctx, "dev", records(odd)))
	must(t, b.AppendJournal(ctx, "dev", records(big, "c")))
	if diff := cmp.Diff([]string{"a", "b", odd, big, "c"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
	must(t, b.AppendJournal(ctx, "prod", records("p")))
	must(t, b.TruncateJournal(ctx, "dev"))
	if got := readJournal(t, b, "dev"); len(got) != 0 {
		t.Errorf("truncated journal holds %d records", len(got))
	}
	must(t, b.AppendJournal(ctx, "dev", records("d")))
	if diff := cmp.Diff([]string{"d"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal after truncate (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"p"}, readJournal(t, b, "prod")); diff != "" {
		t.Errorf("other stack's journal (-want +got):\n%s", diff)
	}
}

func (c config) testTornTail(t *testing.T, b state.Backend) {
	if c.tear == nil {
		t.Skip("the backend cannot tear a journal record")
	}
	ctx := context.Background()
	must(t, b.AppendJournal(ctx, "dev", records("first", "second")))
	must(t, b.AppendJournal(ctx, "dev", records("third, torn by a crash")))
	c.tear(t, b, "dev")
	if diff := cmp.Diff([]string{"first", "second"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal with a torn tail (-want +got):\n%s", diff)
	}
	if rs, _ := b.ReadJournal(ctx, "dev"); rs.Torn == nil || rs.Torn.Record != 3 || rs.Torn.Bytes == 0 {
		t.Errorf("the torn tail is reported as %+v, want record 3 and its bytes", rs.Torn)
	}
	// The state session empties the journal before appending again.
	must(t, b.TruncateJournal(ctx, "dev"))
	must(t, b.AppendJournal(ctx, "dev", records("after")))
	if diff := cmp.Diff([]string{"after"}, readJournal(t, b, "dev")); diff != "" {
		t.Errorf("journal after recovery (-want +got):\n%s", diff)
	}
}

func (c config) testCorruptRecord(t *testing.T, b state.Backend) {
	if c.corrupt == nil {
		t.Skip("the backend cannot damage a journal record")
	}
	ctx := context.Background()
	must(t, b.AppendJournal(ctx, "dev", records("first", "second", "third")))
	c.corrupt(t, b, "dev", 1)
	rs, err := b.ReadJournal(ctx, "dev")
	var ce *state.JournalCorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("a damaged record followed by a valid one: read %q, error %v; want a *state.JournalCorruptError", rs.Records, err)
	}
	if ce.Record != 2 || len(ce.Intact) != 1 || string(ce.Intact[0]) != "first" {
		t.Errorf("JournalCorruptError names record %d with %d intact records before it, want record 2 after \"first\"", ce.Record, len(ce.Intact))
	}
	must(t, b.AppendJournal(ctx, "last", records("first", "second")))
	c.corrupt(t, b, "last", 1)
	if diff := cmp.Diff([]string{"first"}, readJournal(t, b, "last")); diff != "" {
		t.Errorf("a damaged final record is a torn tail (-want +got):\n%s", diff)
	}
	if rs, _ := b.ReadJournal(ctx, "last"); rs.Torn == nil || rs.Torn.Record != 2 {
		t.Errorf("the damaged final record is reported as %+v, want record 2", rs.Torn)
	}
}

func testLock(t *testing.T, b state.Backend) {
	ctx := context.Background()
	holder := state.LockHolder{PID: os.Getpid(), Host: "builder-7", Started: time.Date(2026, 5, 4, 3, 2, 1, 0, time.UTC), Command: "plinth up"}
	u, err := b.Lock(ctx, "dev", holder)
	must(t, err)
	_, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth destroy"))
	var locked *state.LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("second Lock: error = %v, want a *state.LockedError", err)
	}
	if diff := cmp.Diff(holder, locked.Holder); diff != "" || locked.Stack != "dev" || locked.Stale {
		t.Errorf("LockedError = %+v; holder (-want +got):\n%s", locked, diff)
	}
	other, err := b.Lock(ctx, "prod", holder)
	must(t, err)
	must(t, other.Unlock(ctx))
	must(t, u.Unlock(ctx))
	u2, err := b.Lock(ctx, "dev", holder)
	must(t, err)
	must(t, b.ForceUnlock(ctx, "dev"))
	u3, err := b.Lock(ctx, "dev", holder)
	must(t, err)
	if err := u2.Unlock(ctx); err == nil {
		t.Error("unlocking a lock that was broken succeeded without a word")
	}
	if _, err := b.Lock(ctx, "dev", holder); err == nil {
		t.Error("the old holder's Unlock released the new holder's lock")
	}
	must(t, u3.Unlock(ctx))
	must(t, b.ForceUnlock(ctx, "never-locked"))
}

func (c config) testStaleLock(t *testing.T, b state.Backend) {
	if !c.staleLocks {
		t.Skip("the backend does not detect stale locks")
	}
	ctx := context.Background()
	dead := deadPID(t)
	holder := state.CurrentProcess("plinth up")
	holder.PID = dead
	_, err := b.Lock(ctx, "dev", holder)
	must(t, err)
	_, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	var locked *state.LockedError
	if !errors.As(err, &locked) || !locked.Stale || locked.Holder.PID != dead {
		t.Fatalf("error = %v, want a stale *state.LockedError naming PID %d", err, dead)
	}
	must(t, b.ForceUnlock(ctx, "dev"))
	u, err := b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	must(t, err)
	must(t, u.Unlock(ctx))
}

// testLiveLock checks that a holder alive on this host is reported as
// alive, and that a lock naming a live PID with another start time (a PID
// reused after the holder died) is stale.
func (c config) testLiveLock(t *testing.T, b state.Backend) {
	if !c.staleLocks {
		t.Skip("the backend does not detect stale locks")
	}
	ctx := context.Background()
	live := state.CurrentProcess("plinth up")
	u, err := b.Lock(ctx, "dev", live)
	must(t, err)
	_, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	var locked *state.LockedError
	if !errors.As(err, &locked) || locked.Stale {
		t.Fatalf("a live holder: error = %v, want a *state.LockedError that is not stale", err)
	}
	if live.ProcessStart == 0 {
		t.Skip("this system does not give process start times")
	}
	if !locked.Alive {
		t.Errorf("a live holder (this process, started at %d) is not reported alive", live.ProcessStart)
	}
	must(t, u.Unlock(ctx))
	reused := live
	reused.ProcessStart++ // the same PID, another process
	_, err = b.Lock(ctx, "dev", reused)
	must(t, err)
	_, err = b.Lock(ctx, "dev", state.CurrentProcess("plinth up"))
	if !errors.As(err, &locked) || !locked.Stale || locked.Alive {
		t.Errorf("a lock naming a live PID with another start time: error = %v, want a stale *state.LockedError", err)
	}
	must(t, b.ForceUnlock(ctx, "dev"))
}

// testLostSnapshot deletes a written snapshot and checks that the stack
// is reported as lost rather than read as empty.
func (c config) testLostSnapshot(t *testing.T, b state.Backend) {
	if c.lose == nil {
		t.Skip("the backend's snapshot cannot be deleted behind its back")
	}
	ctx := context.Background()
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{})
	must(t, err)
	must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()}))
	must(t, s.Close(ctx))
	c.lose(t, b, "dev")
	_, err = b.ReadSnapshot(ctx, "dev")
	if !errors.Is(err, state.ErrSnapshotLost) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading a lost snapshot: error = %v, want one matching state.ErrSnapshotLost and not fs.ErrNotExist", err)
	}
	_, err = state.Load(ctx, b, "dev", state.OpenOptions{})
	var me *state.MissingSnapshotError
	if !errors.As(err, &me) {
		t.Errorf("loading a stack whose snapshot was lost: error = %v, want a *state.MissingSnapshotError", err)
	}
	if _, err := state.Open(ctx, b, "dev", state.OpenOptions{}); !errors.As(err, &me) {
		t.Errorf("opening a stack whose snapshot was lost: error = %v, want a *state.MissingSnapshotError", err)
	}
	must(t, b.RemoveStack(ctx, "dev"))
	_, err = b.ReadSnapshot(ctx, "dev")
	wantNotExist(t, "reading the snapshot of a removed stack", err)
}

// testBackup checks a backend that keeps the previous snapshot: the
// backup is the snapshot before the last write, and a write while the
// current snapshot is missing leaves the backup alone.
func testBackup(t *testing.T, b state.Backend) {
	bs, ok := b.(state.BackupStore)
	if !ok {
		t.Skip("the backend keeps no backup")
	}
	ctx := context.Background()
	if _, _, err := bs.ReadBackup(ctx, "dev"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading a backup never written: error = %v, want fs.ErrNotExist", err)
	}
	must(t, b.WriteSnapshot(ctx, "dev", []byte("first")))
	must(t, b.WriteSnapshot(ctx, "dev", []byte("second")))
	data, _, err := bs.ReadBackup(ctx, "dev")
	must(t, err)
	if string(data) != "first" || bs.DescribeBackup("dev") == "" {
		t.Errorf("backup = %q (described as %q), want \"first\"", data, bs.DescribeBackup("dev"))
	}
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatalf("running a short-lived process: %v", err)
	}
	return cmd.Process.Pid
}

func testStacks(t *testing.T, b state.Backend) {
	ctx := context.Background()
	names, err := b.ListStacks(ctx)
	must(t, err)
	if len(names) != 0 {
		t.Errorf("a new backend lists %q", names)
	}
	must(t, b.WriteSnapshot(ctx, "b", []byte("{}")))
	must(t, b.AppendJournal(ctx, "a", records("x")))
	must(t, b.WriteSecretsConfig(ctx, "c", []byte("{}")))
	names, err = b.ListStacks(ctx)
	must(t, err)
	if diff := cmp.Diff([]string{"a", "b", "c"}, names); diff != "" {
		t.Errorf("stacks (-want +got):\n%s", diff)
	}
	must(t, b.AppendJournal(ctx, "b", records("y")))
	must(t, b.RemoveStack(ctx, "b"))
	names, err = b.ListStacks(ctx)
	must(t, err)
	if diff := cmp.Diff([]string{"a", "c"}, names); diff != "" {
		t.Errorf("stacks after removing b (-want +got):\n%s", diff)
	}
	_, err = b.ReadSnapshot(ctx, "b")
	wantNotExist(t, "reading a removed stack's snapshot", err)
	if got := readJournal(t, b, "b"); len(got) != 0 {
		t.Errorf("a removed stack's journal holds %q", got)
	}
}

func testSecretsConfig(t *testing.T, b state.Backend) {
	ctx := context.Background()
	_, err := b.ReadSecretsConfig(ctx, "dev")
	wantNotExist(t, "reading a secrets configuration never written", err)
	for _, data := range []string{`{"version":1,"key":"AAAA"}`, `{"version":1}`} {
		must(t, b.WriteSecretsConfig(ctx, "dev", []byte(data)))
		got, err := b.ReadSecretsConfig(ctx, "dev")
		must(t, err)
		if string(got) != data {
			t.Errorf("read back %q, want %q", got, data)
		}
	}
}

// testCreateSecretsConfig: a create stores a stack's first
// configuration and never replaces one; a write (a change of provider)
// still does.
func testCreateSecretsConfig(t *testing.T, b state.Backend) {
	ctx := context.Background()
	created, existing, err := b.CreateSecretsConfig(ctx, "dev", []byte(`{"version":1,"key":"first"}`))
	must(t, err)
	if !created || existing != nil {
		t.Errorf("the first create: created %v, existing %q; want created, nothing existing", created, existing)
	}
	created, existing, err = b.CreateSecretsConfig(ctx, "dev", []byte(`{"version":1,"key":"second"}`))
	must(t, err)
	if created || string(existing) != `{"version":1,"key":"first"}` {
		t.Errorf("a second create: created %v, existing %q; want the first configuration, kept", created, existing)
	}
	must(t, b.WriteSecretsConfig(ctx, "dev", []byte(`{"version":1,"key":"rotated"}`)))
	got, err := b.ReadSecretsConfig(ctx, "dev")
	must(t, err)
	if string(got) != `{"version":1,"key":"rotated"}` {
		t.Errorf("after a write the configuration is %q, want the one written", got)
	}
}

// testCreateSecretsConfigRace starts creates of one new stack's
// configuration at once, each with its own data, on several stacks:
// exactly one per stack is told it created it, every other is given the
// data that one stored, and that is what the stack holds.
func testCreateSecretsConfigRace(t *testing.T, b state.Backend) {
	const creators, stacks = 8, 5
	ctx := context.Background()
	for s := range stacks {
		stack := fmt.Sprintf("race%d", s)
		var created [creators]bool
		var existing [creators][]byte
		var errs [creators]error
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range creators {
			wg.Go(func() {
				<-start
				created[i], existing[i], errs[i] = b.CreateSecretsConfig(ctx, stack, fmt.Appendf(nil, `{"version":1,"key":"creator %d"}`, i))
			})
		}
		close(start)
		wg.Wait()
		must(t, errors.Join(errs[:]...))
		stored, err := b.ReadSecretsConfig(ctx, stack)
		must(t, err)
		var winners []int
		for i := range creators {
			if created[i] {
				winners = append(winners, i)
				continue
			}
			if !bytes.Equal(existing[i], stored) {
				t.Errorf("stack %s: creator %d was given %q, but the stack holds %q", stack, i, existing[i], stored)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("stack %s: creators %v were each told they created the configuration, want exactly one", stack, winners)
		}
		if want := fmt.Sprintf(`{"version":1,"key":"creator %d"}`, winners[0]); string(stored) != want {
			t.Errorf("stack %s holds %q, want the winner's %q", stack, stored, want)
		}
	}
}

func testStackNames(t *testing.T, b state.Backend) {
	ctx := context.Background()
	for _, name := range []string{"", "..", "../x", "a/b", `a\b`, ".hidden", "-flag"} {
		if err := b.WriteSnapshot(ctx, name, []byte("{}")); err == nil {
			t.Errorf("WriteSnapshot accepted the stack name %q", name)
		}
		if _, err := b.Lock(ctx, name, state.CurrentProcess("test")); err == nil {
			t.Errorf("Lock accepted the stack name %q", name)
		}
	}
}

func testDescribe(t *testing.T, b state.Backend) {
	seen := map[string]bool{}
	for _, p := range []state.Part{state.PartSnapshot, state.PartJournal, state.PartLock, state.PartSecrets} {
		d := b.Describe("dev", p)
		if d == "" || seen[d] {
			t.Errorf("Describe(dev, %s) = %q: want a distinct description", p, d)
		}
		seen[d] = true
	}
}

// thing returns a small custom resource managed by the default provider.
func thing(name, id string) *state.Resource {
	return &state.Resource{
		URN: resource.NewURN("dev", "proj", "", "plinth:test:Thing", name), Type: "plinth:test:Thing",
		Custom: true, ID: id, Provider: state.ProviderRef(providerURN, "p-1"),
		Inputs:  resource.Object{"name": resource.NewString(name)},
		Outputs: resource.Object{"name": resource.NewString(name)},
	}
}

var providerURN = resource.NewURN("dev", "proj", "", "pulumi:providers:test", "default")

func provider() *state.Resource {
	return &state.Resource{URN: providerURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}
}

// testSession runs a small operation through a session over the backend.
func testSession(t *testing.T, b state.Backend) {
	ctx := context.Background()
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "test"})
	must(t, err)
	if _, err := state.Open(ctx, b, "dev", state.OpenOptions{}); err == nil {
		t.Error("a second session opened a locked stack")
	}
	must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: provider()}))
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprint("r", i)
			if err := s.Record(ctx, &state.Entry{Step: uint64(i + 1), Kind: state.Begin, Op: state.OpCreate, New: thing(name, "")}); err != nil {
				t.Error(err)
				return
			}
			if err := s.Record(ctx, &state.Entry{Step: uint64(i + 1), Kind: state.End, Op: state.OpCreate, New: thing(name, "id-"+name)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	want := s.Snapshot()
	must(t, s.Close(ctx))
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if len(got.Resources) != 51 || len(got.Pending) != 0 {
		t.Errorf("loaded %d resources and %d pending operations, want 51 and 0", len(got.Resources), len(got.Pending))
	}
	if diff := cmp.Diff(names(want), names(got)); diff != "" {
		t.Errorf("loaded state (-recorded +loaded):\n%s", diff)
	}
	if rs := readJournal(t, b, "dev"); len(rs) != 0 {
		t.Errorf("the journal holds %d records after Close", len(rs))
	}
}

func names(s *state.Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		out = append(out, string(r.URN)+"="+r.ID)
	}
	return out
}

// testSessionSecrets stores a secret through the backend's secrets
// configuration and reads it back with a freshly opened key.
func testSessionSecrets(t *testing.T, b state.Backend) {
	ctx := context.Background()
	opts := secrets.Options{Passphrase: "pass", KDF: secrets.KDFParams{Time: 1, Memory: 64, Threads: 1}}
	c, _, err := secrets.Open(ctx, b, "dev", opts)
	must(t, err)
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Crypter: c})
	must(t, err)
	p := provider()
	p.Outputs = resource.Object{"token": resource.MakeSecret(resource.NewString("plaintext-token-1234"))}
	must(t, s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: p}))
	must(t, s.Close(ctx))
	raw, err := b.ReadSnapshot(ctx, "dev")
	must(t, err)
	if bytes.Contains(raw, []byte("plaintext-token-1234")) {
		t.Fatal("the snapshot holds a secret in plaintext")
	}
	c2, _, err := secrets.Open(ctx, b, "dev", opts)
	must(t, err)
	got, err := state.Load(ctx, b, "dev", state.OpenOptions{Crypter: c2})
	must(t, err)
	if v := got.Resources[0].Outputs["token"]; !v.IsSecret() || v.SecretElement().Str() != "plaintext-token-1234" {
		t.Errorf("the secret read back as %v", v.SecretElement())
	}
}
