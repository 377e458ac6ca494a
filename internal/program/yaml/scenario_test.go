package yaml

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// scenario runs the program in testdata/<dir> and compares what it did
// (registrations, invokes, outputs, warnings and errors) with
// testdata/<dir>/<name>.golden.
type scenario struct {
	dir     string
	config  map[string]resource.Value
	monitor func() *fakeMonitor
}

func lookupFunction(req engine.InvokeRequest) (resource.Object, error) {
	return resource.Object{"id": resource.NewString("ami-" + req.Args["name"].Str()), "token": req.Args["token"]}, nil
}

var scenarios = map[string]scenario{
	"quickstart":         {dir: "quickstart"},
	"quickstart-preview": {dir: "quickstart", monitor: func() *fakeMonitor { return &fakeMonitor{preview: true} }},
	"functions": {dir: "functions", config: map[string]resource.Value{"password": resource.MakeSecret(resource.NewString("pw"))},
		monitor: func() *fakeMonitor { return &fakeMonitor{invokeF: lookupFunction} }},
	"options":   {dir: "options"},
	"providers": {dir: "providers", config: map[string]resource.Value{"random:extra": resource.NewString("x"), "aws:region": resource.NewString("eu-west-1")}, monitor: providersMonitor},
	"providers-preview": {dir: "providers", monitor: func() *fakeMonitor {
		m := providersMonitor()
		m.preview = true
		return m
	}},
	"components":     {dir: "components"},
	"err-yaml":       {dir: "err-yaml"},
	"err-references": {dir: "err-references"},
	"err-cycle":      {dir: "err-cycle"},
	"err-fields":     {dir: "err-fields"},
	"err-config": {dir: "err-config", config: map[string]resource.Value{
		"ratio": resource.NewString("lots"), "enabled": resource.NewNumber(1), "cfg:tags": resource.NewString("[1]"), "stray": resource.NewString("x"),
	}},
	"err-schema": {dir: "err-schema", monitor: schemaMonitor},
	"err-runtime": {dir: "err-runtime", monitor: func() *fakeMonitor {
		return &fakeMonitor{fail: map[string]error{"fails": errors.New("provider said no")}}
	}},
}

func providersMonitor() *fakeMonitor {
	return &fakeMonitor{invokeF: func(req engine.InvokeRequest) (resource.Object, error) {
		return resource.Object{"value": resource.NewString(req.Token)}, nil
	}}
}

func schemaMonitor() *fakeMonitor {
	str, num := schema.Type{Kind: schema.TypeString}, schema.Type{Kind: schema.TypeInteger}
	pet := map[string]schema.Property{
		"length":  {Type: num, Required: true},
		"prefix":  {Type: str},
		"tags":    {Type: schema.Type{Kind: schema.TypeMap, Elem: &str}},
		"keepers": {Type: schema.Type{Kind: schema.TypeObject, Properties: map[string]schema.Property{"a": {Type: str}}}},
	}
	petOut := map[string]schema.Property{"name": {Type: str}, "length": {Type: num}}
	return &fakeMonitor{schemas: map[string]*schema.Schema{"plinth": {
		Name: "plinth",
		Resources: map[string]schema.ResourceSchema{
			"plinth:random:Pet": {Inputs: pet, Outputs: petOut},
			"plinth:fs:File":    {Inputs: map[string]schema.Property{"path": {Type: str, Required: true}, "content": {Type: str}}},
		},
		Functions: map[string]schema.FunctionSchema{"plinth:random:lookup": {}},
	}}}
}

func TestScenarios(t *testing.T) {
	for name, sc := range scenarios {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", sc.dir)
			got := runScenario(t, dir, sc)
			golden := filepath.Join(dir, name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs from the golden file (-want +got):\n%s", name, diff)
			}
		})
	}
}

// runScenario loads, configures and runs a program, and renders what
// happened.
func runScenario(t *testing.T, dir string, sc scenario) string {
	t.Helper()
	var out strings.Builder
	p, err := Load(dir)
	if err != nil {
		return "load error:\n" + err.Error() + "\n"
	}
	var warnings []string
	ev, err := p.Program(sc.config, program.Options{Warn: func(d program.Diagnostic) { warnings = append(warnings, d.Error()) }})
	for _, w := range warnings {
		out.WriteString("warning:\n" + w + "\n")
	}
	if err != nil {
		return out.String() + "config error:\n" + err.Error() + "\n"
	}
	mon := &fakeMonitor{}
	if sc.monitor != nil {
		mon = sc.monitor()
	}
	err = ev.Run(context.Background(), mon)
	out.WriteString(mon.dump())
	if err != nil {
		out.WriteString("run error:\n" + err.Error() + "\n")
	}
	abs, _ := filepath.Abs(dir)
	return strings.ReplaceAll(out.String(), abs, "$DIR")
}
