package pulumi_test

import (
	"context"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/cli/clitest"
	"github.com/plinth-iac/plinth/internal/state/postgres/pgtest"
)

// The secrets of testdata/secretscan: in secret config, in config set
// with --secret, a literal marked with fn::secret deep in a map, and the
// part of a file's path (its ID) that comes from secret config.
var scanSecrets = map[string]string{
	"password": "pw-Zq81xTmb",
	"apiKey":   "ak-77Hgq2Lw",
	"idPart":   "idp-Rr52Vn",
	"literal":  "nest-Kp33wQ",
}

// TestSecretScan runs a program that uses secrets everywhere (config,
// inputs, a nested map, an ID derived from a secret, a failing command
// whose error quotes them, a provider that logs one, a Pulumi-protocol
// provider that echoes secret inputs back as plain outputs with an ID
// made from a secret) through every command that runs it, in plain, JSON
// and verbose output, with the built-in provider in process and as a
// plugin, and exports its state in plinth's format and Pulumi's. Every
// byte plinth writes to stdout and stderr, and every file under .plinth
// and the stack's config file, is searched for each secret value: none
// may be there.
func TestSecretScan(t *testing.T) {
	outputs := map[string][]string{"plain": nil, "json": {"--json"}, "verbose": {"-v"}, "verbose-json": {"-v", "--json"}}
	for _, m := range []mode{inProcess(), outOfProcess()} {
		for name, flags := range outputs {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := newProject(t, "secretscan", m)
				p.opts.Env["PLINTH_PLUGIN_PATH"] = strings.TrimPrefix(m.pluginPath+string(os.PathListSeparator)+echoDir, string(os.PathListSeparator))
				written := scanRun(p, flags)
				if m.pluginPath != "" && !strings.Contains(written, "provider log: connecting with [secret]") && strings.Contains(name, "verbose") {
					t.Errorf("the plugin's log line was not shown (scrubbed); the test does not test what it says:\n%s", written)
				}
				if !strings.Contains(written, "login failed for password [secret] and key [secret]") {
					t.Errorf("the failing command's error was not shown (scrubbed):\n%s", written)
				}
				for what, secret := range scanSecrets {
					if strings.Contains(written, secret) {
						t.Errorf("%s (%s) was written to stdout or stderr:\n%s", what, secret, excerpt(written, secret))
					}
				}
				scanFiles(t, p)
			})
		}
	}
}

// scanRun runs the program's life with flags added to every command that
// shows an operation, and returns everything plinth wrote. beforeDestroy,
// if given, runs while the stack still holds every resource.
func scanRun(p *project, flags []string, beforeDestroy ...func()) string {
	p.t.Helper()
	var b strings.Builder
	add := func(r interface{ Output() string }) { b.WriteString(r.Output()) }
	add(p.run("config", "set", "--secret", "password", scanSecrets["password"]))
	add(p.run("config", "set", "--secret", "apiKey", scanSecrets["apiKey"]))
	add(p.run("config", "set", "--secret", "idPart", scanSecrets["idPart"]))
	add(p.run("config"))
	add(p.run(append([]string{"preview", "--diff"}, flags...)...))
	for range 2 { // the second up retries the failing command with everything else recorded
		r := p.try(append([]string{"up", "--yes", "--diff"}, flags...)...)
		if r.Code != 1 {
			p.t.Errorf("up: exit %d, want 1 (the failing command)\n%s", r.Code, r.Output())
		}
		add(r)
	}
	add(p.run(append([]string{"refresh", "--yes", "--diff"}, flags...)...))
	add(p.run("stack", "output"))
	add(p.run("stack", "output", "--json"))
	add(p.run("state", "ls"))
	add(p.run("state", "show", "named"))
	add(p.run("state", "show", "nested"))
	add(p.run("state", "show", "echoed"))
	add(p.run("state", "export"))
	b.WriteString(scanPulumiExport(p))
	for _, f := range beforeDestroy {
		f()
	}
	add(p.run(append([]string{"destroy", "--yes", "--diff"}, flags...)...))
	return b.String()
}

