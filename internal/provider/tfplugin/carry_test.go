package tfplugin

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestRealConfiguredAs: a provider configured with a wholly known
// configuration answers true for exactly that configuration (the engine's
// version key aside, which is not Terraform configuration), false for
// another or one with unknowns; a provider configured with unknowns (a
// preview's) answers false for everything; an unconfigured one too. Its
// process is running until Close.
func TestRealConfiguredAs(t *testing.T) {
	proxy := func(url string) resource.Object {
		return resource.Object{"proxy": resource.NewObject(resource.Object{"url": resource.NewString(url)})}
	}
	unknown := resource.Object{"proxy": resource.NewObject(resource.Object{"url": resource.Unknown()})}
	withVersion := proxy("http://proxy:3128")
	withVersion["version"] = resource.NewString("4.3.0")
	tests := map[string]struct {
		configured resource.Object // nil: not configured
		preview    bool
		asked      resource.Object
		want       bool
	}{
		"the same":                 {configured: proxy("http://proxy:3128"), asked: proxy("http://proxy:3128"), want: true},
		"the same, with a version": {configured: proxy("http://proxy:3128"), asked: withVersion, want: true},
		"another":                  {configured: proxy("http://proxy:3128"), asked: proxy("http://other:3128")},
		"asked with unknowns":      {configured: proxy("http://proxy:3128"), asked: unknown},
		"configured with unknowns": {configured: unknown, preview: true, asked: unknown},
		"not configured":           {asked: proxy("http://proxy:3128")},
		"an unsupported property":  {configured: proxy("http://proxy:3128"), asked: resource.Object{"prox": resource.NewBool(true)}},
	}
	ctx := context.Background()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, err := Start(ctx, Config{Path: realBinary(t, "tls"), Dir: t.TempDir()})
			mustOK(t, "Start", err)
			if tc.configured != nil {
				_, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: tc.configured, Preview: tc.preview})
				mustOK(t, "Configure", err)
			}
			if got := p.ConfiguredAs(provider.ConfigureRequest{Inputs: tc.asked}); got != tc.want {
				t.Errorf("ConfiguredAs = %v, want %v", got, tc.want)
			}
			if p.Exited() {
				t.Errorf("Exited before Close")
			}
			mustOK(t, "Close", p.Close())
			if !p.Exited() {
				t.Errorf("not Exited after Close")
			}
		})
	}
}
