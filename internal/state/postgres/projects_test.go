package postgres_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// res returns a resource of project in stack dev.
func res(project, name string) *state.Resource {
	return &state.Resource{URN: resource.NewURN("dev", project, "", "plinth:test:Thing", name), Type: "plinth:test:Thing",
		Custom: true, ID: "id-" + name}
}

// up records the creation of project's resource in stack dev through a
// state session, as `plinth up` does, and leaves the session open.
func up(t *testing.T, b state.Backend, project string) *state.Session {
	t.Helper()
	ctx := context.Background()
	s, err := state.Open(ctx, b, "dev", state.OpenOptions{Command: "plinth up", History: state.NewOperation("update", "test")})
	if err != nil {
		t.Fatalf("project %s: opening stack dev: %v", project, err)
	}
	for _, e := range []*state.Entry{
		{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: res(project, project+"-thing")},
		{Step: 1, Kind: state.End, Op: state.OpCreate, New: res(project, project+"-thing")},
	} {
		if err := s.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	s.Finish("succeeded", map[string]int{"create": 1})
	return s
}

// urns returns the URNs of the stack's resources as the backend loads
// them.
func urns(t *testing.T, b state.Backend, stack string) []string {
	t.Helper()
	snap, err := state.Load(context.Background(), b, stack, state.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range snap.Resources {
		out = append(out, string(r.URN))
	}
	return out
}

// TestProjectsShareNoStack runs an operation on stack dev of projects
// alpha and beta in one database, at the same time: neither waits for
// the other's lock, each loads only its own resources, history and
// secrets, lists only its own stack, and removing beta's stack or
// breaking its lock leaves alpha's alone. Before stacks were kept per
// project, beta's session was refused alpha's lock, and beta's state was
// alpha's.
func TestProjectsShareNoStack(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	backends := map[string]*postgres.Backend{"alpha": openAs(t, url, "alpha"), "beta": openAs(t, url, "beta")}
	sa := up(t, backends["alpha"], "alpha")
	sb := up(t, backends["beta"], "beta")
	for _, s := range []*state.Session{sa, sb} {
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for p, b := range backends {
		if err := b.WriteSecretsConfig(ctx, "dev", []byte("key of "+p)); err != nil {
			t.Fatal(err)
		}
	}
	for p, b := range backends {
		if diff := cmp.Diff([]string{"urn:pulumi:dev::" + p + "::plinth:test:Thing::" + p + "-thing"}, urns(t, b, "dev")); diff != "" {
			t.Errorf("project %s's stack dev (-want +got):\n%s", p, diff)
		}
		checkOwn(t, b, p)
	}
	lock, err := backends["alpha"].Lock(ctx, "dev", state.CurrentProcess("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock(ctx)
	if err := backends["beta"].ForceUnlock(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if err := lock.(state.LockChecker).Check(ctx); err != nil {
		t.Errorf("beta's state unlock broke alpha's lock: %v", err)
	}
	if err := backends["beta"].RemoveStack(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if got := urns(t, backends["alpha"], "dev"); len(got) != 1 {
		t.Errorf("after beta's stack rm, alpha's stack dev holds %q", got)
	}
	if names, err := backends["beta"].ListStacks(ctx); err != nil || len(names) != 0 {
		t.Errorf("beta's stacks after its stack rm: %q, %v", names, err)
	}
}

// checkOwn checks that the project lists only its stack dev, and reads
// its own history and secrets configuration.
func checkOwn(t *testing.T, b *postgres.Backend, project string) {
	t.Helper()
	ctx := context.Background()
	if names, err := b.ListStacks(ctx); err != nil || !cmp.Equal(names, []string{"dev"}) {
		t.Errorf("project %s lists stacks %q, %v; want [dev]", project, names, err)
	}
	if ops, err := state.History(ctx, b, "dev"); err != nil || len(ops) != 1 {
		t.Errorf("project %s's history: %d operations, %v; want 1", project, len(ops), err)
	}
	if got, err := b.ReadSecretsConfig(ctx, "dev"); err != nil || string(got) != "key of "+project {
		t.Errorf("project %s's secrets configuration: %q, %v", project, got, err)
	}
}

// The SQL schema version 2 wrote rows with (plinth before stacks were
// kept per project): $1 is the stack.
const (
	v2WriteSnapshot = `WITH s AS (INSERT INTO plinth_stacks (name, snapshot_written) VALUES ($1, true)
		ON CONFLICT (name) DO UPDATE SET snapshot_written = true)
	INSERT INTO plinth_snapshots (stack, data, written, previous, previous_written) VALUES ($1, $2, now(), $2, now())
	ON CONFLICT (stack) DO UPDATE SET previous = plinth_snapshots.data, previous_written = plinth_snapshots.written,
		data = EXCLUDED.data, written = EXCLUDED.written`
	v2Upsert        = `WITH s AS (INSERT INTO plinth_stacks (name) VALUES ($1) ON CONFLICT (name) DO NOTHING) `
	v2AppendJournal = v2Upsert + `INSERT INTO plinth_journal (stack, data)
	SELECT $1, r.data FROM unnest($2::bytea[]) WITH ORDINALITY AS r(data, n) ORDER BY r.n`
	v2WriteSecrets = v2Upsert + `INSERT INTO plinth_secrets (stack, data) VALUES ($1, $2)
		ON CONFLICT (stack) DO UPDATE SET data = EXCLUDED.data`
	v2AppendHistory = v2Upsert + `INSERT INTO plinth_history (stack, operation, data) VALUES ($1, $2, $3::jsonb)`
	v2Lock          = `INSERT INTO plinth_locks (stack, token, pid, host, username, command, started, process_start, backend_pid)
		VALUES ($1, 'tok', 1, 'host', 'user', 'plinth up', now(), 0, 0)`
)

// sql runs a statement on the database at url.
func sql(t *testing.T, url, q string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// snapshotOf is a stored snapshot whose resources are projects' in dev.
func snapshotOf(projects ...string) []byte {
	var rs []string
	for _, p := range projects {
		rs = append(rs, `{"urn":"urn:pulumi:dev::`+p+`::plinth:test:Thing::r","type":"plinth:test:Thing"}`)
	}
	return []byte(`{"version":2,"seq":3,"resources":[` + strings.Join(rs, ",") + `]}`)
}

// oldDatabase creates a database at schema version 2 and writes, with
// that version's SQL, stack dev (alpha's resources, a journal record, a
// secrets configuration, history and a lock row), stack prod (beta's),
// stack empty (no resources) and stack mixed (alpha's and beta's).
func oldDatabase(t *testing.T) string {
	t.Helper()
	url := pgtest.Database(t)
	if err := postgres.CreateSchema(context.Background(), url, 2); err != nil {
		t.Fatal(err)
	}
	sql(t, url, v2WriteSnapshot, "dev", snapshotOf("alpha"))
	sql(t, url, v2AppendJournal, "dev", [][]byte{[]byte(`{"seq":4,"kind":"write","new":{"urn":"urn:pulumi:dev::alpha::plinth:test:Thing::s"}}`)})
	sql(t, url, v2WriteSecrets, "dev", []byte("alpha's key"))
	sql(t, url, v2AppendHistory, "dev", "op-1", `{"id":"op-1","kind":"update"}`)
	sql(t, url, v2Lock, "dev")
	sql(t, url, v2WriteSnapshot, "prod", snapshotOf("beta"))
	sql(t, url, v2WriteSecrets, "empty", []byte("someone's key"))
	sql(t, url, v2WriteSnapshot, "mixed", snapshotOf("alpha"))
	sql(t, url, v2AppendJournal, "mixed", [][]byte{snapshotOf("beta")})
	return url
}

// rowsOf returns each table's rows as "project/stack".
func rowsOf(t *testing.T, url string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	out := map[string][]string{}
	for table, col := range map[string]string{"plinth_stacks": "name", "plinth_snapshots": "stack", "plinth_journal": "stack",
		"plinth_secrets": "stack", "plinth_history": "stack", "plinth_locks": "stack"} {
		rows, err := conn.Query(ctx, "SELECT project || '/' || "+col+" FROM "+table+" ORDER BY 1")
		if err != nil {
			t.Fatal(err)
		}
		if out[table], err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestOldDatabaseIsKeyedInPlace opens a database schema version 2 wrote
// with this plinth: the schema is migrated, every row of a stack whose
// resources name one project is that project's (kept, and readable by
// it alone), and the others are left unclaimed.
func TestOldDatabaseIsKeyedInPlace(t *testing.T) {
	ctx := context.Background()
	url := oldDatabase(t)
	alpha := openAs(t, url, "alpha")
	if got := version(t, alpha); got != postgres.SchemaVersion {
		t.Errorf("schema version after opening = %d, want %d", got, postgres.SchemaVersion)
	}
	want := map[string][]string{
		"plinth_stacks":    {"/empty", "/mixed", "alpha/dev", "beta/prod"},
		"plinth_snapshots": {"/mixed", "alpha/dev", "beta/prod"},
		"plinth_journal":   {"/mixed", "alpha/dev"},
		"plinth_secrets":   {"/empty", "alpha/dev"},
		"plinth_history":   {"alpha/dev"},
		"plinth_locks":     {"alpha/dev"},
	}
	if diff := cmp.Diff(want, rowsOf(t, url)); diff != "" {
		t.Errorf("rows after the migration, as project/stack (-want +got):\n%s", diff)
	}
	if data, err := alpha.ReadSnapshot(ctx, "dev"); err != nil || string(data) != string(snapshotOf("alpha")) {
		t.Errorf("alpha's snapshot of dev: %q, %v", data, err)
	}
	if j, err := alpha.ReadJournal(ctx, "dev"); err != nil || len(j.Records) != 1 {
		t.Errorf("alpha's journal of dev: %d records, %v", len(j.Records), err)
	}
	if h, err := alpha.ReadHistory(ctx, "dev"); err != nil || len(h) != 1 {
		t.Errorf("alpha's history of dev: %d records, %v", len(h), err)
	}
	if names, err := alpha.ListStacks(ctx); err != nil || !cmp.Equal(names, []string{"dev", "empty", "mixed"}) {
		t.Errorf("alpha lists %q, %v; want its own stack and the unclaimed ones", names, err)
	}
	beta := openAs(t, url, "beta")
	if names, err := beta.ListStacks(ctx); err != nil || !cmp.Equal(names, []string{"empty", "mixed", "prod"}) {
		t.Errorf("beta lists %q, %v; want its own stack and the unclaimed ones", names, err)
	}
	if _, err := beta.ReadSnapshot(ctx, "dev"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("beta reads alpha's stack dev: %v", err)
	}
}

// TestUnclaimedStackIsRefused: a stack an older plinth wrote whose
// resources do not name one project is refused to every project, for
// reading and writing alike, saying how to claim it; claiming gives it to
// the project, and a stack whose resources name another project is
// claimed only with force.
func TestUnclaimedStackIsRefused(t *testing.T) {
	ctx := context.Background()
	url := oldDatabase(t)
	alpha, beta := openAs(t, url, "alpha"), openAs(t, url, "beta")
	uses := map[string]func(b *postgres.Backend, stack string) error{
		"read":  func(b *postgres.Backend, s string) error { _, err := b.ReadSnapshot(ctx, s); return err },
		"write": func(b *postgres.Backend, s string) error { return b.WriteSnapshot(ctx, s, snapshotOf()) },
		"lock": func(b *postgres.Backend, s string) error {
			_, err := b.Lock(ctx, s, state.CurrentProcess("t"))
			return err
		},
		"remove": func(b *postgres.Backend, s string) error { return b.RemoveStack(ctx, s) },
	}
	wants := map[string][]string{
		"empty": {"stack empty in ", "records no resources", "`plinth state claim --stack empty`"},
		"mixed": {"stack mixed in ", "name projects alpha and beta", "`plinth state claim --force --stack mixed`"},
	}
	for use, f := range uses {
		for stack, want := range wants {
			for _, b := range []*postgres.Backend{alpha, beta} {
				err := f(b, stack)
				if !errors.Is(err, postgres.ErrUnclaimed) {
					t.Errorf("%s of unclaimed stack %s by project %s: error %v, want ErrUnclaimed", use, stack, b.Project(), err)
					continue
				}
				for _, w := range want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s of stack %s by %s: error %q does not say %q", use, stack, b.Project(), err, w)
					}
				}
			}
		}
	}
	claim(t, alpha, beta, url)
}

// claim claims stacks empty and mixed for alpha, and checks what beta
// then sees.
func claim(t *testing.T, alpha, beta *postgres.Backend, url string) {
	ctx := context.Background()
	if err := alpha.Claim(ctx, "empty", false); err != nil {
		t.Fatal(err)
	}
	if got, err := alpha.ReadSecretsConfig(ctx, "empty"); err != nil || string(got) != "someone's key" {
		t.Errorf("alpha's secrets of the claimed stack: %q, %v", got, err)
	}
	if err := alpha.Claim(ctx, "mixed", false); !errors.Is(err, postgres.ErrUnclaimed) || !strings.Contains(err.Error(), "alpha and beta") {
		t.Errorf("claiming a stack that names beta's resources without force: %v", err)
	}
	if err := alpha.Claim(ctx, "mixed", true); err != nil {
		t.Fatal(err)
	}
	if err := beta.Claim(ctx, "mixed", true); err == nil || !strings.Contains(err.Error(), "no unclaimed stack mixed") {
		t.Errorf("beta claiming a stack alpha claimed: %v", err)
	}
	if names, err := openAs(t, url, "beta").ListStacks(ctx); err != nil || !cmp.Equal(names, []string{"prod"}) {
		t.Errorf("beta lists %q, %v after alpha claimed the unclaimed stacks", names, err)
	}
	if names, err := alpha.ListStacks(ctx); err != nil || !cmp.Equal(names, []string{"dev", "empty", "mixed"}) {
		t.Errorf("alpha lists %q, %v after claiming", names, err)
	}
}

// TestMigrationWaitsForOldHolders: while an older plinth holds a stack's
// lock, the database is not migrated to keep projects apart (the old
// plinth's lock would no longer keep a newer one out); once it is
// released, it is.
func TestMigrationWaitsForOldHolders(t *testing.T) {
	ctx := context.Background()
	url := oldDatabase(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// The lock an older plinth takes on stack dev: ("plnt", a hash of the name).
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1, $2)", 0x706c6e74, 12345); err != nil {
		t.Fatal(err)
	}
	_, err = postgres.Open(ctx, postgres.Config{URL: url, Project: "alpha"})
	if !errors.Is(err, postgres.ErrInUse) || !strings.Contains(err.Error(), "stack locks held: 1") {
		t.Fatalf("opening while an older plinth holds a lock: %v, want ErrInUse", err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock($1, $2)", 0x706c6e74, 12345); err != nil {
		t.Fatal(err)
	}
	if got := version(t, openAs(t, url, "alpha")); got != postgres.SchemaVersion {
		t.Errorf("schema version once the lock is released = %d, want %d", got, postgres.SchemaVersion)
	}
}
