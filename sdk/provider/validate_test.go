package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The validated toy: rules at the top level and inside nested objects,
// lists and maps (issue 20 item 7).

type Listener struct {
	Port     int    `plinth:"port" validate:"min=1 max=65535"`
	Protocol string `plinth:"protocol,optional" default:"tcp" validate:"oneOf=tcp|udp"`
}

type Spec struct {
	Listeners []Listener          `plinth:"listeners,optional" validate:"len=..2"`
	ByName    map[string]Listener `plinth:"byName,optional"`
}

type vArgs struct {
	Name     string             `plinth:"name" validate:"len=1..8 match=[a-z][a-z0-9-]*"`
	Ratio    *float64           `plinth:"ratio,optional" validate:"min=0 max=1"`
	Token    string             `plinth:"token,optional" validate:"conflicts=password" deprecated:"use password"`
	Password string             `plinth:"password,optional,writeOnly" validate:"requires=user"`
	User     string             `plinth:"user,optional"`
	Spec     *Spec              `plinth:"spec,optional"`
	Timeouts *provider.Timeouts `plinth:"timeouts,optional"`
	Zones    []string           `plinth:"zones,optional,set"`
}

type vState struct {
	vArgs
	Serial  string `plinth:"serial" doc:"Set at create, never changed."`
	Version int    `plinth:"version,stable"`
	Touched string `plinth:"touched"`
}

// vToy records what its operations saw.
type vToy struct{ seen *[]string }

func (v vToy) Create(_ context.Context, op provider.CreateOp[vArgs]) (provider.CreateResult[vState], error) {
	*v.seen = append(*v.seen, "create timeout "+op.Timeout.String()+" password "+op.Inputs.Password)
	return provider.CreateResult[vState]{ID: "v1", Outputs: vState{vArgs: op.Inputs, Serial: "s1", Version: 1, Touched: "now"}}, nil
}

func (v vToy) Update(_ context.Context, op provider.UpdateOp[vArgs, vState]) (provider.UpdateResult[vState], error) {
	*v.seen = append(*v.seen, "update timeout "+op.Timeout.String())
	return provider.UpdateResult[vState]{Outputs: vState{vArgs: op.News, Serial: op.OldOutputs.Serial, Version: op.OldOutputs.Version, Touched: "later"}}, nil
}

func (v vToy) Delete(_ context.Context, op provider.DeleteOp[vArgs, vState]) error {
	*v.seen = append(*v.seen, "delete timeout "+op.Timeout.String())
	return nil
}

const vType = "val:index:V"

func vProvider(t *testing.T, seen *[]string) provider.Provider {
	t.Helper()
	p, err := provider.New(provider.Info{Name: "val", Version: "1.0.0"},
		provider.WithResource[vArgs, vState](vType, vToy{seen: seen}, "A validated toy."))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		t.Fatal(err)
	}
	return p
}

func vURN() resource.URN { return resource.NewURN("dev", "proj", "", vType, "v") }

