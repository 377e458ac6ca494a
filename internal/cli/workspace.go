package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/internal/state/postgres"
)

// The files plinth keeps in a project directory.
const (
	stateDirName     = ".plinth"        // state, keys and project plugins
	selectedFileName = "selected-stack" // under stateDirName: the selected stack
	defaultStack     = "dev"
)

// workspace is a project directory and the stack a command works on.
type workspace struct {
	a *app
	// arg is the project directory as given (for messages); dir is it
	// made absolute.
	arg, dir string
	backend  state.Backend
	stack    string
}

// workspace resolves -C and --stack. It reads nothing else.
func (a *app) workspace() (*workspace, error) {
	arg := a.g.dir
	if arg == "" {
		arg = "."
	}
	dir, err := filepath.Abs(arg)
	if err != nil {
		return nil, fmt.Errorf("finding the project directory %s: %w", arg, err)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, display.Errorf("No project directory", "%s is not a directory. Pass the project directory with -C DIR, or run plinth inside it.", arg)
	}
	w := &workspace{a: a, arg: arg, dir: dir}
	w.stack, err = w.chooseStack()
	if err != nil {
		return nil, err
	}
	addr, from := w.backendChoice()
	if w.backend, err = a.openBackend(context.Background(), addr, from, dir); err != nil {
		return nil, err
	}
	return w, nil
}

// chooseStack returns --stack, else the selected stack, else dev.
func (w *workspace) chooseStack() (string, error) {
	name := w.a.g.stack
	if name == "" {
		name = w.selected()
	}
	if name == "" {
		name = defaultStack
	}
	if err := state.ValidateStackName(name); err != nil {
		return "", display.Errorf("Invalid stack name", "%s.", err)
	}
	return name, nil
}

func (w *workspace) selectedPath() string {
	return filepath.Join(w.dir, stateDirName, selectedFileName)
}

