package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/pulumirpc"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/providers/plinth"
	sdk "github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// These tests drive the real plugin binary, built here, through plinth's
// pulumirpc client adapter: the whole out-of-process path.

var pluginPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pulumi-resource-plinth")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginPath = filepath.Join(dir, "pulumi-resource-plinth")
	build := exec.Command("go", "build", "-o", pluginPath, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the plugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func launch(tb testing.TB, root string) *pulumirpc.Provider {
	tb.Helper()
	ctx := context.Background()
	p, err := pulumirpc.Launch(ctx, pulumirpc.Config{Name: "plinth", Path: pluginPath, Log: func(l pulumirpc.LogLine) { tb.Log(l) }})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	cfg := resource.Object{"root": resource.NewString(root)}
	checked, err := p.CheckConfig(ctx, provider.CheckRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:plinth::default", News: cfg})
	if err != nil || len(checked.Failures) > 0 {
		tb.Fatalf("CheckConfig = %+v, %v", checked, err)
	}
	feat, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: checked.Inputs})
	if err != nil {
		tb.Fatal(err)
	}
	if !feat.AcceptSecrets || !feat.AcceptResources || !feat.SupportsPreview {
		tb.Fatalf("features = %+v, want all", feat)
	}
	return p
}

func urn(typ, name string) resource.URN { return resource.NewURN("dev", "proj", "", typ, name) }

func TestPetLifecycle(t *testing.T) {
	ctx := context.Background()
	p := launch(t, t.TempDir())
	u := urn(plinth.PetType, "pet")
	info, err := p.GetPluginInfo(ctx)
	if err != nil || info.Version != plinth.Version {
		t.Fatalf("GetPluginInfo = %+v, %v", info, err)
	}
	checked, err := p.Check(ctx, provider.CheckRequest{URN: u, News: resource.Object{"length": resource.NewNumber(3), "prefix": resource.NewString("my")}})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("Check = %+v, %v", checked, err)
	}
	if checked.Inputs["separator"].Str() != "-" {
		t.Errorf("the separator's default was not applied: %v", checked.Inputs)
	}
	preview, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: checked.Inputs, Preview: true})
	if err != nil || !preview.Outputs["name"].IsUnknown() {
		t.Errorf("preview = %+v, %v; want an unknown name", preview, err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if name := created.Outputs["name"].Str(); created.ID != name || !strings.HasPrefix(name, "my-") || strings.Count(name, "-") != 3 {
		t.Errorf("Create = %s %v", created.ID, created.Outputs)
	}
	same, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: checked.Inputs})
	if err != nil || same.Changes != provider.DiffNone {
		t.Errorf("Diff = %+v, %v; want no changes", same, err)
	}
	longer := checked.Inputs.Copy()
	longer["length"] = resource.NewNumber(4)
	d, err := p.Diff(ctx, provider.DiffRequest{URN: u, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: longer})
	if err != nil || !d.Replaces() || d.DetailedDiff["length"].Kind != resource.DiffUpdate || !d.DetailedDiff["length"].Replace {
		t.Errorf("Diff of a new length = %+v, %v; want length to replace", d, err)
	}
	read, err := p.Read(ctx, provider.ReadRequest{URN: u, ID: created.ID, Inputs: checked.Inputs, State: created.Outputs})
	if err != nil || read.ID != created.ID || !read.Outputs.Equal(created.Outputs) {
		t.Errorf("Read = %+v, %v", read, err)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: u, ID: created.ID, Inputs: checked.Inputs, Outputs: created.Outputs}); err != nil {
		t.Fatal(err)
	}
}

func TestFileLifecycle(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p := launch(t, root)
	u := urn(plinth.FileType, "f")
	news := resource.Object{"path": resource.NewString("out/hello.txt"), "content": resource.MakeSecret(resource.NewString("hello\n"))}
	checked, err := p.Check(ctx, provider.CheckRequest{URN: u, News: news})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("Check = %+v, %v", checked, err)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: u, Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if !created.Outputs["content"].IsSecret() {
		t.Errorf("the secret content came back in the clear: %v", created.Outputs["content"])
	}
	if b, err := os.ReadFile(filepath.Join(root, "out", "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("the file holds %q, %v", b, err)
	}
	ret, err := p.Invoke(ctx, provider.InvokeRequest{Token: plinth.ReadFileToken, Args: resource.Object{"path": resource.NewString("out/hello.txt")}})
	if err != nil || ret.Return["content"].Str() != "hello\n" {
		t.Errorf("readFile = %+v, %v", ret, err)
	}
	changed := checked.Inputs.Copy()
	changed["content"] = resource.NewString("bye\n")
	updated, err := p.Update(ctx, provider.UpdateRequest{URN: u, ID: created.ID, OldInputs: checked.Inputs, OldOutputs: created.Outputs, News: changed})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "out", "hello.txt")); string(b) != "bye\n" {
		t.Errorf("after Update the file holds %q", b)
	}
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: u, ID: created.ID, Inputs: changed, Outputs: updated.Outputs}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "out", "hello.txt")); !os.IsNotExist(err) {
		t.Errorf("the file survived Delete: %v", err)
	}
	bad, err := p.Check(ctx, provider.CheckRequest{URN: u, News: resource.Object{"path": resource.NewNumber(1)}})
	if err != nil || len(bad.Failures) == 0 {
		t.Errorf("Check of a numeric path = %+v, %v; want failures", bad, err)
	}
}

