package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// newPassphraseEnv holds the new passphrase when one passphrase replaces
// another.
const newPassphraseEnv = "PLINTH_NEW_PASSPHRASE"

func (a *app) stackChangeSecretsProviderCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "change-secrets-provider passphrase|key",
		Short: "Switch the stack's secrets between a generated key file and a passphrase",
		Long: "Change-secrets-provider re-encrypts every secret of the stack (secure config values in\n" +
			"plinth.<stack>.yaml and secrets in the state) under a new key, holding the stack's lock.\n" +
			"passphrase: the key is derived from PLINTH_PASSPHRASE (PLINTH_NEW_PASSPHRASE when the\n" +
			"stack already uses a passphrase); the salt is written to plinth.<stack>.yaml, which you\n" +
			"commit. key: a new key is generated under .plinth (PLINTH_PASSPHRASE opens the old one).\n" +
			"The change is recorded before anything is re-encrypted, so if it is interrupted every\n" +
			"secret still opens; run the command again to finish it.",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.changeSecretsProvider(c.Context(), secrets.Provider(args[0]))
		},
	}
}

func (a *app) changeSecretsProvider(ctx context.Context, target secrets.Provider) error {
	if target == "default" {
		target = secrets.ProviderKey // Pulumi's name for it
	}
	ws, err := a.workspace()
	if err != nil {
		return err
	}
	unlock, err := ws.lockConfig(ctx) // the file is resealed at the end
	if err != nil {
		return err
	}
	defer unlock()
	cf, err := ws.configFile()
	if err != nil {
		return err
	}
	old, err := ws.crypterFor(ctx, cf, true)
	if err != nil {
		return err
	}
	s, err := ws.open(ctx, old, "plinth stack change-secrets-provider")
	if err != nil {
		return err
	}
	opts := secrets.Options{Passphrase: a.env.getenv(secrets.PassphraseEnv), KDF: a.env.KDF, Salt: cf}
	ch, err := secrets.BeginChange(ctx, ws.backend, ws.stack, opts, target, a.newPassphrase(cf, target))
	if err != nil {
		return errors.Join(display.Errorf("Cannot change the secrets provider", "%v. Nothing was changed.", err), closeSession(s))
	}
	err = errors.Join(s.Reseal(ctx, ch.Crypter), closeSession(s))
	if err == nil {
		err = cf.reseal(old, ch.Crypter, ch.Salt)
	}
	if err == nil {
		err = ch.Finish(ctx)
	}
	if err != nil {
		return display.Errorf("Secrets provider change interrupted", "%v. Every secret still opens with the old key or the new; run the command again to finish.", err)
	}
	fmt.Fprintf(a.env.Stdout, "The secrets of stack %s now use %s.\n", ws.stack, describeProvider(target, cf))
	return nil
}

// newPassphrase is the passphrase of a passphrase target: the new one
// when the stack already has a passphrase, else PLINTH_PASSPHRASE.
func (a *app) newPassphrase(cf *stackConfig, target secrets.Provider) string {
	if target != secrets.ProviderPassphrase {
		return ""
	}
	if p := a.env.getenv(newPassphraseEnv); p != "" || cf.Salt() != "" {
		return p
	}
	return a.env.getenv(secrets.PassphraseEnv)
}

func describeProvider(p secrets.Provider, cf *stackConfig) string {
	if p == secrets.ProviderPassphrase {
		return "a passphrase; commit " + cf.shown + ", which now holds its salt"
	}
	return "a generated key stored under .plinth (keep a backup of it)"
}

// reseal re-encrypts every secure value with next, sets the salt line and
// saves the file.
func (c *stackConfig) reseal(old, next cipher, salt string) error {
	for _, k := range c.sealed() {
		ct, _ := secure(c.values[k])
		pt, err := old.Open(ct)
		if err != nil {
			return fmt.Errorf("decrypting %s in %s: %w", k, c.shown, err)
		}
		if err := c.set(k, string(pt), resource.Value{}, true, next); err != nil {
			return err
		}
	}
	c.salt = salt
	return c.save()
}