// scanPulumiExport exports the state for Pulumi and returns what plinth
// wrote that must hold no secret. Pulumi's format holds IDs only in
// plain text, so with IDs derived from a secret (named's and echoed's,
// from idPart) the export refuses; with --plaintext-ids it writes them,
// the one secret the user let out, while every secret value stays sealed
// with Pulumi's passphrase secrets provider.
func scanPulumiExport(p *project) string {
	p.t.Helper()
	opts := p.opts
	opts.Env = maps.Clone(p.opts.Env)
	opts.Env["PULUMI_CONFIG_PASSPHRASE"] = "scan passphrase"
	refused := clitest.Run(p.t, p.dir, opts, "state", "export", "--format", "pulumi")
	if refused.Code != 1 || !strings.Contains(refused.Stderr, "--plaintext-ids") || !strings.Contains(refused.Stderr, "::echoed") || !strings.Contains(refused.Stderr, "::named") {
		p.t.Errorf("state export --format pulumi of IDs derived from secrets: exit %d, want 1 naming echoed and named and --plaintext-ids:\n%s", refused.Code, refused.Output())
	}
	export := clitest.MustRun(p.t, p.dir, opts, "state", "export", "--format", "pulumi", "--plaintext-ids")
	if !strings.Contains(export.Stdout, `"ciphertext"`) || !strings.Contains(export.Stdout, "echo-"+scanSecrets["idPart"]) {
		p.t.Errorf("the Pulumi export holds no sealed value or not the plain ID asked for:\n%s", export.Stdout)
	}
	for what, secret := range scanSecrets {
		if what != "idPart" && strings.Contains(export.Stdout, secret) {
			p.t.Errorf("the Pulumi export holds %s (%s) in the clear:\n%s", what, secret, excerpt(export.Stdout, secret))
		}
	}
	return refused.Output() + export.Stderr
}

// scanFiles fails if any file under .plinth or the stack config holds a
// secret in the clear.
func scanFiles(t *testing.T, p *project) {
	t.Helper()
	files := []string{p.path("plinth.dev.yaml")}
	_ = filepath.WalkDir(p.path(".plinth"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if len(files) < 3 {
		t.Fatalf("found only %v: the scan would prove nothing", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for what, secret := range scanSecrets {
			if strings.Contains(string(data), secret) {
				rel, _ := filepath.Rel(p.dir, f)
				t.Errorf("%s holds %s (%s) in the clear:\n%s", rel, what, secret, excerpt(string(data), secret))
			}
		}
	}
}

// excerpt shows where secret occurs in s.
func excerpt(s, secret string) string {
	i := strings.Index(s, secret)
	return s[max(0, i-300):min(len(s), i+len(secret)+100)]
}

// TestSecretScanPostgres runs the scan with the state in PostgreSQL:
// besides everything plinth writes, every row of every table (stacks,
// snapshots, journal records, history), read as text with bytea in hex,
// must hold no secret, with every resource recorded and after the
// destroy.
func TestSecretScanPostgres(t *testing.T) {
	t.Parallel()
	p := newProject(t, "secretscan", inProcess())
	db := pgtest.Database(t)
	p.opts.Env["PLINTH_BACKEND"] = db
	p.opts.Env["PLINTH_PLUGIN_PATH"] = echoDir
	scanTables := func(when string) {
		rows := 0
		for table, texts := range allRows(t, db) {
			for i, text := range texts {
				rows++
				for what, secret := range scanSecrets {
					hexed := hex.EncodeToString([]byte(secret))
					if strings.Contains(text, secret) || strings.Contains(strings.ToLower(text), hexed) {
						t.Errorf("%s: row %d of table %s holds %s (%s) in the clear: %s", when, i, table, what, secret, excerpt(text, secret))
					}
				}
			}
		}
		if rows < 4 {
			t.Errorf("%s: scanned only %d rows: the scan would prove nothing", when, rows)
		}
	}
	written := scanRun(p, nil, func() { scanTables("with every resource recorded") })
	scanTables("after the destroy")
	for what, secret := range scanSecrets {
		if strings.Contains(written, secret) {
			t.Errorf("%s (%s) was written to stdout or stderr:\n%s", what, secret, excerpt(written, secret))
		}
	}
	config := p.readFile("plinth.dev.yaml")
	for what, secret := range scanSecrets {
		if strings.Contains(config, secret) {
			t.Errorf("plinth.dev.yaml holds %s in the clear", what)
		}
	}
}

// allRows reads every row of every table of the database at url as text
// (bytea as hex), by table.
func allRows(t *testing.T, url string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := conn.Query(ctx, "SELECT t::text FROM "+pgx.Identifier{table}.Sanitize()+" t")
		if err != nil {
			t.Fatal(err)
		}
		if out[table], err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
