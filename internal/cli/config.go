package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/program/yaml"
	"github.com/plinth-iac/plinth/internal/secrets"
)

func (a *app) configCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "Get, set, remove and list the stack's config",
		Long: "Stack config lives beside the program in plinth.<stack>.yaml, as a config: mapping.\n" +
			"Values are checked against the program's config declarations; secrets (--secret, or\n" +
			"keys the program declares secret) are stored encrypted with the stack's key as\n" +
			"{secure: ...}. Keys of the form PACKAGE:NAME configure that package's provider.\n" +
			"For a Pulumi program the file is Pulumi.<stack>.yaml, as pulumi keeps it: secure values\n" +
			"are sealed with Pulumi's passphrase secrets provider (PULUMI_CONFIG_PASSPHRASE, else\n" +
			"PLINTH_PASSPHRASE), so pulumi config reads what plinth writes and the reverse.",
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.configGetCommand(), a.configSetCommand(), a.configRmCommand(), a.configLsCommand())
	return c
}

// configContext is what the config commands need: the stack's config
// file and key, and the program (when it loads) to check values.
type configContext struct {
	ws      *workspace
	file    *stackConfig
	crypter cipher
	// For a Pulumi program (project is its name) file is
	// Pulumi.<stack>.yaml, whose keys are in the project's namespace, and
	// own is plinth.<stack>.yaml, where an earlier plinth wrote the
	// program's config: its values, opened with ownCrypter, still win.
	project    string
	own        *stackConfig
	ownCrypter cipher
	ownDirty   bool
	ownSalt    string // own's encryptionsalt as read
	// unlock releases the lock on the config files that a command that
	// changes them holds from before it reads them until it has written
	// them (see lockConfig); nil for get and ls.
	unlock func()
}

// configContext opens the stack's config file and key. With readOnly
// (get, ls) no secrets configuration is created: a stack without one can
// have no secure values to open. Without it the config files are locked
// before they are read; the command releases them with close.
func (a *app) configContext(ctx context.Context, readOnly bool) (cc *configContext, err error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	var unlock func()
	if !readOnly {
		if unlock, err = ws.lockConfig(ctx); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				unlock()
			}
		}()
	}
	cc, err = a.readConfigContext(ctx, ws, readOnly)
	if err != nil {
		return nil, err
	}
	cc.unlock = unlock
	return cc, nil
}

// close releases the config files' lock, if the command holds it.
func (cc *configContext) close() {
	if cc.unlock != nil {
		cc.unlock()
		cc.unlock = nil
	}
}

// readConfigContext reads the stack's config files.
func (a *app) readConfigContext(ctx context.Context, ws *workspace, readOnly bool) (*configContext, error) {
	f, err := ws.configFile()
	if err != nil {
		return nil, err
	}
	key := func() (cipher, error) {
		c, err := ws.crypterFor(ctx, f, readOnly)
		if readOnly && errors.Is(err, secrets.ErrNotConfigured) {
			return noKey{stack: ws.stack}, nil
		}
		return c, err
	}
	if isPulumiProject(ws.dir) {
		return ws.pulumiConfigContext(f, &lazyCipher{open: key})
	}
	c, err := key()
	if err != nil {
		return nil, err
	}
	return &configContext{ws: ws, file: f, crypter: c}, nil
}

// pulumiConfigContext is the config commands' view of a Pulumi program's
// stack: Pulumi.<stack>.yaml, over which own (plinth.<stack>.yaml) wins.
func (w *workspace) pulumiConfigContext(own *stackConfig, key *lazyCipher) (*configContext, error) {
	proj, err := langhost.Load(w.dir, w.arg)
	if err != nil {
		return nil, display.Summarise("Cannot read the program", err)
	}
	pf, err := w.pulumiConfigFile()
	if err != nil {
		return nil, err
	}
	return &configContext{ws: w, file: pf, crypter: w.pulumiSecrets(pf, key.get),
		project: proj.Name, own: own, ownCrypter: key, ownSalt: own.Salt()}, nil
}

// noKey is the cipher of a stack that has no secrets configuration yet.
type noKey struct{ stack string }

