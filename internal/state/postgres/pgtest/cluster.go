// Package pgtest starts throwaway PostgreSQL clusters for tests: initdb
// and pg_ctl from the server binaries (PostgreSQL 15 under
// /usr/lib/postgresql/15/bin, or PLINTH_PG_BIN), on a free loopback port,
// in a temporary directory removed when the cluster stops. When the
// process runs as root, which initdb refuses, the cluster runs as the
// user nobody.
//
// Its neighbours: the postgres state backend's tests, and the engine and
// CLI tests that run against PostgreSQL. Nothing here is used outside tests.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultBin is where Debian's postgresql-15 package puts the server.
const DefaultBin = "/usr/lib/postgresql/15/bin"

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	bin, dir, data string
	port           int
	cred           *syscall.Credential
	dbs            atomic.Int64
	fast           bool
}

// Options tune Start.
type Options struct {
	// Durable keeps fsync on, as a production server has it: for
	// benchmarks. Tests turn it off for speed.
	Durable bool
}

// ErrNoServer is returned by Start when no server binaries exist.
var ErrNoServer = errors.New("no PostgreSQL server binaries")

// BinDir returns the directory of the server binaries, or an error
// matching ErrNoServer.
func BinDir() (string, error) {
	bin := os.Getenv("PLINTH_PG_BIN")
	if bin == "" {
		bin = DefaultBin
	}
	if _, err := os.Stat(filepath.Join(bin, "initdb")); err != nil {
		return "", fmt.Errorf("%w in %s (install the postgresql package, or set PLINTH_PG_BIN to the directory holding initdb and pg_ctl)", ErrNoServer, bin)
	}
	return bin, nil
}

// Start initialises and starts a cluster. Call Stop when done.
func Start(opts Options) (*Cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "plinth-pg-*")
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, dir: dir, data: filepath.Join(dir, "data"), fast: !opts.Durable}
	if err := c.start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start() error {
	if os.Geteuid() == 0 {
		cred, err := nobody()
		if err != nil {
			return err
		}
		c.cred = cred
		if err := os.Chown(c.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	if err := os.Chmod(c.dir, 0o755); err != nil {
		return err
	}
	if err := c.run("initdb", "-D", c.data, "-U", "plinth", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	c.port = port
	return c.Restart()
}

// Restart starts the server, or stops it (fast shutdown: connections
// are cut) and starts it again, on the same port.
func (c *Cluster) Restart() error {
	_ = c.run("pg_ctl", "-D", c.data, "-m", "fast", "-w", "stop")
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=200", c.port, c.dir)
	if c.fast {
		opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	return c.run("pg_ctl", "-D", c.data, "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "60", "start")
}

// StopServer stops the server without removing its data; Restart starts
// it again.
func (c *Cluster) StopServer() error {
	return c.run("pg_ctl", "-D", c.data, "-m", "fast", "-w", "stop")
}

// Stop stops the server and removes its directory.
func (c *Cluster) Stop() error {
	err := c.StopServer()
	return errors.Join(err, os.RemoveAll(c.dir))
}

func (c *Cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("%s: %w\n%s\nserver log:\n%s", name, err, out, log)
	}
	return nil
}

// nobody returns the credentials of the user nobody.
func nobody() (*syscall.Credential, error) {
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("initdb refuses to run as root and there is no user nobody to run it as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// URL returns the connection URL of database db (as user plinth, who
// needs no password).
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://plinth@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// Port returns the server's port.
func (c *Cluster) Port() int { return c.port }

// NewDatabase creates an empty database and returns its URL.
func (c *Cluster) NewDatabase() (string, error) {
	name := fmt.Sprintf("plinth_%d", c.dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return c.URL(name), nil
}
