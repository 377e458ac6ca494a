package provserve

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// Validation sees an unknown attribute as set (Terraform validates a
// provisioner before self.id is known), and passes it to Validate as
// unknown; only a null required attribute is missing.
func TestValidateTreatsUnknownAsSet(t *testing.T) {
	var seen resource.Value
	p := provider.Provisioner{
		Name:   "echo",
		Config: map[string]provider.Property{"message": {Type: provider.Type{Kind: provider.TypeString}, Required: true}},
		Validate: func(_ context.Context, cfg resource.Object) []provider.CheckFailure {
			seen = cfg["message"]
			return nil
		},
	}
	tests := map[string]struct {
		message     cty.Value
		wantDiags   []string
		wantUnknown bool
	}{
		"unknown": {message: cty.UnknownVal(cty.String), wantUnknown: true},
		"known":   {message: cty.StringVal("hi")},
		"null":    {message: cty.NullVal(cty.String), wantDiags: []string{`provisioner echo needs "message"`}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			s := newServer(p)
			seen = resource.Value{}
			raw, err := msgpack.Marshal(cty.ObjectVal(map[string]cty.Value{"message": tt.message}), s.ty)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := s.ValidateProvisionerConfig(context.Background(), &tfplugin5.ValidateProvisionerConfig_Request{Config: &tfplugin5.DynamicValue{Msgpack: raw}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range resp.Diagnostics {
				got = append(got, d.Detail)
			}
			if d := cmp.Diff(tt.wantDiags, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if tt.wantDiags == nil && seen.IsUnknown() != tt.wantUnknown {
				t.Errorf("Validate saw message %v, want unknown %v", seen, tt.wantUnknown)
			}
		})
	}
}
