package tfplugin

import (
	"context"
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// BenchmarkCodec measures one value's trip plinth -> cty -> msgpack -> cty
// -> plinth for a resource-sized object.
func BenchmarkCodec(b *testing.B) {
	attrs := map[string]cty.Type{}
	in := map[string]any{}
	for i := 0; i < 10; i++ {
		attrs[fmt.Sprintf("s%d", i)] = cty.String
		in[fmt.Sprintf("s%d", i)] = fmt.Sprintf("value %d", i)
	}
	attrs["tags"] = cty.Map(cty.String)
	in["tags"] = map[string]any{"a": "1", "b": "2"}
	ty := cty.Object(attrs)
	v := obj(in)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := toCty(resource.NewObject(v), ty, nil)
		if err != nil {
			b.Fatal(err)
		}
		dv, _ := encode(c, ty)
		back, _ := decode(dv, ty)
		_ = fromCty(back)
	}
}

func BenchmarkProposedNew(b *testing.B) {
	prior := value(map[string]cty.Value{"name": cty.StringVal("a"), "id": cty.StringVal("i"),
		"opt": cty.SetVal([]cty.Value{inner("a", "1"), inner("b", "2"), inner("c", "3")})})
	config := value(map[string]cty.Value{"name": cty.StringVal("b"),
		"opt": cty.SetVal([]cty.Value{inner("c", ""), inner("b", ""), inner("d", "")})})
	blk := testBlock()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = proposedNew(blk, prior, config)
	}
}

// BenchmarkRealDiff is one Diff of a stored random_pet against the real
// provider: UpgradeResourceState and PlanResourceChange over gRPC.
func BenchmarkRealDiff(b *testing.B) {
	p, cr, inputs := benchPet(b)
	req := provider.DiffRequest{URN: urn("random_pet", "p"), ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, News: inputs, Private: cr.Private}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Diff(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRealCreate is one random_pet Create: PlanResourceChange and
// ApplyResourceChange over gRPC.
func BenchmarkRealCreate(b *testing.B) {
	p, _, inputs := benchPet(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("random_pet", "p"), Inputs: inputs}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchPet(b *testing.B) (*Provider, provider.CreateResponse, resource.Object) {
	b.Helper()
	path, ok := built["random"]
	if !ok {
		b.Skipf("random provider not built: %v", buildErr)
	}
	p, err := Start(context.Background(), Config{Path: path, Dir: b.TempDir(), SchemaCache: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{}); err != nil {
		b.Fatal(err)
	}
	inputs := obj(map[string]any{"length": 2})
	cr, err := p.Create(context.Background(), provider.CreateRequest{URN: urn("random_pet", "p"), Inputs: inputs})
	if err != nil {
		b.Fatal(err)
	}
	return p, cr, inputs
}

// BenchmarkSchema measures the step the schema cache replaces, on a
// running provider of each real kind: GetProviderSchema and its decode
// ("ask") against reading and decoding a cache entry ("cached").
func BenchmarkSchema(b *testing.B) {
	if testing.Short() {
		b.Skip("real Terraform providers are not built in -short mode")
	}
	for _, name := range []string{"random", "time", "tls"} {
		bin, ok := built[name]
		if !ok {
			b.Fatalf("Terraform provider %s was not built: %v", name, buildErr)
		}
		ctx := context.Background()
		cfg := Config{Path: bin, Dir: b.TempDir(), SchemaCache: b.TempDir()}
		p, err := Start(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		key := schemaEntry(schemacache.Cache{Dir: cfg.SchemaCache}.Sum(cfg.Path), p.protocol)
		b.Run(name+"/ask", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := p.wire.schema(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/cached", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, ok := cachedSchema(schemacache.Cache{Dir: cfg.SchemaCache}, key, p.wire); !ok {
					b.Fatal("cache miss")
				}
			}
		})
		p.Close()
	}
}

// BenchmarkRealCheckCreate is what a create of one random_pet asks of the
// provider adapter: Check, then Create.
func BenchmarkRealCheckCreate(b *testing.B) {
	p, _, inputs := benchPet(b)
	u := urn("random_pet", "p")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cr, err := p.Check(ctx, provider.CheckRequest{URN: u, News: inputs})
		if err != nil || len(cr.Failures) > 0 {
			b.Fatal(err, cr.Failures)
		}
		if _, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: cr.Inputs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRealCheckDiff is what a no-change plan of one stored
// random_pet asks of the provider adapter: Check, then Diff.
func BenchmarkRealCheckDiff(b *testing.B) {
	p, created, inputs := benchPet(b)
	u := urn("random_pet", "p")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cr, err := p.Check(ctx, provider.CheckRequest{URN: u, News: inputs, Olds: inputs})
		if err != nil || len(cr.Failures) > 0 {
			b.Fatal(err, cr.Failures)
		}
		req := provider.DiffRequest{URN: u, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: cr.Inputs, Private: created.Private}
		if _, err := p.Diff(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPetPlanChecks is the adapter's own per-resource work around a
// random_pet's calls, without them: a create's plan check, apply check
// and unknowns check, and a no-change plan's proposed state (reusing the
// prior state's bytes) and diff.
func BenchmarkPetPlanChecks(b *testing.B) {
	blk := petBlock()
	ty := blk.impliedType()
	config := cty.ObjectVal(map[string]cty.Value{
		"id": cty.NullVal(cty.String), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.NullVal(cty.String)})
	plan := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	state := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("proud-cat"), "keepers": cty.NullVal(cty.Map(cty.String)), "length": cty.NumberIntVal(2),
		"prefix": cty.NullVal(cty.String), "separator": cty.StringVal("-")})
	null := cty.NullVal(ty)
	req := planRequest{}
	req.prior, _ = encode(state, ty)
	req.config, _ = encode(config, ty)
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			c := planChecker{}
			c.block(nil, blk, null, config, plan)
			_ = compatible(plan, state)
			_ = unknownPaths(state)
		}
	})
	b.Run("no-change", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := encodeProposed(proposedNew(blk, state, config), state, config, req, ty); err != nil {
				b.Fatal(err)
			}
			c := planChecker{}
			c.block(nil, blk, state, config, state)
			_ = diffResponse(state, state, nil)
		}
	})
}
