package nodejs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
)

// TestProvider: pulumi-nodejs is node on the dynamic-provider entry of
// the @pulumi/pulumi found from the program's directory up, with the
// project's name and the stack config in its environment, as Pulumi's
// engine starts it; no other package is served; a program without the
// SDK gets the error that says to run npm install.
func TestProvider(t *testing.T) {
	root := t.TempDir()
	entry := filepath.Join(root, dynamicEntry)
	if err := os.MkdirAll(filepath.Dir(entry), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	proj := &langhost.Project{Name: "proj", Dir: filepath.Join(root, "infra", "app"), File: filepath.Join(root, "infra", "app", "Pulumi.yaml")}
	h := &Host{Node: "/opt/node/bin/node"}
	req := langhost.ProviderRequest{Project: proj, Package: DynamicPackage,
		Config: map[string]string{"proj:greeting": "hi", "proj:token": "s3cr3t"}, SecretKeys: []string{"proj:token"}}
	got, ok, err := h.Provider(req)
	if err != nil || !ok {
		t.Fatalf("Provider = %v, %v", ok, err)
	}
	want := langhost.Command{Path: "/opt/node/bin/node", Args: []string{entry}, Env: []string{
		`PULUMI_CONFIG={"proj:greeting":"hi","proj:token":"s3cr3t"}`, `PULUMI_CONFIG_SECRET_KEYS=["proj:token"]`,
		"PULUMI_NODEJS_PROJECT=proj", "PULUMI_PROJECT=proj",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("command (-want +got):\n%s", diff)
	}

	other := req
	other.Package = "pulumi-python"
	if _, ok, err := h.Provider(other); ok || err != nil {
		t.Errorf("pulumi-python is served: %v, %v", ok, err)
	}

	bare := req
	bare.Project = &langhost.Project{Name: "proj", Dir: t.TempDir()}
	var me *MissingSDKError
	if _, ok, err := h.Provider(bare); !ok || !errors.As(err, &me) {
		t.Errorf("Provider without node_modules = %v, %v; want a MissingSDKError", ok, err)
	}
}
