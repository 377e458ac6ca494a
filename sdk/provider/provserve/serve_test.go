package provserve_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/tfplugin"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// buildEcho builds the SDK-written echo provisioner plugin.
func buildEcho(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "terraform-provisioner-echo")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/echo").CombinedOutput()
	if err != nil {
		t.Fatalf("building the echo provisioner: %v\n%s", err, out)
	}
	return bin
}

func start(t *testing.T, bin string) *tfplugin.Provisioner {
	t.Helper()
	p, err := tfplugin.StartProvisioner(context.Background(), tfplugin.Config{Path: bin, Name: "echo"})
	if err != nil {
		t.Fatalf("StartProvisioner: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestSDKProvisionerOutOfProcess(t *testing.T) {
	bin := buildEcho(t)
	tests := map[string]struct {
		config   resource.Object
		wantOut  []string
		wantErr  string
		failures []provider.CheckFailure
	}{
		"runs": {
			config:  resource.Object{"message": resource.NewString("world")},
			wantOut: []string{"hello world", "second line"},
		},
		"fails": {
			config:  resource.Object{"message": resource.NewString("x"), "fail": resource.NewBool(true)},
			wantOut: []string{"hello x", "second line"},
			wantErr: "failing as asked",
		},
		"invalid": {
			config:   resource.Object{"mesage": resource.NewString("x")},
			failures: []provider.CheckFailure{{Property: "mesage"}, {Property: "message"}},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			p := start(t, bin)
			v, err := p.ValidateConfig(context.Background(), provider.ValidateProvisionerRequest{Config: tt.config})
			if err != nil {
				t.Fatalf("ValidateConfig: %v", err)
			}
			var props []provider.CheckFailure
			for _, f := range v.Failures {
				props = append(props, provider.CheckFailure{Property: f.Property})
			}
			if d := cmp.Diff(tt.failures, props); d != "" {
				t.Fatalf("failures (-want +got):\n%s\n%v", d, v.Failures)
			}
			if len(tt.failures) > 0 {
				return
			}
			var out []string
			err = p.Provision(context.Background(), provider.ProvisionRequest{Config: tt.config, Output: func(l string) { out = append(out, l) }})
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Provision: got %v, want error containing %q", err, tt.wantErr)
			}
			if d := cmp.Diff(tt.wantOut, out); d != "" {
				t.Errorf("output (-want +got):\n%s", d)
			}
		})
	}
}

func TestSDKProvisionerStop(t *testing.T) {
	p := start(t, buildEcho(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- p.Provision(ctx, provider.ProvisionRequest{Config: resource.Object{"message": resource.NewString("x"), "sleep": resource.NewNumber(60)}})
	}()
	time.Sleep(300 * time.Millisecond)
	if err := p.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "stopped while sleeping") {
			t.Fatalf("Provision after Stop: got %v, want the provisioner's stopped error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Provision did not end within 10s of Stop")
	}
}

// Through plinth's client, as plinth validates a provisioner whose message
// interpolates self.id before the resource exists: unknown is not missing.
func TestSDKProvisionerValidatesUnknownOutOfProcess(t *testing.T) {
	p := start(t, buildEcho(t))
	v, err := p.ValidateConfig(context.Background(), provider.ValidateProvisionerRequest{
		Config: resource.Object{"message": resource.Unknown()}})
	if err != nil {
		t.Fatalf("ValidateConfig: %v", err)
	}
	if len(v.Failures) > 0 {
		t.Errorf("an unknown message was refused: %v", v.Failures)
	}
}
