package langhost

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/registry"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeProviderHost serves one package's provider and records the request.
type fakeProviderHost struct {
	pkg string
	got []ProviderRequest
}

func (h *fakeProviderHost) Check(*Project) error                  { return nil }
func (h *fakeProviderHost) Run(context.Context, RunRequest) error { return nil }

func (h *fakeProviderHost) Provider(req ProviderRequest) (Command, bool, error) {
	h.got = append(h.got, req)
	if req.Package != h.pkg {
		return Command{}, false, nil
	}
	return Command{Path: "/usr/bin/node", Args: []string{"entry.js"}, Env: []string{"A=1"}}, true, nil
}

// plainHost serves no provider.
type plainHost struct{}

func (plainHost) Check(*Project) error                  { return nil }
func (plainHost) Run(context.Context, RunRequest) error { return nil }

// TestHostedProvider: the host's provider is configured with every stack
// config value under its "project:key" name, as text, secrets still
// secret, as Pulumi configures a dynamic provider; the host is given the
// config as the program gets it; other packages, and hosts that serve no
// provider, are not hosted.
func TestHostedProvider(t *testing.T) {
	host := &fakeProviderHost{pkg: "pulumi-nodejs"}
	p := &Program{Project: &Project{Name: "proj"}, Host: host, Config: map[string]resource.Value{
		"greeting":   resource.NewString("hi"),
		"token":      resource.MakeSecret(resource.NewString("s3cr3t")),
		"aws:region": resource.NewString("eu-west-1"),
		"tags":       resource.NewObject(resource.Object{"a": resource.MakeSecret(resource.NewBool(true))}),
	}}
	got, ok, err := p.HostedProvider("pulumi-nodejs")
	if err != nil || !ok {
		t.Fatalf("HostedProvider = %v, %v", ok, err)
	}
	want := registry.Hosted{Path: "/usr/bin/node", Args: []string{"entry.js"}, Env: []string{"A=1"}, Config: resource.Object{
		"proj:greeting": resource.NewString("hi"),
		"proj:token":    resource.MakeSecret(resource.NewString("s3cr3t")),
		"aws:region":    resource.NewString("eu-west-1"),
		"proj:tags":     resource.MakeSecret(resource.NewString(`{"a":true}`)),
	}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(resource.Value{})); diff != "" {
		t.Errorf("hosted (-want +got):\n%s", diff)
	}
	wantReq := ProviderRequest{Project: p.Project, Package: "pulumi-nodejs",
		Config:     map[string]string{"proj:greeting": "hi", "proj:token": "s3cr3t", "aws:region": "eu-west-1", "proj:tags": `{"a":true}`},
		SecretKeys: []string{"proj:tags", "proj:token"}}
	if diff := cmp.Diff([]ProviderRequest{wantReq}, host.got); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if _, ok, err := p.HostedProvider("aws"); ok || err != nil {
		t.Errorf("aws is hosted: %v, %v", ok, err)
	}
	plain := &Program{Project: p.Project, Host: plainHost{}, Config: p.Config}
	if _, ok, err := plain.HostedProvider("pulumi-nodejs"); ok || err != nil {
		t.Errorf("a host without providers hosts pulumi-nodejs: %v, %v", ok, err)
	}
}
