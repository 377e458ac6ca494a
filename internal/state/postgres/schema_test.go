package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// TestSchemaMigratesForward creates a database at schema version 1,
// writes a snapshot with version 1's SQL, and opens it with this plinth:
// the schema is migrated to the latest version and the data kept.
func TestSchemaMigratesForward(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t)
	if err := postgres.CreateSchema(ctx, url, 1); err != nil {
		t.Fatal(err)
	}
	const snap = `{"resources":[{"urn":"urn:pulumi:dev::alpha::t:m:R::r"}]}`
	sql(t, url, v2WriteSnapshot, "dev", []byte(snap))
	b := openAs(t, url, "alpha")
	if got := version(t, b); got != postgres.SchemaVersion {
		t.Errorf("schema version after opening = %d, want %d", got, postgres.SchemaVersion)
	}
	if data, err := b.ReadSnapshot(ctx, "dev"); err != nil || string(data) != snap {
		t.Errorf("the snapshot written at version 1 reads back as %q, %v", data, err)
	}
}

func version(t *testing.T, b *postgres.Backend) int {
	t.Helper()
	conn := connect(t, b)
	var v int
	if err := conn.QueryRow(context.Background(), "SELECT version FROM plinth_schema").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNewerSchemaIsRefused: a database a newer plinth migrated is
// refused with an error that says so, and is left as it was.
func TestNewerSchemaIsRefused(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	exec(t, b, "UPDATE plinth_schema SET version = $1", postgres.SchemaVersion+1)
	_, err := postgres.Open(ctx, postgres.Config{URL: b.URL(), Project: "test"})
	if !errors.Is(err, postgres.ErrSchemaTooNew) {
		t.Fatalf("opening a database with a newer schema: error = %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{fmt.Sprintf("schema version %d", postgres.SchemaVersion+1), fmt.Sprintf("knows versions up to %d", postgres.SchemaVersion), "Upgrade plinth"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if got := version(t, b); got != postgres.SchemaVersion+1 {
		t.Errorf("the refused database's schema version became %d", got)
	}
}

// TestPasswordIsNeverShown connects with a password in the URL to a
// server that is not there, and with a wrong database: no error and no
// description holds the password.
func TestPasswordIsNeverShown(t *testing.T) {
	ctx := context.Background()
	const secret = "s3cr3t-pw-9876"
	c := pgtest.Shared(t)
	urls := map[string]string{
		"user part, no server":    "postgres://plinth:" + secret + "@127.0.0.1:1/db?sslmode=disable&connect_timeout=2",
		"parameter, no database":  strings.Replace(c.URL("nosuchdb"), "?", "?password="+secret+"&", 1),
		"user part, no database":  strings.Replace(c.URL("nosuchdb"), "plinth@", "plinth:"+secret+"@", 1),
		"user part, bad port key": "postgres://plinth:" + secret + "@127.0.0.1:notaport/db",
	}
	for name, url := range urls {
		t.Run(name, func(t *testing.T) {
			_, err := postgres.Open(ctx, postgres.Config{URL: url, Project: "test"})
			if err == nil {
				t.Fatal("opening succeeded")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error shows the password: %v", err)
			}
			if strings.Contains(postgres.Redact(url), secret) {
				t.Errorf("Redact(%q) = %q", url, postgres.Redact(url))
			}
			t.Log(err)
		})
	}
	b := open(t)
	pwURL := strings.Replace(b.URL(), "plinth@", "plinth:"+secret+"@", 1) // trust auth ignores it
	pb, err := postgres.Open(ctx, postgres.Config{URL: pwURL, Project: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer pb.Close()
	if d := pb.Describe("dev", "journal") + pb.String(); strings.Contains(d, secret) || !strings.Contains(d, "xxxxx") {
		t.Errorf("the backend describes itself as %q", d)
	}
}