func (k noKey) Seal([]byte) (string, error) {
	return "", fmt.Errorf("stack %s has no secrets key yet", k.stack)
}
func (k noKey) Open(string) ([]byte, error) {
	return nil, fmt.Errorf("stack %s has no secrets key", k.stack)
}

func (a *app) configGetCommand() *cobra.Command {
	var path bool
	c := &cobra.Command{
		Use:   "get KEY",
		Short: "Print a config value (a secret in plain text)",
		Long: "Get prints a config value; a secret in plain text, an object or array as JSON. With\n" +
			"--path, KEY is a path into an object: obj.inner, obj[\"a.b\"], list[0].",
		Example: "  plinth config get prefix\n  plinth config get --path obj.inner",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cc, err := a.configContext(c.Context(), true)
			if err != nil {
				return err
			}
			text, err := cc.get(args[0], path)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.env.Stdout, text)
			return nil
		},
	}
	c.Flags().BoolVar(&path, "path", false, "KEY is a path into an object or array")
	return c
}

// get returns the text of a key, or of the value at a path.
func (cc *configContext) get(arg string, isPath bool) (string, error) {
	p, err := cc.path(arg, isPath)
	if err != nil {
		return "", err
	}
	file, ciph, key := cc.where(p.key)
	v, ok, err := file.at(configPath{key: key, steps: p.steps}, ciph)
	if err != nil {
		return "", err
	}
	if !ok {
		what, flag := "key", ""
		if isPath {
			what, flag = "path", "--path "
		}
		return "", display.Errorf("Config key not set", "Stack %s sets no config %s %q (in %s). Set it with `plinth config set %s%s VALUE`.", cc.ws.stack, what, p, file.shown, flag, arg)
	}
	text, _, err := valueText(v)
	return text, err
}

// path reads a command's KEY: a path with --path, else a key alone.
func (cc *configContext) path(arg string, isPath bool) (configPath, error) {
	if !isPath {
		return configPath{key: arg}, nil
	}
	p, err := parseConfigPath(arg)
	if err != nil {
		return p, display.Errorf("Invalid config path", "%s.", err)
	}
	return p, nil
}

// where finds the file that holds key and the key as that file spells
// it: for a Pulumi program plinth.<stack>.yaml if it sets the key (its
// value wins), else Pulumi.<stack>.yaml.
func (cc *configContext) where(key string) (*stackConfig, cipher, string) {
	if cc.project == "" {
		return cc.file, cc.crypter, cc.key(key)
	}
	for _, k := range cc.ownKeys(key) {
		if _, ok := cc.own.values[k]; ok {
			return cc.own, cc.ownCrypter, k
		}
	}
	return cc.file, cc.crypter, cc.pulumiKey(key)
}

// pulumiKey is a key as Pulumi.<stack>.yaml spells it: the project's own
// keys in its namespace.
func (cc *configContext) pulumiKey(key string) string {
	if strings.Contains(key, ":") {
		return key
	}
	return cc.project + ":" + key
}

// ownKeys are the spellings plinth.<stack>.yaml may have for a key of a
// Pulumi program: without the project's namespace and with it.
func (cc *configContext) ownKeys(key string) []string {
	full := cc.pulumiKey(key)
	if rest, ok := strings.CutPrefix(full, cc.project+":"); ok && !strings.Contains(rest, ":") {
		return []string{rest, full}
	}
	return []string{full}
}

// dropOwn removes a key of a Pulumi program from plinth.<stack>.yaml, so
// that Pulumi.<stack>.yaml's value is the one the program gets.
func (cc *configContext) dropOwn(key string) bool {
	dropped := false
	for _, k := range cc.ownKeys(key) {
		if _, ok := cc.own.values[k]; ok {
			delete(cc.own.values, k)
			dropped, cc.ownDirty = true, true
		}
	}
	return dropped
}

// save writes the files the command changed.
func (cc *configContext) save() error {
	if err := cc.file.save(); err != nil {
		return err
	}
	if cc.own != nil && (cc.ownDirty || cc.own.Salt() != cc.ownSalt) {
		return cc.own.save()
	}
	return nil
}