func TestValidateRulesReportFullPaths(t *testing.T) {
	p := vProvider(t, new([]string))
	tests := map[string]struct {
		news resource.Object
		want []provider.CheckFailure
	}{
		"valid": {news: obj(map[string]any{"name": "web-1", "ratio": 0.5,
			"spec": map[string]any{"listeners": []any{map[string]any{"port": 80}}}})},
		"length and pattern": {news: obj(map[string]any{"name": "Web_server"}), want: []provider.CheckFailure{
			{Property: "name", Reason: "must have at most 8 characters, got 10"},
			{Property: "name", Reason: `must match the pattern [a-z][a-z0-9-]*, got "Web_server"`}}},
		"bounds": {news: obj(map[string]any{"name": "a", "ratio": 1.5}), want: []provider.CheckFailure{
			{Property: "ratio", Reason: "must be at most 1, got 1.5"}}},
		"nested in a list": {news: obj(map[string]any{"name": "a", "spec": map[string]any{"listeners": []any{
			map[string]any{"port": 80}, map[string]any{"port": 0, "protocol": "sctp"}}}}), want: []provider.CheckFailure{
			{Property: "spec.listeners[1].port", Reason: "must be at least 1, got 0"},
			{Property: "spec.listeners[1].protocol", Reason: `must be one of "tcp", "udp", got "sctp"`}}},
		"nested in a map": {news: obj(map[string]any{"name": "a", "spec": map[string]any{"byName": map[string]any{
			"http": map[string]any{"port": 70000}}}}), want: []provider.CheckFailure{
			{Property: "spec.byName.http.port", Reason: "must be at most 65535, got 70000"}}},
		"list length": {news: obj(map[string]any{"name": "a", "spec": map[string]any{"listeners": []any{
			map[string]any{"port": 1}, map[string]any{"port": 2}, map[string]any{"port": 3}}}}), want: []provider.CheckFailure{
			{Property: "spec.listeners", Reason: "must have at most 2 elements, got 3"}}},
		"conflicts and requires": {news: obj(map[string]any{"name": "a", "token": "t", "password": "p"}), want: []provider.CheckFailure{
			{Property: "token", Reason: `conflicts with "password"; set one of them, not both`},
			{Property: "password", Reason: `requires "user" to be set too`}}},
		"duration": {news: obj(map[string]any{"name": "a", "timeouts": map[string]any{"create": "soon"}}), want: []provider.CheckFailure{
			{Property: "timeouts.create", Reason: `must be a duration such as "90s", "20m" or "1h30m", got "soon"`}}},
		"set with a duplicate": {news: obj(map[string]any{"name": "a", "zones": []any{"b", "a", "b"}}), want: []provider.CheckFailure{
			{Property: "zones[2]", Reason: `"b" is also element 0; a set holds each value once`}}},
		"unknowns wait": {news: resource.Object{"name": resource.Unknown(), "ratio": resource.Unknown()}},
		"secrets are checked by their element": {news: resource.Object{"name": secret(str("UPPER"))}, want: []provider.CheckFailure{
			{Property: "name", Reason: `must match the pattern [a-z][a-z0-9-]*, got "UPPER"`}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp, err := p.Check(context.Background(), provider.CheckRequest{URN: vURN(), News: tc.news})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, resp.Failures); d != "" {
				t.Errorf("failures (-want +got):\n%s", d)
			}
		})
	}
}

