package tfplugin

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/tfproviders"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// realProviders are the real Terraform providers the tests drive, built (or
// found in the cache) once by TestMain.
var realProviders = []string{"local", "random", "time", "tls"}

// built maps provider names to binaries; buildErr says why some are missing.
var (
	built    map[string]string
	buildErr error
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeModeEnv); mode != "" {
		serveFake(mode) // this process is a fake provider started by a test
		return
	}
	if os.Getenv(plinthRole) != "" {
		playPlinth() // this process plays plinth for TestProviderDiesWithPlinth
		return
	}
	flag.Parse()
	if !testing.Short() {
		buildReal()
	}
	os.Exit(m.Run())
}

func buildReal() {
	dir, err := tfproviders.DefaultDir()
	if err != nil {
		buildErr = err
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	built, buildErr = tfproviders.BuildAll(ctx, dir, realProviders...)
}

// realBinary returns the built provider, skipping in -short mode and
// failing if it could not be built.
func realBinary(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real Terraform providers are not built in -short mode")
	}
	path, ok := built[name]
	if !ok {
		t.Fatalf("Terraform provider %s was not built: %v", name, buildErr)
	}
	return path
}

// startReal starts a real provider in dir (a fresh temporary directory if
// empty) and configures it.
func startReal(t *testing.T, name, dir string, config resource.Object) *Provider {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	var warnings []string
	p, err := Start(context.Background(), Config{
		Path: realBinary(t, name), Dir: dir,
		Warn: func(m string) { warnings = append(warnings, m) },
	})
	if err != nil {
		t.Fatalf("Start(%s): %v", name, err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: config}); err != nil {
		t.Fatalf("Configure(%s): %v", name, err)
	}
	return p
}

// urn names a test resource of a Terraform type.
func urn(tfType, name string) resource.URN {
	return resource.NewURN("test", "tfplugin", "", TypeToken(tfType), name)
}

// obj builds an Object from Go data.
func obj(m map[string]any) resource.Object { return resource.ObjectFromGo(m) }

func mustOK(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