// TestSchemaMatchesSDK: the schema that crossed the wire as a Pulumi package
// schema says what the SDK's own schema says.
func TestSchemaMatchesSDK(t *testing.T) {
	ctx := context.Background()
	p := launch(t, t.TempDir())
	got, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := plinth.New().GetSchema(ctx, sdk.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Schema.Name != "plinth" || got.Schema.Version != plinth.Version {
		t.Errorf("schema %s %s", got.Schema.Name, got.Schema.Version)
	}
	if diff := cmp.Diff(summary(want.Schema.Resources), summaryWire(got.Schema.Resources)); diff != "" {
		t.Errorf("resources (-sdk +wire):\n%s", diff)
	}
	if diff := cmp.Diff(sortedKeys(want.Schema.Functions), sortedKeys(got.Schema.Functions)); diff != "" {
		t.Errorf("functions (-sdk +wire):\n%s", diff)
	}
}

// summary lists, per resource type, each input and output with its kind
// and flags.
func summary(rs map[string]sdk.ResourceSchema) map[string][]string {
	out := map[string][]string{}
	for tok, r := range rs {
		for name, p := range r.Inputs {
			out[tok] = append(out[tok], fmt.Sprintf("in %s %s required=%v secret=%v replace=%v", name, p.Type.Kind, p.Required, p.Secret, p.ReplaceOnChanges))
		}
		for name, p := range r.Outputs {
			out[tok] = append(out[tok], fmt.Sprintf("out %s %s required=%v secret=%v", name, p.Type.Kind, p.Required, p.Secret))
		}
		sort.Strings(out[tok])
	}
	return out
}

func summaryWire(rs map[string]schema.ResourceSchema) map[string][]string {
	out := map[string][]string{}
	for tok, r := range rs {
		for name, p := range r.Inputs {
			out[tok] = append(out[tok], fmt.Sprintf("in %s %s required=%v secret=%v replace=%v", name, p.Type.Kind, p.Required, p.Secret, p.ReplaceOnChanges))
		}
		for name, p := range r.Outputs {
			out[tok] = append(out[tok], fmt.Sprintf("out %s %s required=%v secret=%v", name, p.Type.Kind, p.Required, p.Secret))
		}
		sort.Strings(out[tok])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// BenchmarkCreateThenDiff2000 creates 2,000 resources through the plugin,
// then diffs each against its own inputs (no change), 16 calls at a time as
// the engine's executor would.
func BenchmarkCreateThenDiff2000(b *testing.B) {
	const n, workers = 2000, 16
	ctx := context.Background()
	p := launch(b, b.TempDir())
	inputs := resource.Object{"length": resource.NewNumber(2), "separator": resource.NewString("-")}
	for b.Loop() {
		outs := make([]provider.CreateResponse, n)
		parallel(b, n, workers, func(i int) error {
			var err error
			outs[i], err = p.Create(ctx, provider.CreateRequest{URN: urn(plinth.PetType, fmt.Sprintf("p%d", i)), Inputs: inputs})
			return err
		})
		parallel(b, n, workers, func(i int) error {
			d, err := p.Diff(ctx, provider.DiffRequest{URN: urn(plinth.PetType, fmt.Sprintf("p%d", i)), ID: outs[i].ID,
				OldInputs: inputs, OldOutputs: outs[i].Outputs, News: inputs})
			if err == nil && d.Changes != provider.DiffNone {
				err = fmt.Errorf("resource %d: unexpected diff %+v", i, d)
			}
			return err
		})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n)/1e3, "µs/call")
}

func parallel(b *testing.B, n, workers int, f func(i int) error) {
	var wg sync.WaitGroup
	next := make(chan int)
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case err := <-errs:
			b.Fatal(err)
		}
	}
	close(next)
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
}
