package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
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
			"{secure: ...}. Keys of the form PACKAGE:NAME configure that package's provider.",
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
}

// configContext opens the stack's config file and key. With readOnly
// (get, ls) no secrets configuration is created: a stack without one can
// have no secure values to open.
func (a *app) configContext(ctx context.Context, readOnly bool) (*configContext, error) {
	ws, err := a.workspace()
	if err != nil {
		return nil, err
	}
	f, err := ws.configFile()
	if err != nil {
		return nil, err
	}
	c, err := ws.crypterFor(ctx, f, readOnly)
	if readOnly && errors.Is(err, secrets.ErrNotConfigured) {
		return &configContext{ws: ws, file: f, crypter: noKey{stack: ws.stack}}, nil
	}
	if err != nil {
		return nil, err
	}
	return &configContext{ws: ws, file: f, crypter: c}, nil
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
	return &cobra.Command{
		Use:   "get KEY",
		Short: "Print a config value (a secret in plain text)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cc, err := a.configContext(c.Context(), true)
			if err != nil {
				return err
			}
			key := cc.key(args[0])
			if _, ok := cc.file.values[key]; !ok {
				return display.Errorf("Config key not set", "Stack %s sets no config key %q (in %s). Set it with `plinth config set %s VALUE`.", cc.ws.stack, key, cc.file.shown, key)
			}
			text, _, err := cc.file.text(key, cc.crypter)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.env.Stdout, text)
			return nil
		},
	}
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
	var secret bool
	c := &cobra.Command{
		Use:   "set KEY [VALUE]",
		Short: "Set a config value, checked against the program's declaration",
		Long: "Set stores a config value for the stack. The value is checked against the type the\n" +
			"program declares for the key. Without VALUE it is read from standard input (handy for\n" +
			"secrets). --secret, or a key the program declares secret, stores it encrypted.",
		Example: "  plinth config set prefix demo\n  plinth config set --secret token s3cr3t\n  echo s3cr3t | plinth config set --secret token",
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(c *cobra.Command, args []string) error {
			cc, err := a.configContext(c.Context(), false)
			if err != nil {
				return err
			}
			text := ""
			if len(args) == 2 {
				text = args[1]
			} else if text, err = readValue(a.env.Stdin); err != nil {
				return err
			}
			return cc.set(a, args[0], text, secret)
		},
	}
	c.Flags().BoolVar(&secret, "secret", false, "store the value encrypted")
	return c
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
	if err := cc.file.set(cv.Key, text, cv.Value, secret || cv.Secret, cc.crypter); err != nil {
		return err
	}
	return cc.file.save()
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
	return &cobra.Command{
		Use:   "rm KEY",
		Short: "Remove a config value",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cc, err := a.configContext(c.Context(), false)
			if err != nil {
				return err
			}
			key := cc.key(args[0])
			if _, ok := cc.file.values[key]; !ok {
				return display.Errorf("Config key not set", "Stack %s sets no config key %q (in %s).", cc.ws.stack, key, cc.file.shown)
			}
			delete(cc.file.values, key)
			return cc.file.save()
		},
	}
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
	for _, k := range cc.file.keys() {
		text, secret, err := cc.file.text(k, cc.crypter)
		if err != nil {
			return err
		}
		if secret && !showSecrets {
			text = "[secret]"
		}
		values[k] = text
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
	for _, k := range cc.file.keys() {
		fmt.Fprintf(tw, "%s\t%s\n", k, values[k])
	}
	return tw.Flush()
}