// selected returns the selected stack, "" if none is.
func (w *workspace) selected() string {
	data, err := os.ReadFile(w.selectedPath())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// selectStack remembers name as the selected stack; "" forgets it.
func (w *workspace) selectStack(name string) error {
	if name == "" {
		if err := os.Remove(w.selectedPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("forgetting the selected stack: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(w.selectedPath()), 0o700); err != nil {
		return fmt.Errorf("selecting stack %s: %w", name, err)
	}
	return writeFileAtomic(w.selectedPath(), []byte(name+"\n"), 0o600)
}

// program loads and checks the program: plinth.yaml, or a Terraform
// configuration.
func (w *workspace) program() (project, error) {
	p, err := loadProject(w.arg)
	return p, display.Summarise("Cannot read the program", err)
}

// stackExists reports whether the state store holds the stack.
func (w *workspace) stackExists(ctx context.Context, name string) (bool, error) {
	names, err := w.backend.ListStacks(ctx)
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if n == name {
			return true, nil
		}
	}
	return false, nil
}

// crypter opens the stack's secrets, creating the stack and its key on
// first use (and saying so once). A passphrase stack's salt comes from
// the committed config file, plinth.<stack>.yaml; a salt the file lacks
// (a stack `up` created, or one an older plinth kept only under .plinth)
// is written there at once, so that a clone with the passphrase can open
// the stack.
func (w *workspace) crypter(ctx context.Context) (*secrets.Crypter, error) {
	return w.openCrypter(ctx, false)
}

// crypterInBackground is crypter for the commands every run of plinth
// uses (preview, up, destroy, refresh, import, stack output): the key of
// a passphrase stack whose salt is committed is derived in the
// background (argon2id's tenth of a second of CPU) while the command
// reads the program and the state, evaluates and starts providers. The
// command waits for it only to open or seal a secret, before it records
// anything (openRecorded), and before it ends (checkKeys), so a wrong
// passphrase still fails it with the same error. A stack the command
// creates has its key made in the background as well (the salt line is
// committed once the key is stored, in checkKeys); the operation's first
// record waits for it (keyedJournal).
func (w *workspace) crypterInBackground(ctx context.Context) (*secrets.Crypter, error) {
	return w.openCrypter(ctx, true)
}

func (w *workspace) openCrypter(ctx context.Context, background bool) (*secrets.Crypter, error) {
	cf, err := w.configFile()
	if err != nil {
		return nil, err
	}
	had := cf.Salt()
	c, err := w.crypterWith(ctx, cf, false, background)
	if err != nil {
		return nil, err
	}
	commit := func() {
		if had == "" && cf.Salt() != "" {
			w.commitSalt(ctx, cf)
		}
	}
	if c.Fresh() {
		// A new stack's salt line is set with its key: commit it once
		// the key is stored (checkKeys).
		w.a.whenKeyed(c, commit)
	} else {
		commit()
	}
	return c, nil
}

// commitSalt writes a passphrase stack's new encryptionsalt line to its
// config file. A file that cannot be written is not fatal (the salt is
// also under .plinth): the warning gives the line to add by hand.
func (w *workspace) commitSalt(ctx context.Context, cf *stackConfig) {
	if err := w.saveSalt(ctx, cf); err != nil {
		fmt.Fprintf(w.a.env.Stderr, "warning: the secrets of stack %s are protected by a passphrase, but %v; "+
			"a clone of the project cannot open them until %s holds the line\n  encryptionsalt: %s\n", w.stack, err, cf.shown, cf.Salt())
	}
}

// saveSalt writes cf's salt line into the file, holding its lock.
func (w *workspace) saveSalt(ctx context.Context, cf *stackConfig) error {
	unlock, err := w.lockConfig(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return cf.saveSalt()
}

// crypterFor opens the stack's secrets with cf as the salt's home. With
// readOnly nothing is created: a stack without a configuration is
// secrets.ErrNotConfigured.
func (w *workspace) crypterFor(ctx context.Context, cf *stackConfig, readOnly bool) (*secrets.Crypter, error) {
	return w.crypterWith(ctx, cf, readOnly, false)
}

// crypterWith is crypterFor; with background the key may still be being
// derived when it returns, and the app checks it before the command ends.
func (w *workspace) crypterWith(ctx context.Context, cf *stackConfig, readOnly, background bool) (*secrets.Crypter, error) {
	opts := secrets.Options{Passphrase: w.a.env.getenv(secrets.PassphraseEnv), KDF: w.a.env.KDF,
		Salt: cf, ReadOnly: readOnly, Sealed: func() ([]string, error) { return w.sealedPlaces(ctx, cf) },
		Background: background, OnDerive: w.a.env.OnDerive}
	if w.a.env.KeyAgent != nil {
		opts.Keys = w.a.env.KeyAgent
	}
	c, warning, err := secrets.Open(ctx, w.backend, w.stack, opts)
	if errors.Is(err, secrets.ErrPassphraseRequired) && w.a.env.StdinTerminal {
		if opts.Passphrase, err = w.promptPassphrase(); err == nil {
			c, warning, err = secrets.Open(ctx, w.backend, w.stack, opts)
		}
	}
	if err != nil {
		return nil, secretsError(err)
	}
	if warning != "" {
		fmt.Fprintln(w.a.env.Stderr, "note: "+warning)
	}
	if background {
		w.a.keys = append(w.a.keys, backgroundKey{c: c})
	}
	return c, nil
}

// backgroundKey is a key derived in the background, and what the
// command does once it has it.
type backgroundKey struct {
	c *secrets.Crypter
	// then, if set, runs once the key is ready and right (a new stack's
	// salt line is committed to its config file).
	then func()
}

// whenKeyed has checkKeys run f once c's key is ready and right.
func (a *app) whenKeyed(c *secrets.Crypter, f func()) {
	for i := range a.keys {
		if a.keys[i].c == c {
			a.keys[i].then = f
		}
	}
}

// checkKeys waits for the keys derived in the background and returns the
// command's error err, unless one of them was given a wrong passphrase:
// then that is the error, whatever the command did (a secret it could
// not open may have failed it less clearly, or it needed none). So a
// wrong passphrase never passes silently, and is reported as it was when
// the key was derived before the command began. An operation whose view
// already showed the wrong passphrase (stackRun.keyError) keeps its
// error, so that it is said once.
func (a *app) checkKeys(err error) error {
	for _, k := range a.keys {
		if kerr := k.c.Verify(); kerr != nil {
			if shown := (reported{}); errors.As(err, &shown) && errors.Is(err, secrets.ErrWrongPassphrase) {
				return err // the operation's view said it already
			}
			return secretsError(kerr)
		}
		if k.then != nil {
			k.then()
		}
	}
	return err
}

// verifyKey waits for c's key, if it is being derived in the background,
// and returns the error of a wrong passphrase: a command calls it before
// it records anything, since a value sealed with the wrong key could
// never be opened again.
func verifyKey(c state.Crypter) error {
	if sc, ok := c.(*secrets.Crypter); ok && sc != nil {
		if err := sc.Verify(); err != nil {
			return secretsError(err)
		}
	}
	return nil
}

// keyedJournal is an operation's journal that waits for the stack's key
// before its first record: a new stack's key is derived while the
// program is evaluated and the providers start (see openRecorded), and
// no resource is recorded, and so none created, unless the stack's
// secrets configuration, with its check value, was stored.
type keyedJournal struct {
	engine.Journal
	c *secrets.Crypter
}

func (j keyedJournal) Record(ctx context.Context, e *state.Entry) error {
	if err := verifyKey(j.c); err != nil {
		return err
	}
	return j.Journal.Record(ctx, e)
}

// promptPassphrase asks for the stack's passphrase on the terminal, as
// Pulumi does when PLINTH_PASSPHRASE is unset.
func (w *workspace) promptPassphrase() (string, error) {
	fmt.Fprintf(w.a.env.Stderr, "Enter the passphrase of stack %s (or set %s): ", w.stack, secrets.PassphraseEnv)
	var line string
	var err error
	if w.a.env.ReadPassword != nil {
		line, err = w.a.env.ReadPassword()
		fmt.Fprintln(w.a.env.Stderr)
	} else {
		line, err = bufio.NewReader(w.a.env.Stdin).ReadString('\n')
		if errors.Is(err, io.EOF) && line != "" {
			err = nil
		}
	}
	if err != nil {
		return "", display.Errorf("Passphrase needed", "Reading the passphrase of stack %s from the terminal failed (%v). Set %s instead.", w.stack, err, secrets.PassphraseEnv)
	}
	if line = strings.TrimRight(line, "\r\n"); line == "" {
		return "", display.Errorf("Passphrase needed", "No passphrase was entered for stack %s. Enter it at the prompt, or set %s.", w.stack, secrets.PassphraseEnv)
	}
	return line, nil
}

// sealedPlaces lists where values sealed with the stack's key exist.
func (w *workspace) sealedPlaces(ctx context.Context, cf *stackConfig) ([]string, error) {
	var out []string
	if keys := cf.sealed(); len(keys) > 0 {
		out = append(out, fmt.Sprintf("the secure config values %s in %s", strings.Join(keys, ", "), cf.shown))
	}
	held, err := state.HoldsSecrets(ctx, w.backend, w.stack)
	if err != nil {
		return nil, err
	}
	if held {
		out = append(out, "the stack's state ("+w.stateWhere()+")")
	}
	return out, nil
}

// secretsError gives the secrets package's errors a summary.
func secretsError(err error) error {
	switch {
	case errors.Is(err, secrets.ErrKeyMissing):
		return &display.Error{Summary: "Secrets key missing", Detail: err.Error() + "."}
	case errors.Is(err, secrets.ErrWrongPassphrase):
		return err // display names it "Wrong passphrase"
	case errors.Is(err, postgres.ErrUnclaimed):
		return err // display names it "Stack belongs to no project"
	case errors.Is(err, secrets.ErrPassphraseRequired):
		return &display.Error{Summary: "Passphrase needed", Detail: err.Error() + "."}
	}
	return &display.Error{Summary: "Cannot open the stack's secrets", Detail: err.Error() + "."}
}

// configFile returns the stack's config file, plinth.<stack>.yaml.
func (w *workspace) configFile() (*stackConfig, error) {
	name := "plinth." + w.stack + ".yaml"
	c, err := readStackConfig(filepath.Join(w.dir, name), filepath.Join(w.arg, name))
	if c != nil {
		c.beforeWrite = w.a.env.BeforeConfigWrite
	}
	return c, err
}

// load reads the stack's state without locking it.
func (w *workspace) load(ctx context.Context, c state.Crypter) (*state.Snapshot, error) {
	return w.loadState(ctx, c, true)
}

// loadState reads the stack's state without locking it, checking its
// integrity if verify.
func (w *workspace) loadState(ctx context.Context, c state.Crypter, verify bool) (*state.Snapshot, error) {
	snap, err := state.Load(ctx, w.backend, w.stack, state.OpenOptions{Crypter: c, Verify: verify, Warn: w.warnState})
	return snap, err
}

// open locks the stack for a command that changes it.
func (w *workspace) open(ctx context.Context, c state.Crypter, command string) (*state.Session, error) {
	return w.openRecorded(ctx, c, command, "")
}

// openRecorded locks the stack for an operation that the update history
// records as kind ("" records nothing). It waits first for a key being
// derived in the background, so that a wrong passphrase locks, replays
// and records nothing; a new stack's key (secrets.Crypter.Fresh), which
// no passphrase gets wrong, is waited for only by the operation's first
// record (keyedJournal), and the state is read and the program evaluated
// while it is derived.
func (w *workspace) openRecorded(ctx context.Context, c state.Crypter, command, kind string) (*state.Session, error) {
	if sc, ok := c.(*secrets.Crypter); !ok || sc == nil || !sc.Fresh() {
		if err := verifyKey(c); err != nil {
			return nil, err
		}
	}
	opts := state.OpenOptions{Crypter: c, Command: command, Verify: true, Warn: w.warnState, LockWait: w.lockWait()}
	if kind != "" {
		opts.History = state.NewOperation(kind, Version)
	}
	return state.Open(ctx, w.backend, w.stack, opts)
}

// warnState shows damage that reading the state worked around.
func (w *workspace) warnState(msg string) {
	d := display.Diagnostic{Severity: engine.SeverityWarning, Summary: "Damaged journal", Detail: msg}
	fmt.Fprintln(w.a.env.Stderr, d.Format(w.a.colourFor(false)))
}

// writeFileAtomic replaces path with data: a reader sees the old file or
// the new one, never a mix.
func writeFileAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil { // the data is on disk before the name points at it
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// stateWhere names where a stack's state lives: its directory for the
// file backend, else the database.
func (w *workspace) stateWhere() string {
	if _, ok := w.backend.(*file.Backend); !ok {
		return "stack " + w.stack + " in " + describeBackend(w.backend)
	}
	dir := filepath.Dir(w.backend.Describe(w.stack, state.PartSnapshot))
	if rel, err := filepath.Rel(w.dir, dir); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return dir
}