func TestStableOutputsKeepTheirValueInAnUpdatePreview(t *testing.T) {
	p := vProvider(t, new([]string))
	ctx := context.Background()
	olds := obj(map[string]any{"name": "a"})
	oldOuts := obj(map[string]any{"name": "a", "serial": "s1", "version": 1, "touched": "now"})
	resp, err := p.Update(ctx, provider.UpdateRequest{URN: vURN(), ID: "v1", OldInputs: olds, OldOutputs: oldOuts,
		News: obj(map[string]any{"name": "b"}), Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"name": str("b"), "serial": resource.Unknown(), "version": num(1), "touched": resource.Unknown()}
	if d := cmp.Diff(want, resp.Outputs, valueCmp); d != "" {
		t.Errorf("preview outputs (-want +got):\n%s", d)
	}
}

func TestWriteOnlyInputsReachCreateButNeverOutputsOrDiffs(t *testing.T) {
	var seen []string
	p := vProvider(t, &seen)
	ctx := context.Background()
	checked, err := p.Check(ctx, provider.CheckRequest{URN: vURN(), News: obj(map[string]any{"name": "a", "password": "pw", "user": "u"})})
	if err != nil || len(checked.Failures) > 0 {
		t.Fatal(err, checked.Failures)
	}
	if !checked.Inputs["password"].IsSecret() {
		t.Errorf("checked password %v is not a secret; engines that record inputs would keep it in the clear", checked.Inputs["password"])
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: vURN(), Inputs: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := created.Outputs["password"]; ok {
		t.Errorf("outputs hold the write-only password: %v", created.Outputs)
	}
	if seen[0] != "create timeout 0s password pw" {
		t.Errorf("Create saw %q; want the write-only password", seen[0])
	}
	stored := checked.Inputs.Copy()
	delete(stored, "password") // what Terraform records
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: vURN(), ID: "v1", OldInputs: stored, OldOutputs: created.Outputs, News: checked.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	if diff.Changes != provider.DiffNone {
		t.Errorf("a write-only input that is never recorded made a diff: %v", diff.DetailedDiff)
	}
	sch, _ := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if _, ok := sch.Schema.Resources[vType].Outputs["password"]; ok {
		t.Error("the schema lists the write-only password as an output")
	}
}

func TestTimeoutsPropertyBecomesTheOpTimeout(t *testing.T) {
	var seen []string
	p := vProvider(t, &seen)
	ctx := context.Background()
	ins := obj(map[string]any{"name": "a", "timeouts": map[string]any{"create": "2m", "update": "90s", "delete": "1h"}})
	if _, err := p.Create(ctx, provider.CreateRequest{URN: vURN(), Inputs: ins}); err != nil {
		t.Fatal(err)
	}
	outs := obj(map[string]any{"name": "a", "serial": "s", "version": 1, "touched": "t"})
	if _, err := p.Update(ctx, provider.UpdateRequest{URN: vURN(), ID: "v1", OldInputs: ins, OldOutputs: outs, News: ins}); err != nil {
		t.Fatal(err)
	}
	// An engine's own timeout (Pulumi's customTimeouts) wins.
	if _, err := p.Delete(ctx, provider.DeleteRequest{URN: vURN(), ID: "v1", Inputs: ins, Outputs: outs, Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	want := []string{"create timeout 2m0s password ", "update timeout 1m30s", "delete timeout 5s"}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("timeouts seen (-want +got):\n%s", d)
	}
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: vURN(), ID: "v1", OldInputs: ins, OldOutputs: outs,
		News: obj(map[string]any{"name": "a", "timeouts": map[string]any{"create": "5m"}})})
	if err != nil {
		t.Fatal(err)
	}
	if diff.Changes != provider.DiffSome || diff.Replaces() {
		t.Errorf("changing timeouts: changes %v, replaces %v; want an update in place", diff.Changes, diff.Replaces())
	}
}

func TestDeprecatedPropertiesInTheSchema(t *testing.T) {
	p := vProvider(t, new([]string))
	sch, _ := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if got := sch.Schema.Resources[vType].Inputs["token"].Deprecated; got != "use password" {
		t.Errorf("token's deprecation = %q, want %q", got, "use password")
	}
}

type vBadRule struct {
	N int `plinth:"n" validate:"mni=1"`
}

type vLenOnInt struct {
	N int `plinth:"n" validate:"len=1..3"`
}

type vMinOnString struct {
	S string `plinth:"s" validate:"min=1"`
}

type vBadRegexp struct {
	S string `plinth:"s" validate:"match=[a-"`
}

type vBadRange struct {
	S string `plinth:"s" validate:"len=5..2"`
}

type vBadSibling struct {
	S string `plinth:"s,optional" validate:"conflicts=t"`
}

type Inner struct {
	Secret string `plinth:"secret,writeOnly"`
}

type vNestedWriteOnly struct {
	In Inner `plinth:"in"`
}

type vWriteOnlyDefault struct {
	S string `plinth:"s,writeOnly" default:"x"`
}

type vVariadicString struct {
	S string `plinth:"s,variadic"`
}

type vTwoVariadics struct {
	A []string `plinth:"a,optional,variadic"`
	B []string `plinth:"b,optional,variadic"`
}

type vResult struct {
	R string `plinth:"r"`
}

func fn[A any]() provider.Option {
	return provider.WithFunction("bad:index:f", func(context.Context, A) (vResult, error) { return vResult{}, nil }, "")
}

func TestNewNamesTheBadValidateTag(t *testing.T) {
	tests := map[string]struct {
		opt  provider.Option
		want []string
	}{
		"unknown rule": {res[vBadRule, vBadRule](), []string{"type provider_test.vBadRule, field N:",
			`validate rule "mni=1": unknown rule "mni"`, `did you mean "min"?`}},
		"len on a number": {res[vLenOnInt, vLenOnInt](), []string{"field N:", "len applies to strings, slices and maps; for numbers use min= and max="}},
		"min on a string": {res[vMinOnString, vMinOnString](), []string{"field S:", "min applies to numbers"}},
		"bad regexp":      {res[vBadRegexp, vBadRegexp](), []string{"field S:", `validate rule "match=[a-"`, "not a regular expression"}},
		"bad range":       {res[vBadRange, vBadRange](), []string{"field S:", `"5..2" is not a range`}},
		"unknown sibling": {res[vBadSibling, vBadSibling](), []string{"type provider_test.vBadSibling, field S:",
			`validate tag names "t", which is not another property of provider_test.vBadSibling (its properties are s)`}},
		"nested write-only": {res[vNestedWriteOnly, vNestedWriteOnly](), []string{
			"type provider_test.vNestedWriteOnly, field In.Secret (declared in provider_test.Inner):", "writeOnly applies to top-level properties"}},
		"write-only with a default": {res[vWriteOnlyDefault, vWriteOnlyDefault](), []string{
			"field S:", "writeOnly cannot be combined with a default"}},
		"reserved name": {res[vReserved, vReserved](), []string{"type provider_test.vReserved, field P:",
			`property name "__private" starts with "__", which the SDK reserves`}},
		"set of maps":     {res[vSetOfMaps, vSetOfMaps](), []string{"field L:", "set applies to a slice of strings, numbers, booleans or structs"}},
		"variadic string": {fn[vVariadicString](), []string{"type provider_test.vVariadicString, field S:", "variadic applies to a slice"}},
		"two variadics": {fn[vTwoVariadics](), []string{"function bad:index:f: arguments: type provider_test.vTwoVariadics, field B:",
			"A is variadic too; a function has at most one variadic argument"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := provider.New(provider.Info{Name: "bad"}, tc.opt)
			if err == nil {
				t.Fatal("New accepted the declaration")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
			var de *provider.DeclarationError
			if !errors.As(err, &de) {
				t.Errorf("error is not a *provider.DeclarationError: %v", err)
			}
		})
	}
}

func TestSetsAreSortedSoOrderIsNoChange(t *testing.T) {
	p := vProvider(t, new([]string))
	ctx := context.Background()
	check := func(zones ...any) resource.Object {
		t.Helper()
		resp, err := p.Check(ctx, provider.CheckRequest{URN: vURN(), News: obj(map[string]any{"name": "a", "zones": zones})})
		if err != nil || len(resp.Failures) > 0 {
			t.Fatal(err, resp.Failures)
		}
		return resp.Inputs
	}
	first, second := check("c", "a", "b"), check("b", "c", "a")
	want := resource.NewArray(str("a"), str("b"), str("c"))
	if !first["zones"].Equal(want) {
		t.Errorf("checked zones = %v, want %v", first["zones"], want)
	}
	outs := obj(map[string]any{"name": "a", "zones": []any{"a", "b", "c"}, "serial": "s", "version": 1, "touched": "t"})
	d, err := p.Diff(ctx, provider.DiffRequest{URN: vURN(), ID: "v1", OldInputs: first, OldOutputs: outs, News: second})
	if err != nil || d.Changes != provider.DiffNone {
		t.Errorf("Diff of the same set in another order = %+v, %v; want no change", d, err)
	}
}

type vReserved struct {
	P string `plinth:"__private"`
}

type vSetOfMaps struct {
	L []map[string]string `plinth:"l,set"`
}