// key strips the project's namespace from a key when the program loads,
// so project:key and key are one key.
func (cc *configContext) key(k string) string {
	p, err := cc.ws.program()
	if err != nil {
		return k
	}
	if rest, ok := strings.CutPrefix(k, p.Name()+":"); ok && !strings.Contains(rest, ":") {
		return rest
	}
	return k
}

func (a *app) configSetCommand() *cobra.Command {
	var secret, path bool
	c := &cobra.Command{
		Use:   "set KEY [VALUE]",
		Short: "Set a config value, checked against the program's declaration",
		Long: "Set stores a config value for the stack. The value is checked against the type the\n" +
			"program declares for the key. Without VALUE it is read from standard input (handy for\n" +
			"secrets). --secret, or a key the program declares secret, stores it encrypted.\n" +
			"For a Pulumi program, --path sets a value inside an object or array (obj.inner,\n" +
			"obj[\"a.b\"], list[0]); with --secret only that value is encrypted.",
		Example: "  plinth config set prefix demo\n  plinth config set --secret token s3cr3t\n  echo s3cr3t | plinth config set --secret token\n" +
			"  plinth config set --path --secret db.password s3cr3t",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			// The value is read before the config files are locked: a
			// person typing it must not hold up other commands.
			text, err := valueArg(a.env.Stdin, args)
			if err != nil {
				return err
			}
			cc, err := a.configContext(c.Context(), false)
			if err != nil {
				return err
			}
			defer cc.close()
			if path {
				return cc.setPath(args[0], text, secret)
			}
			return cc.set(a, args[0], text, secret)
		},
	}
	c.Flags().BoolVar(&secret, "secret", false, "store the value encrypted")
	c.Flags().BoolVar(&path, "path", false, "KEY is a path into an object or array (Pulumi programs)")
	return c
}

// valueArg is config set's VALUE: its second argument, else standard
// input.
func valueArg(stdin io.Reader, args []string) (string, error) {
	if len(args) == 2 {
		return args[1], nil
	}
	return readValue(stdin)
}

func readValue(r io.Reader) (string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("reading the value from standard input: %w", err)
	}
	return strings.TrimRight(string(data), "\r\n"), nil
}

func (cc *configContext) set(a *app, key, text string, secret bool) error {
	cv, err := cc.parseValue(key, text)
	if err != nil {
		return err
	}
	if !cv.Declared && !strings.Contains(cv.Key, ":") {
		d := program.Diagnostic{Severity: program.Warning, Summary: "Undeclared config key",
			Detail: fmt.Sprintf("The program declares no config key %q, so nothing reads it yet; declare it under config in %s.", cv.Key, yaml.FileName)}
		fmt.Fprintln(a.env.Stderr, display.FromProgram(d).Format(a.colourFor(false)))
	}
	if cc.project != "" {
		cc.dropOwn(cv.Key)
		cv.Key = cc.pulumiKey(cv.Key)
	}
	if err := cc.file.set(cv.Key, text, cv.Value, secret || cv.Secret, cc.crypter); err != nil {
		return err
	}
	return cc.save()
}

// errPathPulumiOnly refuses --path for a plinth.yaml program or a
// Terraform configuration, whose config values are typed as a whole.
var errPathPulumiOnly = display.Errorf("Config path not taken", "--path sets a value inside an object of a Pulumi program's config. This program declares the type of each config key: set the whole value as JSON, e.g. `plinth config set KEY '{\"inner\": \"x\"}'`.")

// setPath sets the value at a path of a Pulumi program's config in
// Pulumi.<stack>.yaml, sealing just that value when secret, as
// `pulumi config set --path` does.
func (cc *configContext) setPath(arg, text string, secret bool) error {
	if cc.project == "" {
		return errPathPulumiOnly
	}
	p, err := cc.path(arg, true)
	if err != nil {
		return err
	}
	if own, _, _ := cc.where(p.key); own == cc.own && len(p.steps) > 0 {
		return display.Errorf("Config key in plinth's file", "%s sets %s, which wins over %s. Move it first: `plinth config get %s`, then `plinth config set` it, which writes it to %s.", cc.own.shown, p.key, cc.file.shown, p.key, cc.file.shown)
	}
	cc.dropOwn(p.key)
	key := cc.pulumiKey(p.key)
	leaf := pathLeaf(text)
	if len(p.steps) == 0 {
		leaf = textNode(text)
	}
	if secret {
		ct, err := cc.crypter.Seal([]byte(text))
		if err != nil {
			return fmt.Errorf("encrypting the value of %s: %w", arg, err)
		}
		leaf = secureNode(ct)
	}
	root, err := p.set(cc.file.values[key], leaf)
	if err != nil {
		return display.Errorf("Invalid config path", "In %s: %s.", cc.file.shown, err)
	}
	cc.file.values[key] = root
	return cc.save()
}

