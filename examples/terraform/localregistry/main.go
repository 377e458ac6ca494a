// Command localregistry serves the Terraform providers the example uses
// (random, local: built from the Go module proxy, or found in the cache)
// from a local HTTPS provider registry standing in for
// registry.terraform.io, and runs commands against it:
//
//	localregistry DIR COMMAND ARGS... [-- COMMAND ARGS...]...
//
// Each command runs in turn with TF_CLI_CONFIG_FILE naming a CLI
// configuration in DIR whose host block points registry.terraform.io at
// the registry, and SSL_CERT_FILE naming its certificate; the first that
// fails stops the rest. The packages are signed with a key made for the
// run, as a real registry's are, so plinth init checks them in full.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/install/registrytest"
	"github.com/plinth-iac/plinth/internal/tfproviders"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: localregistry DIR COMMAND ARGS... [-- COMMAND ARGS...]...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "localregistry:", err)
		os.Exit(1)
	}
}

func run(dir string, args []string) error {
	srv, err := start()
	if err != nil {
		return err
	}
	defer srv.Close()
	env, err := configure(srv, dir)
	if err != nil {
		return err
	}
	for _, argv := range split(args) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, append(os.Environ(), env...)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", argv[0], err)
		}
	}
	return nil
}

// start builds the providers and serves them as registry.terraform.io's
// hashicorp/random and hashicorp/local.
func start() (*registrytest.Server, error) {
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		return nil, err
	}
	var releases []registrytest.Release
	for _, name := range []string{"random", "local"} {
		spec, _ := tfproviders.Lookup(name)
		bin, err := tfproviders.Build(context.Background(), cache, spec)
		if err != nil {
			return nil, fmt.Errorf("building the %s provider: %w", name, err)
		}
		releases = append(releases, registrytest.Release{Namespace: "hashicorp", Type: name, Version: spec.Version, Binary: bin})
	}
	return registrytest.Start(releases...)
}

// configure writes the CLI configuration and the certificate into dir
// and returns the environment naming them.
func configure(srv *registrytest.Server, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ca, rc := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "terraformrc")
	if err := srv.WriteCAFile(ca); err != nil {
		return nil, err
	}
	if err := os.WriteFile(rc, []byte(srv.HostBlock("registry.terraform.io")), 0o644); err != nil {
		return nil, err
	}
	return []string{"TF_CLI_CONFIG_FILE=" + rc, "SSL_CERT_FILE=" + ca}, nil
}

// split cuts the arguments into commands at each "--".
func split(args []string) [][]string {
	var out [][]string
	cur := []string{}
	for _, a := range append(args, "--") {
		if a != "--" {
			cur = append(cur, a)
			continue
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = []string{}
	}
	return out
}
