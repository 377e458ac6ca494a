package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The "toys" provider used across the tests: one resource type with only
// Create (defaults everywhere), one with every optional interface backed by
// function fields, a function and a configuration.

type toyConfig struct {
	Greeting string `plinth:"greeting" default:"hello" doc:"Said on creation."`
	Region   string `plinth:"region,optional,replaceOnChanges"`
	Retries  int    `plinth:"retries,optional"`
	Debug    bool   `plinth:"debug,optional"`
}

type Tag struct {
	Key    string `plinth:"key"`
	Value  string `plinth:"value,optional"`
	Pinned bool   `plinth:"pinned,optional,replaceOnChanges"`
}

type toyArgs struct {
	Name     string            `plinth:"name,replaceOnChanges" doc:"The toy's name."`
	Size     int               `plinth:"size" default:"3"`
	Weight   *float64          `plinth:"weight,optional"`
	Password string            `plinth:"password,optional,secret"`
	Tags     []Tag             `plinth:"tags,optional"`
	Labels   map[string]string `plinth:"labels,optional"`
	Extra    resource.Value    `plinth:"extra,optional"`
	Big      int64             `plinth:"big,optional"`
	Small    uint8             `plinth:"small,optional"`
}

type toyState struct {
	toyArgs
	Serial   string `plinth:"serial" doc:"Assigned on creation."`
	Checksum string `plinth:"checksum,secret"`
}

// basicToy implements only Create.
type basicToy struct{}

func (basicToy) Create(ctx context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
	cfg := provider.GetConfig[toyConfig](ctx)
	return provider.CreateResult[toyState]{
		ID:      "toy-" + op.Inputs.Name,
		Outputs: toyState{toyArgs: op.Inputs, Serial: cfg.Greeting + "-" + op.Inputs.Name, Checksum: "sum"},
	}, nil
}

type (
	createFunc  = func(context.Context, provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error)
	readFunc    = func(context.Context, provider.ReadOp[toyArgs, toyState]) (provider.ReadResult[toyArgs, toyState], error)
	updateFunc  = func(context.Context, provider.UpdateOp[toyArgs, toyState]) (provider.UpdateResult[toyState], error)
	deleteFunc  = func(context.Context, provider.DeleteOp[toyArgs, toyState]) error
	checkFunc   = func(context.Context, provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error)
	diffFunc    = func(context.Context, provider.DiffOp[toyArgs, toyState]) (provider.DiffResult, error)
	pCreateFunc = createFunc
	pUpdateFunc = updateFunc
)

// fullToy implements every optional interface; a nil field gives a plain
// behaviour so a test sets only what it looks at.
type fullToy struct {
	CreateF        createFunc
	ReadF          readFunc
	UpdateF        updateFunc
	DeleteF        deleteFunc
	CheckF         checkFunc
	DiffF          diffFunc
	PreviewCreateF pCreateFunc
	PreviewUpdateF pUpdateFunc
}

func (f *fullToy) Create(ctx context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
	if f.CreateF != nil {
		return f.CreateF(ctx, op)
	}
	return basicToy{}.Create(ctx, op)
}

func (f *fullToy) Read(ctx context.Context, op provider.ReadOp[toyArgs, toyState]) (provider.ReadResult[toyArgs, toyState], error) {
	if f.ReadF != nil {
		return f.ReadF(ctx, op)
	}
	return provider.ReadResult[toyArgs, toyState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}

func (f *fullToy) Update(ctx context.Context, op provider.UpdateOp[toyArgs, toyState]) (provider.UpdateResult[toyState], error) {
	if f.UpdateF != nil {
		return f.UpdateF(ctx, op)
	}
	out := op.OldOutputs
	out.toyArgs = op.News
	return provider.UpdateResult[toyState]{Outputs: out}, nil
}

func (f *fullToy) Delete(ctx context.Context, op provider.DeleteOp[toyArgs, toyState]) error {
	if f.DeleteF != nil {
		return f.DeleteF(ctx, op)
	}
	return nil
}

func (f *fullToy) Check(ctx context.Context, op provider.CheckOp[toyArgs]) (provider.CheckResult[toyArgs], error) {
	if f.CheckF != nil {
		return f.CheckF(ctx, op)
	}
	return provider.CheckResult[toyArgs]{Inputs: op.News}, nil
}

func (f *fullToy) Diff(ctx context.Context, op provider.DiffOp[toyArgs, toyState]) (provider.DiffResult, error) {
	if f.DiffF != nil {
		return f.DiffF(ctx, op)
	}
	return provider.DiffResult{DetailedDiff: op.Default}, nil
}

func (f *fullToy) PreviewCreate(ctx context.Context, op provider.CreateOp[toyArgs]) (provider.CreateResult[toyState], error) {
	if f.PreviewCreateF != nil {
		return f.PreviewCreateF(ctx, op)
	}
	return provider.CreateResult[toyState]{Outputs: toyState{toyArgs: op.Inputs}, Unknowns: []string{"serial", "checksum"}}, nil
}

func (f *fullToy) PreviewUpdate(ctx context.Context, op provider.UpdateOp[toyArgs, toyState]) (provider.UpdateResult[toyState], error) {
	if f.PreviewUpdateF != nil {
		return f.PreviewUpdateF(ctx, op)
	}
	out := op.OldOutputs
	out.toyArgs = op.News
	return provider.UpdateResult[toyState]{Outputs: out}, nil
}

type greetArgs struct {
	Who   string `plinth:"who"`
	Times int    `plinth:"times" default:"1"`
}

type greetResult struct {
	Text string `plinth:"text"`
}

func greet(ctx context.Context, a greetArgs) (greetResult, error) {
	text := ""
	for i := 0; i < a.Times; i++ {
		text += provider.GetConfig[toyConfig](ctx).Greeting + " " + a.Who + "!"
	}
	return greetResult{Text: text}, nil
}

const (
	basicType = "toys:index:Basic"
	fullType  = "toys:index:Full"
)

func basicURN(name string) resource.URN {
	return resource.NewURN("dev", "proj", "", basicType, name)
}

func fullURN(name string) resource.URN {
	return resource.NewURN("dev", "proj", "", fullType, name)
}

// newToys builds the toys provider around full (which may be nil) without
// configuring it.
func newToys(t testing.TB, full *fullToy) provider.Provider {
	t.Helper()
	if full == nil {
		full = &fullToy{}
	}
	p, err := provider.New(provider.Info{Name: "toys", Version: "1.2.3", Description: "Toys for tests."},
		provider.WithConfig[toyConfig](),
		provider.WithResource[toyArgs, toyState](basicType, basicToy{}, "A toy with defaults."),
		provider.WithResource[toyArgs, toyState](fullType, full, "A toy with hooks."),
		provider.WithFunction("toys:index:greet", greet, "Greets someone."),
	)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// configured returns the toys provider, configured with default config.
func configured(t testing.TB, full *fullToy) provider.Provider {
	t.Helper()
	p := newToys(t, full)
	ctx := context.Background()
	checked, err := p.CheckConfig(ctx, provider.CheckRequest{News: resource.Object{}})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, checked.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: checked.Inputs}); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return p
}

func obj(m map[string]any) resource.Object { return resource.ObjectFromGo(m) }

func str(s string) resource.Value { return resource.NewString(s) }

func num(f float64) resource.Value { return resource.NewNumber(f) }

func secret(v resource.Value) resource.Value { return resource.MakeSecret(v) }

// valueCmp compares values by resource.Value.Equal: secret marks count.
var valueCmp = cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })
