// Config of every type Pulumi's Go SDK reads: a string, an int, a bool,
// a float, a list and an object, a secret, and an object with secret
// leaves set with `pulumi config set --path --secret`; secrets reach
// the outputs as secrets. The count of seeded integers comes from
// config.
package main

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// server is an object in config.
type server struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

// database is an object in config whose password and replica tokens are
// secret.
type database struct {
	User     string `json:"user"`
	Password string `json:"password"`
	Replicas []struct {
		Token string `json:"token"`
	} `json:"replicas"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		name := cfg.Require("name")
		count := cfg.RequireInt("count")
		enabled := cfg.RequireBool("enabled")
		ratio := cfg.RequireFloat64("ratio")
		var tags []string
		cfg.RequireObject("tags", &tags)
		var srv server
		cfg.RequireObject("server", &srv)
		password := cfg.RequireSecret("password")
		var db database
		cfg.RequireSecretObject("db", &db)
		var dbMap map[string]any
		dbOut := cfg.RequireSecretObject("db", &dbMap)

		for i := 0; i < count; i++ {
			if _, err := newInteger(ctx, fmt.Sprintf("n%d", i), pulumi.Map{
				"min": pulumi.Int(1), "max": pulumi.Int(100), "seed": pulumi.Sprintf("%s-%d", name, i),
			}); err != nil {
				return err
			}
		}
		settings, err := newFile(ctx, "settings", pulumi.Map{
			"path": pulumi.String("out/settings.txt"),
			"content": pulumi.String(fmt.Sprintf("name=%s enabled=%t ratio=%g tags=%s server=%s:%d\n",
				name, enabled, ratio, strings.Join(tags, ","), srv.Host, srv.Port)),
		})
		if err != nil {
			return err
		}
		creds, err := newFile(ctx, "credentials", pulumi.Map{
			"path":    pulumi.String("out/credentials.txt"),
			"content": pulumi.Sprintf("%s:%s\n", db.User, password),
		})
		if err != nil {
			return err
		}
		ctx.Export("name", pulumi.String(name))
		ctx.Export("count", pulumi.Int(count))
		ctx.Export("enabled", pulumi.Bool(enabled))
		ctx.Export("ratio", pulumi.Float64(ratio))
		ctx.Export("tags", pulumi.ToStringArray(tags))
		ctx.Export("port", pulumi.Int(srv.Port))
		ctx.Export("missing", pulumi.Int(cfg.GetInt("missing")))
		ctx.Export("password", password)
		ctx.Export("dbUser", pulumi.ToSecret(pulumi.String(db.User)))
		ctx.Export("db", dbOut)
		ctx.Export("token", pulumi.ToSecret(pulumi.String(db.Replicas[0].Token)))
		ctx.Export("settings", settings.Sha256)
		ctx.Export("credentials", creds.Content)
		return nil
	})
}
