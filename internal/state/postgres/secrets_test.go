package postgres_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/postgres"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestNoPlaintextSecretInAnyRow records secret outputs and a secret ID
// through sessions (one compacted, one left with journal rows as a crash
// leaves it), then reads every column of every row of every table: none
// holds a secret, as text or as bytes.
func TestNoPlaintextSecretInAnyRow(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	const secret = "hunter2-plaintext-0f9e"
	for _, stack := range []string{"compacted", "crashed"} {
		c, _, err := secrets.Open(ctx, b, stack, secrets.Options{Passphrase: "pass", KDF: secrets.KDFParams{Time: 1, Memory: 64, Threads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := state.Open(ctx, b, stack, state.OpenOptions{Crypter: c, Command: "plinth up"})
		if err != nil {
			t.Fatal(err)
		}
		recordSecrets(t, s, secret)
		if stack == "compacted" {
			if err := s.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	scanAllRows(t, b, secret)
}

func recordSecrets(t *testing.T, s *state.Session, secret string) {
	ctx := context.Background()
	p := &state.Resource{URN: "urn:pulumi:dev::proj::pulumi:providers:test::default", Type: "pulumi:providers:test", Custom: true, ID: "p-1"}
	r := &state.Resource{URN: "urn:pulumi:dev::proj::plinth:test:Thing::a", Type: "plinth:test:Thing", Custom: true,
		ID: secret + "-id", SecretID: true, Provider: state.ProviderRef(p.URN, "p-1"),
		Inputs:  resource.Object{"password": resource.MakeSecret(resource.NewString(secret))},
		Outputs: resource.Object{"password": resource.MakeSecret(resource.NewString(secret)), "id": resource.MakeSecret(resource.NewString(secret + "-id"))}}
	for _, e := range []*state.Entry{
		{Kind: state.Write, Op: state.OpCreate, New: p},
		{Step: 1, Kind: state.Begin, Op: state.OpCreate, New: &state.Resource{URN: r.URN, Type: r.Type, Custom: true, Provider: r.Provider, Inputs: r.Inputs}},
		{Step: 1, Kind: state.End, Op: state.OpCreate, New: r},
	} {
		if err := s.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
}

// scanAllRows reads every row of every table in the database as text
// (bytea as hex) and fails if secret appears in it.
func scanAllRows(t *testing.T, b *postgres.Backend, secret string) {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, b)
	rows, err := conn.Query(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	needles := [][]byte{[]byte(secret), []byte(hex.EncodeToString([]byte(secret)))}
	seen := 0
	for _, table := range tables {
		rows, err := conn.Query(ctx, "SELECT t::text FROM "+pgx.Identifier{table}.Sanitize()+" t")
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			seen++
			for _, n := range needles {
				if bytes.Contains(bytes.ToLower([]byte(text)), bytes.ToLower(n)) {
					t.Errorf("row %d of table %s holds the secret in plaintext: %.200s", i, table, text)
				}
			}
		}
	}
	if seen < 6 {
		t.Errorf("scanned only %d rows of tables %v: the test is not looking at the state", seen, tables)
	}
	t.Logf("scanned %d rows of %d tables", seen, len(tables))
}