// parseValue checks a value against the program's declaration of key.
func (cc *configContext) parseValue(key, text string) (program.ConfigValue, error) {
	if isPulumiProject(cc.ws.dir) {
		return pulumiConfigValue(key, text), nil
	}
	p, err := cc.ws.program()
	if err != nil {
		return program.ConfigValue{}, err
	}
	return p.ParseConfigValue(key, text)
}

func (a *app) configRmCommand() *cobra.Command {
	var path bool
	c := &cobra.Command{
		Use:   "rm KEY",
		Short: "Remove a config value",
		Long:  "Rm removes a config value. With --path (Pulumi programs) it removes a value inside an\nobject or array, and keeps the rest.",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cc, err := a.configContext(c.Context(), false)
			if err != nil {
				return err
			}
			defer cc.close()
			return cc.rm(args[0], path)
		},
	}
	c.Flags().BoolVar(&path, "path", false, "KEY is a path into an object or array (Pulumi programs)")
	return c
}

// rm removes a key, or the value at a path. A Pulumi program's key goes
// from both of its files.
func (cc *configContext) rm(arg string, isPath bool) error {
	if isPath && cc.project == "" {
		return errPathPulumiOnly
	}
	p, err := cc.path(arg, isPath)
	if err != nil {
		return err
	}
	file, _, key := cc.where(p.key)
	removed := false
	if root, ok := file.values[key]; ok && len(p.steps) == 0 {
		delete(file.values, key)
		removed = true
	} else if ok {
		removed = configPath{key: key, steps: p.steps}.remove(root)
	}
	if cc.project != "" && len(p.steps) == 0 {
		removed = cc.dropOwn(key) || removed
		if _, ok := cc.file.values[cc.pulumiKey(key)]; ok {
			delete(cc.file.values, cc.pulumiKey(key))
			removed = true
		}
	}
	if !removed {
		return display.Errorf("Config key not set", "Stack %s sets no config %q (in %s).", cc.ws.stack, p, file.shown)
	}
	if file == cc.own {
		cc.ownDirty = true
	}
	return cc.save()
}

func (a *app) configLsCommand() *cobra.Command {
	var showSecrets, asJSON bool
	c := &cobra.Command{
		Use:   "ls",
		Short: "List the stack's config values",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			cc, err := a.configContext(c.Context(), true)
			if err != nil {
				return err
			}
			return cc.list(a, showSecrets, asJSON)
		},
	}
	c.Flags().BoolVar(&showSecrets, "show-secrets", false, "print secret values in plain text")
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON object")
	return c
}

func (cc *configContext) list(a *app, showSecrets, asJSON bool) error {
	values := map[string]string{}
	var keys []string
	for _, k := range cc.listed() {
		file, ciph, key := cc.where(k)
		text, secret, err := file.text(key, ciph)
		if err != nil {
			return err
		}
		if secret && !showSecrets {
			text = "[secret]"
		}
		values[k] = text
		keys = append(keys, k)
	}
	if asJSON {
		return a.printJSON(values)
	}
	if len(values) == 0 {
		fmt.Fprintf(a.env.Stdout, "Stack %s sets no config; the program's defaults apply.\n", cc.ws.stack)
		return nil
	}
	tw := tabwriter.NewWriter(a.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\n", k, values[k])
	}
	return tw.Flush()
}

// listed are the keys ls shows, sorted: a Pulumi program's from both
// of its files, its own keys without the project's namespace.
func (cc *configContext) listed() []string {
	if cc.project == "" {
		return cc.file.keys()
	}
	seen := map[string]bool{}
	for _, f := range []*stackConfig{cc.file, cc.own} {
		for _, k := range f.keys() {
			seen[cc.ownKeys(k)[0]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
