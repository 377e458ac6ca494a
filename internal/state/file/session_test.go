package file_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var providerURN = resource.NewURN("dev", "proj", "", "pulumi:providers:test", "default")

func prov() *state.Resource {
	return &state.Resource{URN: providerURN, Type: "pulumi:providers:test", Custom: true, ID: "p-1"}
}

func thing(name, id string) *state.Resource {
	return &state.Resource{
		URN: resource.NewURN("dev", "proj", "", "plinth:test:Thing", name), Type: "plinth:test:Thing",
		Custom: true, ID: id, Provider: state.ProviderRef(providerURN, "p-1"),
		Inputs: resource.Object{"name": resource.NewString(name)},
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func record(t testing.TB, s *state.Session, es ...*state.Entry) {
	t.Helper()
	for _, e := range es {
		must(t, s.Record(context.Background(), e))
	}
}

func names(s *state.Snapshot) []string {
	var out []string
	for _, r := range s.Resources {
		out = append(out, r.URN.Name()+"="+r.ID)
	}
	for _, p := range s.Pending {
		out = append(out, "pending "+string(p.Op)+":"+p.Resource.URN.Name())
	}
	return out
}

// crashedRun leaves a stack as a process killed during an update would:
// a provider created, "a" created, "b" begun and never ended, and the
// stack still locked.
func crashedRun(t *testing.T, root string) {
	ctx := context.Background()
	b := file.New(root)
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "plinth up"})
	must(t, err)
	record(t, s,
		&state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov()},
		&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: thing("a", "")},
		&state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: thing("a", "a-1")},
		&state.Entry{Step: 2, Kind: state.Begin, Op: state.OpCreate, New: thing("b", "")},
	)
	// Abandon the session: its lock and journal stay, as after a kill.
	must(t, b.ForceUnlock(ctx, "dev"))
}

func TestBeginWithoutEndIsPending(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	crashedRun(t, root)
	s, err := state.Open(ctx, file.New(root), "dev", state.OpenOptions{})
	must(t, err)
	defer s.Close(ctx)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1", "pending create:b"}, names(s.Base())); diff != "" {
		t.Errorf("recovered state (-want +got):\n%s", diff)
	}
	if !s.Base().Pending[0].Blocks() {
		t.Error("a pending create does not block the next update")
	}
}

func TestTornJournalTail(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	crashedRun(t, root)
	journal := filepath.Join(root, "stacks", "dev", "journal")
	info, err := os.Stat(journal)
	must(t, err)
	// A kill in the middle of writing the last record (b's Begin).
	must(t, os.Truncate(journal, info.Size()-5))
	s, err := state.Open(ctx, file.New(root), "dev", state.OpenOptions{})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1"}, names(s.Base())); diff != "" {
		t.Errorf("recovered state (-want +got):\n%s", diff)
	}
	// New records go after a clean journal, not after the torn bytes.
	record(t, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: thing("c", "c-1")})
	s.Close(ctx)
	got, err := state.Load(ctx, file.New(root), "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if diff := cmp.Diff([]string{"default=p-1", "a=a-1", "c=c-1"}, names(got)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
}

func TestCorruptJournalIsAnError(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	crashedRun(t, root)
	journal := filepath.Join(root, "stacks", "dev", "journal")
	data, err := os.ReadFile(journal)
	must(t, err)
	data[20] ^= 0xff // inside the first record
	must(t, os.WriteFile(journal, data, 0o600))
	_, err = state.Open(ctx, file.New(root), "dev", state.OpenOptions{})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(journal+" is damaged")) {
		t.Fatalf("error = %v, want one naming %s", err, journal)
	}
}

// TestNoPlaintextSecretsOnDisk records secrets in every place a value can
// go, and searches every byte the backend wrote for them.
func TestNoPlaintextSecretsOnDisk(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	b := file.New(root)
	for name, opts := range map[string]secrets.Options{
		"dev":  {Passphrase: "pw", KDF: secrets.KDFParams{Time: 1, Memory: 64, Threads: 1}},
		"prod": {},
	} {
		c, _, err := secrets.Open(ctx, b, name, opts)
		must(t, err)
		s, err := state.Open(ctx, b, name, state.OpenOptions{Crypter: c})
		must(t, err)
		p := prov()
		p.Inputs = resource.Object{"apiKey": resource.MakeSecret(resource.NewString("SECRET-INPUT-4711"))}
		r := thing("a", "a-1")
		r.Outputs = resource.Object{"nested": resource.NewArray(resource.MakeSecret(resource.NewObject(resource.Object{"pw": resource.NewString("SECRET-OUTPUT-4712")})))}
		record(t, s,
			&state.Entry{Kind: state.Write, Op: state.OpCreate, New: p},
			&state.Entry{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: r},
			&state.Entry{Step: 1, Kind: state.End, Op: state.OpCreate, New: r},
			&state.Entry{Kind: state.Write, Op: state.OpOutputs, Outputs: resource.Object{"out": resource.MakeSecret(resource.NewString("SECRET-STACK-4713"))}},
		)
		checkNoSecrets(t, root) // the journal
		must(t, s.Close(ctx))
		checkNoSecrets(t, root) // the snapshot
	}
}

func checkNoSecrets(t *testing.T, root string) {
	t.Helper()
	control := false // the search must find what is not secret
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		control = control || bytes.Contains(data, []byte(`"apiKey":`))
		for _, secret := range []string{"SECRET-INPUT-4711", "SECRET-OUTPUT-4712", "SECRET-STACK-4713", `"pw"`} {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("%s holds %s in plaintext", p, secret)
			}
		}
		return nil
	})
	must(t, err)
	if !control {
		t.Error("no file holds the property name apiKey: the search is not looking at the state")
	}
}

func TestSessionOverFileConcurrent(t *testing.T) {
	ctx := context.Background()
	b := file.New(t.TempDir())
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{})
	must(t, err)
	record(t, s, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: prov()})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				name := fmt.Sprintf("w%d-%d", w, i)
				step := uint64(w*1000 + i + 1)
				if err := s.Record(ctx, &state.Entry{Step: step, Kind: state.Begin, Op: state.OpCreate, New: thing(name, "")}); err != nil {
					t.Error(err)
					return
				}
				if err := s.Record(ctx, &state.Entry{Step: step, Kind: state.End, Op: state.OpCreate, New: thing(name, "id")}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Read the journal as a crash now would leave it.
	crashView, err := state.Load(ctx, b, "dev", state.OpenOptions{Verify: true})
	must(t, err)
	if n := len(crashView.Resources); n != 401 || len(crashView.Pending) != 0 {
		t.Errorf("journal replays to %d resources and %d pending, want 401 and 0", n, len(crashView.Pending))
	}
	must(t, s.Close(ctx))
}
