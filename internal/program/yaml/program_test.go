package yaml

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// valueCmp compares values with Value.Equal, which counts secret marks.
var valueCmp = cmp.Comparer(func(a, b resource.Value) bool { return a.Equal(b) })

func str(s string) resource.Value            { return resource.NewString(s) }
func num(f float64) resource.Value           { return resource.NewNumber(f) }
func secret(v resource.Value) resource.Value { return resource.MakeSecret(v) }

func TestParseInterpolation(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    []string // text parts as "t:..." and references as "r:root path"
		wantErr string
	}{
		"plain":        {in: "hello", want: []string{"t:hello"}},
		"empty":        {in: "", want: []string{"t:"}},
		"whole":        {in: "${pet}", want: []string{"r:pet "}},
		"property":     {in: "${pet.id}", want: []string{"r:pet id"}},
		"nested":       {in: "${r.a.b[0]}", want: []string{"r:r a.b[0]"}},
		"quoted key":   {in: `${r.tags["k.x"]}`, want: []string{`r:r tags["k.x"]`}},
		"brace in key": {in: `${r.tags["a}b"]}!`, want: []string{`r:r tags["a}b"]`, "t:!"}},
		"index first":  {in: "${list[2]}", want: []string{"r:list [2]"}},
		"namespaced":   {in: "${aws:region}", want: []string{"r:aws:region "}},
		"around":       {in: "a-${x}-b${y.z}", want: []string{"t:a-", "r:x ", "t:-b", "r:y z"}},
		"escaped":      {in: "$${x} and $$ and $", want: []string{"t:${x} and $$ and $"}},
		"escape then":  {in: "$${a}${b}", want: []string{"t:${a}", "r:b "}},
		"unterminated": {in: "x${pet", wantErr: `without a closing "}"`},
		"empty ref":    {in: "${}", wantErr: "has no name"},
		"bad path":     {in: "${pet..x}", wantErr: "expected a property name"},
		"wildcard":     {in: "${pet.*}", wantErr: "wildcard"},
		"open quote":   {in: `${r["x}`, wantErr: "not terminated"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			parts, err := parseInterpolation(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range parts {
				if p.ref != nil {
					got = append(got, "r:"+p.ref.root+" "+p.ref.path.String())
				} else {
					got = append(got, "t:"+p.text)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
		})
	}
}

const configProgram = `
name: proj
config:
  name: { type: string }
  count: { type: integer, default: 1 }
  ratio: { type: number, default: 0.5 }
  on: { type: boolean, default: false }
  list: { type: array, default: [] }
  obj: { type: object, default: {} }
  token: { type: string, secret: true, default: x }
  random:seed: { type: integer, default: 3 }
  secretCount: { type: integer, secret: true, default: 1 }
`

func mustParse(t testing.TB, src string) *Project {
	t.Helper()
	p, err := Parse("plinth.yaml", t.TempDir(), []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return p
}

func TestParseConfigValue(t *testing.T) {
	p := mustParse(t, configProgram)
	tests := map[string]struct {
		key, text string
		want      program.ConfigValue
		wantErr   string
	}{
		"string":     {key: "name", text: "7", want: program.ConfigValue{Key: "name", Value: str("7"), Declared: true}},
		"namespaced": {key: "proj:name", text: "x", want: program.ConfigValue{Key: "name", Value: str("x"), Declared: true}},
		"integer":    {key: "count", text: "42", want: program.ConfigValue{Key: "count", Value: num(42), Declared: true}},
		"big":        {key: "count", text: "9007199254740993", want: program.ConfigValue{Key: "count", Value: mustNumber("9007199254740993"), Declared: true}},
		"number":     {key: "ratio", text: "2.5", want: program.ConfigValue{Key: "ratio", Value: num(2.5), Declared: true}},
		"boolean":    {key: "on", text: "true", want: program.ConfigValue{Key: "on", Value: resource.NewBool(true), Declared: true}},
		"array":      {key: "list", text: `[1, "a"]`, want: program.ConfigValue{Key: "list", Value: resource.NewArray(num(1), str("a")), Declared: true}},
		"object":     {key: "obj", text: `{"a": {"b": null}}`, want: program.ConfigValue{Key: "obj", Value: resource.NewObject(resource.Object{"a": resource.NewObject(resource.Object{"b": resource.Null()})}), Declared: true}},
		"secret":     {key: "token", text: "hush", want: program.ConfigValue{Key: "token", Value: str("hush"), Secret: true, Declared: true}},
		"provider":   {key: "random:seed", text: "9", want: program.ConfigValue{Key: "random:seed", Value: num(9), Declared: true}},
		"undeclared": {key: "aws:region", text: "eu", want: program.ConfigValue{Key: "aws:region", Value: str("eu")}},
		"not int":    {key: "count", text: "1.5", wantErr: `"1.5", not an integer`},
		"not number": {key: "ratio", text: "lots", wantErr: "not a number"},
		"not bool":   {key: "on", text: "yes", wantErr: "not true or false"},
		"not array":  {key: "list", text: `{"a": 1}`, wantErr: "not a JSON array"},
		"bad json":   {key: "obj", text: `{`, wantErr: "not a JSON object"},
		"bad key":    {key: "a b", text: "x", wantErr: "not a config key"},
		"bad secret": {key: "secretCount", text: "hunter2", wantErr: "secret, so it is not shown"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := p.ParseConfigValue(tt.key, tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, valueCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func mustNumber(s string) resource.Value {
	v, err := resource.ParseNumber(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestProviderConfig(t *testing.T) {
	p := mustParse(t, configProgram)
	stack := map[string]resource.Value{
		"random:length": num(5),
		"random:seed":   str("11"),
		"aws:region":    str("eu"),
		"name":          str("n"),
		"proj:count":    num(2),
	}
	tests := map[string]resource.Object{
		"random": {"length": num(5), "seed": num(11)},
		"aws":    {"region": str("eu")},
		"proj":   {},
		"none":   {},
	}
	for pkg, want := range tests {
		t.Run(pkg, func(t *testing.T) {
			if diff := cmp.Diff(want, p.ProviderConfig(stack, pkg), valueCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("defaults", func(t *testing.T) {
		got := p.DefaultProviderConfig(nil)("random")
		if diff := cmp.Diff(resource.Object{"seed": num(3)}, got, valueCmp); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestConfigValues(t *testing.T) {
	p := mustParse(t, configProgram+`
outputs:
  name: ${name}
  count: ${count}
  token: ${token}
  seed: ${random:seed}
  nsName: ${proj:name}
`)
	tests := map[string]struct {
		stack map[string]resource.Value
		want  resource.Object
	}{
		"defaults": {
			stack: map[string]resource.Value{"name": str("a")},
			want:  resource.Object{"name": str("a"), "count": num(1), "token": secret(str("x")), "seed": num(3), "nsName": str("a")},
		},
		"set, as text and namespaced": {
			stack: map[string]resource.Value{"proj:name": secret(str("s")), "count": str("4"), "token": str("plain"), "random:seed": num(8)},
			want:  resource.Object{"name": secret(str("s")), "count": num(4), "token": secret(str("plain")), "seed": num(8), "nsName": secret(str("s"))},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			mon := runOK(t, p, tt.stack, &fakeMonitor{})
			if diff := cmp.Diff(tt.want, mon.stackOutputs, valueCmp); diff != "" {
				t.Errorf("outputs (-want +got):\n%s", diff)
			}
		})
	}
}

func runOK(t *testing.T, p *Project, config map[string]resource.Value, mon *fakeMonitor) *fakeMonitor {
	t.Helper()
	ev, err := p.Program(config, program.Options{})
	if err != nil {
		t.Fatalf("program: %v", err)
	}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatalf("run: %v", err)
	}
	return mon
}

// exprProgram wraps one expression as variable v, beside a resource r
// whose outputs hold extras (unknown in a preview).
const exprProgram = `
name: expr
config:
  pw: { type: string, secret: true, default: hunter2 }
  list: { type: array, default: [a, b] }
  n: { type: integer, default: 1 }
  obj: { default: { note: x } }
  sobj: { type: object, secret: true, default: { k: v } }
resources:
  r:
    type: plinth:test:R
    properties: { a: 1, tags: { k.x: dotted } }
variables:
  v: %s
outputs:
  v: ${v}
`

var exprExtras = map[string]resource.Object{"r": {
	"computed": str("c"),
	"list":     resource.NewArray(str("x"), secret(str("y"))),
	"obj":      resource.NewObject(resource.Object{"inner": resource.NewObject(resource.Object{"deep": num(7)})}),
	"hidden":   secret(resource.NewObject(resource.Object{"k": str("v")})),
	"b64":      str("aGk="),
	"json":     str(`{"x": [1]}`),
}}

func evalExpr(t *testing.T, src string, preview bool) (resource.Value, error) {
	t.Helper()
	p, err := Parse("plinth.yaml", t.TempDir(), []byte(fmt.Sprintf(exprProgram, src)))
	if err != nil {
		return resource.Value{}, err
	}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		return resource.Value{}, err
	}
	mon := &fakeMonitor{preview: preview, extras: exprExtras}
	if err := ev.Run(context.Background(), mon); err != nil {
		return resource.Value{}, err
	}
	return mon.stackOutputs["v"], nil
}

func TestExpressions(t *testing.T) {
	unknown := resource.Unknown()
	tests := map[string]struct {
		src           string
		want, preview resource.Value // preview defaults to want
		wantErr       string
	}{
		"literal number":       {src: "42", want: num(42)},
		"whole ref keeps type": {src: "${n}", want: num(1)},
		"text around":          {src: "n=${n}", want: str("n=1")},
		"resource id":          {src: "${r.id}", want: str("r-id"), preview: unknown},
		"resource urn":         {src: "${r.urn}", want: str("urn:pulumi:dev::test::plinth:test:R::r")},
		"resource input":       {src: "${r.a}", want: num(1), preview: num(1)},
		"resource output":      {src: "${r.computed}", want: str("c"), preview: unknown},
		"quoted key":           {src: `'${r.tags["k.x"]}'`, want: str("dotted")},
		"nested path":          {src: "${r.obj.inner.deep}", want: num(7), preview: unknown},
		"index":                {src: "${r.list[0]}", want: str("x"), preview: unknown},
		"secret element":       {src: "${r.list[1]}", want: secret(str("y")), preview: unknown},
		"through a secret":     {src: "${r.hidden.k}", want: secret(str("v")), preview: unknown},
		"missing output":       {src: "${r.nothing}", want: resource.Null(), preview: unknown},
		"unknown in text":      {src: "x-${r.computed}", want: str("x-c"), preview: unknown},
		"secret in text":       {src: "pw=${pw}", want: secret(str("pw=hunter2"))},
		"secret and unknown":   {src: "${pw}${r.computed}", want: secret(str("hunter2c")), preview: secret(unknown)},
		"config list item":     {src: "${list[1]}", want: str("b")},
		"missing config item":  {src: "${list[5]}", wantErr: "Index out of range"},
		"number in text":       {src: "'${r.a}!'", want: str("1!")},
		"list in text":         {src: "'x${list}'", wantErr: "fn::toJSON"},
		"resource in text":     {src: "'x${r}'", wantErr: "${r.id}"},
		"resource reference": {src: "${r}", want: resource.NewReference(resource.Reference{URN: "urn:pulumi:dev::test::plinth:test:R::r", ID: ptr(str("r-id"))}),
			preview: resource.NewReference(resource.Reference{URN: "urn:pulumi:dev::test::plinth:test:R::r", ID: ptr(unknown)})},
		"list of refs": {src: `["${n}", "${n}"]`, want: resource.NewArray(num(1), num(1))},

		"secret":              {src: "{fn::secret: x}", want: secret(str("x"))},
		"secret unknown":      {src: "{fn::secret: '${r.computed}'}", want: secret(str("c")), preview: secret(unknown)},
		"join":                {src: "{fn::join: [',', [a, 1, true, null]]}", want: str("a,1,true,")},
		"join big numbers":    {src: "{fn::join: [',', [1000000, -1234567.5, 0.0000015, 1e21, 2.5e-7, 123456789012345678901234]]}", want: str("1000000,-1234567.5,0.0000015,1e+21,2.5e-07,123456789012345678901234")},
		"join secret":         {src: "{fn::join: [',', [a, '${pw}']]}", want: secret(str("a,hunter2"))},
		"join unknown":        {src: "{fn::join: [',', [a, '${r.computed}']]}", want: str("a,c"), preview: unknown},
		"join not list":       {src: "{fn::join: [',', x]}", wantErr: "fn::join takes a separator string and a list"},
		"join object item":    {src: "{fn::join: [',', [{a: 1}]]}", wantErr: "Item 0 of fn::join"},
		"split":               {src: "{fn::split: ['-', a-b]}", want: resource.NewArray(str("a"), str("b"))},
		"split secret":        {src: "{fn::split: ['-', '${pw}']}", want: secret(resource.NewArray(str("hunter2")))},
		"split unknown":       {src: "{fn::split: ['-', '${r.computed}']}", want: resource.NewArray(str("c")), preview: unknown},
		"select":              {src: "{fn::select: [1, '${list}']}", want: str("b")},
		"select secret elem":  {src: "{fn::select: [1, '${r.list}']}", want: secret(str("y")), preview: unknown},
		"select plain elem":   {src: "{fn::select: [0, '${r.list}']}", want: str("x"), preview: unknown},
		"select one unknown":  {src: "{fn::select: [0, [a, '${r.computed}']]}", want: str("a"), preview: str("a")},
		"select secret list":  {src: "{fn::select: [0, {fn::secret: [a]}]}", want: secret(str("a"))},
		"select bad index":    {src: "{fn::select: [x, [a]]}", wantErr: "integer index"},
		"select negative":     {src: "{fn::select: [-1, [a]]}", wantErr: "Index out of range"},
		"toJSON":              {src: "{fn::toJSON: {b: [1, x], a: {c: null}}}", want: str(`{"a":{"c":null},"b":[1,"x"]}`)},
		"toJSON numbers":      {src: "{fn::toJSON: [1000000, 0.5, 1e300]}", want: str(`[1000000,0.5,1e+300]`)},
		"toJSON html":         {src: "{fn::toJSON: '<&>'}", want: str(`"<&>"`)},
		"toJSON secret":       {src: "{fn::toJSON: [a, '${pw}']}", want: secret(str(`["a","hunter2"]`))},
		"toJSON unknown":      {src: "{fn::toJSON: ['${r.computed}']}", want: str(`["c"]`), preview: unknown},
		"toJSON asset":        {src: "{fn::toJSON: {fn::stringAsset: x}}", wantErr: "no JSON form"},
		"fromJSON":            {src: `{fn::fromJSON: '{"a": [1, 2.5, "x", null, false]}'}`, want: resource.NewObject(resource.Object{"a": resource.NewArray(num(1), num(2.5), str("x"), resource.Null(), resource.NewBool(false))})},
		"fromJSON unknown":    {src: "{fn::fromJSON: '${r.json}'}", want: resource.NewObject(resource.Object{"x": resource.NewArray(num(1))}), preview: unknown},
		"fromJSON bad":        {src: "{fn::fromJSON: '{'}", wantErr: "Invalid JSON"},
		"fromJSON trailing":   {src: "{fn::fromJSON: '1 2'}", wantErr: "more text after"},
		"toBase64":            {src: "{fn::toBase64: hi}", want: str("aGk=")},
		"toBase64 secret":     {src: "{fn::toBase64: '${pw}'}", want: secret(str("aHVudGVyMg=="))},
		"fromBase64":          {src: "{fn::fromBase64: '${r.b64}'}", want: str("hi"), preview: unknown},
		"fromBase64 bad":      {src: "{fn::fromBase64: '!!'}", wantErr: "Invalid base64"},
		"fromJSON secret bad": {src: "{fn::fromJSON: {fn::secret: '{hunter2'}}", wantErr: "details are not shown"},
		"secret missing key":  {src: "${sobj.nope}", wantErr: "a secret object without it"},
		"plain missing key":   {src: "${obj.nope}", wantErr: `has no such property. Did you mean "note"? It has "note".`},
		"fromBase64 binary":   {src: "{fn::fromBase64: '/w=='}", wantErr: "not UTF-8"},
		"stringAsset":         {src: "{fn::stringAsset: hi}", want: resource.NewAsset(resource.NewTextAsset("hi"))},
		"stringAsset secret":  {src: "{fn::stringAsset: '${pw}'}", want: secret(resource.NewAsset(resource.NewTextAsset("hunter2")))},
		"stringAsset unknown": {src: "{fn::stringAsset: '${r.computed}'}", want: resource.NewAsset(resource.NewTextAsset("c")), preview: unknown},
		"stringAsset number":  {src: "{fn::stringAsset: 1}", wantErr: "takes a string"},
		"assetArchive bad":    {src: "{fn::assetArchive: {a: x}}", wantErr: `Member "a"`},
		"readFile missing":    {src: "{fn::readFile: nope.txt}", wantErr: "Cannot read file"},
		"fileAsset missing":   {src: "{fn::fileAsset: nope.txt}", wantErr: "Cannot read asset"},
		"fileArchive missing": {src: "{fn::fileArchive: nope}", wantErr: "Cannot read archive"},
		"remoteAsset bad":     {src: "{fn::remoteAsset: 'ftp://x'}", wantErr: "Cannot fetch asset"},
		"remoteArchive bad":   {src: "{fn::remoteArchive: 'ftp://x'}", wantErr: "Cannot fetch archive"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			for _, preview := range []bool{false, true} {
				want := tt.want
				if preview && tt.preview.Kind() != resource.NullKind {
					want = tt.preview
				}
				got, err := evalExpr(t, tt.src, preview)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("preview=%v: error = %v, want one containing %q", preview, err, tt.wantErr)
					}
					continue
				}
				if err != nil {
					t.Fatalf("preview=%v: %v", preview, err)
				}
				if diff := cmp.Diff(want, got, valueCmp); diff != "" {
					t.Errorf("preview=%v (-want +got):\n%s", preview, diff)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestFileFunctionsResolveAgainstProjectDir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "data", "msg.txt"), "from the project")
	write(t, filepath.Join(dir, "plinth.yaml"), `
name: files
variables:
  text: { fn::readFile: data/msg.txt }
  asset: { fn::fileAsset: data/msg.txt }
  archive: { fn::fileArchive: data }
outputs:
  text: ${text}
  asset: ${asset}
  archive: ${archive}
`)
	t.Chdir(t.TempDir())
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	mon := runOK(t, p, nil, &fakeMonitor{})
	wantAsset, err := resource.NewPathAsset(filepath.Join(dir, "data", "msg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wantArchive, err := resource.NewPathArchive(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Object{"text": str("from the project"), "asset": resource.NewAsset(wantAsset), "archive": resource.NewArchive(wantArchive)}
	if diff := cmp.Diff(want, mon.stackOutputs, valueCmp); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := mon.stackOutputs["asset"].Asset().Path; !filepath.IsAbs(got) {
		t.Errorf("asset path %q is not absolute", got)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRemoteAssetFromFileURI(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "remote")
	got, err := evalExpr(t, fmt.Sprintf("{fn::remoteAsset: 'file://%s'}", filepath.Join(dir, "a.txt")), false)
	if err != nil {
		t.Fatal(err)
	}
	if a := got.Asset(); a == nil || a.URI == "" || a.Hash != resource.NewTextAsset("remote").Hash {
		t.Errorf("got %v, want a URI asset hashing like %q", got, "remote")
	}
}

func TestDependencies(t *testing.T) {
	p := mustParse(t, `
name: deps
config:
  c: { default: x }
variables:
  fromA: ${a.id}
  viaVar: pre-${fromA}
  both: ["${viaVar}", "${b.id}"]
  plain: ${c}
resources:
  a: { type: plinth:test:R }
  b: { type: plinth:test:R }
  comp: { type: plinth:test:C, component: true }
  d:
    type: plinth:test:R
    properties:
      x: ${viaVar}
      y: ${both}
      z: ${plain}
      w: { nested: ["${comp.urn}"] }
    options:
      dependsOn: ["${b}"]
      protect: true
`)
	mon := runOK(t, p, nil, &fakeMonitor{})
	reg, _ := mon.byName("d")
	urn := func(typ, name string) resource.URN { return resource.NewURN("dev", "test", "", typ, name) }
	a, b, comp := urn("plinth:test:R", "a"), urn("plinth:test:R", "b"), urn("plinth:test:C", "comp")
	if diff := cmp.Diff([]resource.URN{a, b, comp}, reg.Dependencies); diff != "" {
		t.Errorf("Dependencies (-want +got):\n%s", diff)
	}
	wantProps := map[string][]resource.URN{"x": {a}, "y": {a, b}, "w": {comp}}
	if diff := cmp.Diff(wantProps, reg.PropertyDependencies); diff != "" {
		t.Errorf("PropertyDependencies (-want +got):\n%s", diff)
	}
}

// TestParallelRegistration holds every registration pending: independent
// resources must all be registered before any earlier one finishes, and a
// dependent only once what it needs has finished.
func TestParallelRegistration(t *testing.T) {
	p := mustParse(t, `
name: par
resources:
  a: { type: plinth:test:R }
  b: { type: plinth:test:R, properties: { from: "${a.id}" } }
  c: { type: plinth:test:R }
  d: { type: plinth:test:R }
  e: { type: plinth:test:R, properties: { from: "${b.id}-${d.id}" } }
outputs:
  e: ${e.from}
`)
	mon := &fakeMonitor{hold: true, registered: make(chan string, 10)}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- ev.Run(context.Background(), mon) }()
	expect := func(names ...string) {
		t.Helper()
		var got []string
		for range names {
			got = append(got, <-mon.registered)
		}
		if diff := cmp.Diff(names, got); diff != "" {
			t.Fatalf("registered (-want +got):\n%s", diff)
		}
	}
	expect("a", "c", "d") // all independent ones, with nothing finished
	mon.release("a")
	expect("b")
	mon.release("b")
	mon.release("c")
	mon.release("d") // e needs b and d
	expect("e")
	mon.release("e")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(resource.Object{"e": str("b-id-d-id")}, mon.stackOutputs, valueCmp); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if got := mon.names(); len(got) != 5 {
		t.Errorf("registered %v, want 5 resources", got)
	}
}

func TestCancelStopsScheduling(t *testing.T) {
	p := mustParse(t, `
name: cancel
resources:
  a: { type: plinth:test:R }
  b: { type: plinth:test:R, properties: { from: "${a.id}" } }
`)
	mon := &fakeMonitor{hold: true, registered: make(chan string, 10)}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- ev.Run(ctx, mon) }()
	<-mon.registered
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	mon.release("a") // a late completion must not block or panic
	if got := mon.names(); len(got) != 1 {
		t.Errorf("registered %v, want only a", got)
	}
}

func TestFailureStopsOnlyDependents(t *testing.T) {
	p := mustParse(t, `
name: fail
resources:
  a: { type: plinth:test:R }
  b: { type: plinth:test:R, properties: { from: "${a.id}" } }
  c: { type: plinth:test:R }
variables:
  v: ${b.id}
outputs:
  v: ${v}
`)
	mon := &fakeMonitor{fail: map[string]error{"a": errors.New("boom")}}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = ev.Run(context.Background(), mon)
	var re *ResourceError
	if !errors.As(err, &re) || re.Path != "resources.a" || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("Run = %v, want a ResourceError for resources.a", err)
	}
	if diff := cmp.Diff([]string{"a", "c"}, mon.names()); diff != "" {
		t.Errorf("registered (-want +got):\n%s", diff)
	}
	// The outputs are set even so, the one that could not be computed as
	// unknown: the engine keeps its recorded value and saves the rest.
	if mon.setOutputsCalls != 1 || !mon.stackOutputs["v"].IsUnknown() {
		t.Errorf("stack outputs set %d times to %v, want once with v unknown", mon.setOutputsCalls, mon.stackOutputs)
	}
}

func TestComponentOutputs(t *testing.T) {
	p, err := Load("testdata/components")
	if err != nil {
		t.Fatal(err)
	}
	mon := runOK(t, p, nil, &fakeMonitor{})
	urn := resource.NewURN("dev", "test", "", "plinth:index:App", "app")
	want := map[resource.URN]resource.Object{urn: {"size": num(3), "label": str("app-db-id")}}
	if diff := cmp.Diff(want, mon.componentOutputs, valueCmp); diff != "" {
		t.Errorf("component outputs (-want +got):\n%s", diff)
	}
}

func TestRunsTwice(t *testing.T) {
	p, err := Load("testdata/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, preview := range []bool{true, false} {
		mon := &fakeMonitor{preview: preview}
		if err := ev.Run(context.Background(), mon); err != nil {
			t.Fatal(err)
		}
		if got := len(mon.names()); got != 2 {
			t.Errorf("preview=%v: %d registrations, want 2", preview, got)
		}
	}
}

func TestSchemaUnavailableIsAWarning(t *testing.T) {
	p, err := Load("testdata/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []program.Diagnostic
	ev, err := p.Program(nil, program.Options{Warn: func(d program.Diagnostic) { warnings = append(warnings, d) }})
	if err != nil {
		t.Fatal(err)
	}
	mon := &fakeMonitor{schemaErr: map[string]error{"plinth": errors.New("plugin not found. Install it.")}}
	if err := ev.Run(context.Background(), mon); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Detail, "plugin not found. Install it. The program runs") {
		t.Errorf("warnings = %v, want one about the schema, its sentences ending with one full stop each", warnings)
	}
	if got := len(mon.schemaCalls); got != 1 {
		t.Errorf("%d schema calls (%v), want 1: schemas are cached per package and version", got, mon.schemaCalls)
	}
}

func TestImport(t *testing.T) {
	t.Run("registration", func(t *testing.T) {
		got, err := program.ImportRegistration("random_pet", "pet", "abc")
		if err != nil {
			t.Fatal(err)
		}
		want := engine.Registration{Type: "random:index:random_pet", Name: "pet", Custom: true, Inputs: resource.Object{}, ImportID: "abc"}
		if diff := cmp.Diff(want, got, valueCmp); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		for _, bad := range [][3]string{{"nope", "x", "1"}, {"pulumi:providers:random", "x", "1"}, {"random_pet", "", "1"}, {"random_pet", "x", ""}} {
			if _, err := program.ImportRegistration(bad[0], bad[1], bad[2]); err == nil {
				t.Errorf("ImportRegistration%v succeeded", bad)
			}
		}
	})
	t.Run("request", func(t *testing.T) {
		p, err := Load("testdata/providers")
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.ImportRequest("random_pet", "adopted", "pet-123")
		if err != nil {
			t.Fatal(err)
		}
		want := engine.ImportRequest{Type: "random:index:random_pet", Name: "adopted", ID: "pet-123", Version: "~> 3.6"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("program", func(t *testing.T) {
		p, err := Load("testdata/providers")
		if err != nil {
			t.Fatal(err)
		}
		ev, err := p.ImportProgram(nil, program.Options{}, "random_pet", "adopted", "pet-123")
		if err != nil {
			t.Fatal(err)
		}
		mon := &fakeMonitor{}
		if err := ev.Run(context.Background(), mon); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"random", "adopted"}, mon.names()); diff != "" {
			t.Errorf("registered (-want +got):\n%s", diff)
		}
		reg, _ := mon.byName("adopted")
		if reg.ImportID != "pet-123" || !strings.HasSuffix(reg.Provider, "::random-id") {
			t.Errorf("registration = %+v, want import of pet-123 through the providers-block provider", reg)
		}
		if mon.setOutputsCalls != 0 {
			t.Error("an import set the stack outputs")
		}
	})
}

func TestDiagnosticsAreErrors(t *testing.T) {
	_, err := Parse("plinth.yaml", t.TempDir(), []byte("name: x\nresources:\n  a: { type: nope }\n  b: { type: nope }\n"))
	var ds program.Diagnostics
	if !errors.As(err, &ds) || len(ds) != 2 {
		t.Fatalf("error %v is not two Diagnostics", err)
	}
	var d program.Diagnostic
	if !errors.As(err, &d) || d.Line != 3 {
		t.Errorf("errors.As(Diagnostic) = %+v, want the first, at line 3", d)
	}
}

func TestLoadMissingProgram(t *testing.T) {
	_, err := Load(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "There is no plinth.yaml") {
		t.Fatalf("Load = %v, want a missing-program diagnostic", err)
	}
}

func TestAccessors(t *testing.T) {
	p, err := Load("testdata/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{p.Name(), p.Description(), p.File(), filepath.Base(p.Dir())}
	want := []string{"quickstart", "A first program", "testdata/quickstart/plinth.yaml", "quickstart"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"pet", "note"}, p.Resources()); diff != "" {
		t.Errorf("Resources (-want +got):\n%s", diff)
	}
	cfg := p.Config()
	if len(cfg) != 2 || cfg[1].Key != "token" || !cfg[1].Secret || cfg[1].Required() || cfg[0].Type != ConfigString {
		t.Errorf("Config = %+v", cfg)
	}
}

func TestParseDecimal(t *testing.T) {
	tests := map[string]struct {
		want    resource.Value
		literal string // NumberLiteral of the result
	}{
		"0.1":                   {want: num(0.1), literal: "0.1"},
		"2.50":                  {want: num(2.5), literal: "2.5"},
		"3.602879701896397e+16": {want: num(3.602879701896397e+16), literal: "36028797018963970"},
		"-0":                    {want: num(0), literal: "0"},
		"12345678901234567890":  {want: mustNumber("12345678901234567890"), literal: "12345678901234567890"},
		"0.30000000000000001":   {want: mustNumber("0.30000000000000001"), literal: "0.30000000000000001"},
		"1e-400":                {want: mustNumber("1e-400"), literal: "1e-400"},
		// Integers of up to 15 digits take smallInteger's short cut.
		"2":                {want: num(2), literal: "2"},
		"007":              {want: num(7), literal: "7"},
		"-15":              {want: num(-15), literal: "-15"},
		"999999999999999":  {want: num(999999999999999), literal: "999999999999999"},
		"9007199254740993": {want: mustNumber("9007199254740993"), literal: "9007199254740993"},
	}
	for in, tt := range tests {
		t.Run(in, func(t *testing.T) {
			got, err := parseDecimal(in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([2]any{tt.want, tt.literal}, [2]any{got, got.NumberLiteral()}, valueCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAliasBombIsRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: bomb\nvariables:\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("  self: &self [*self]\n")
	_, err := Parse("plinth.yaml", t.TempDir(), []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "Program too large") {
		t.Fatalf("Parse = %v, want a too-large diagnostic", err)
	}
}

func TestAliasesWithinBudget(t *testing.T) {
	p := mustParse(t, `
name: anchors
variables:
  base: &base { size: 1, tags: [a] }
  copy: *base
outputs:
  copy: ${copy}
`)
	mon := runOK(t, p, nil, &fakeMonitor{})
	want := resource.NewObject(resource.Object{"size": num(1), "tags": resource.NewArray(str("a"))})
	if diff := cmp.Diff(resource.Object{"copy": want}, mon.stackOutputs, valueCmp); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An invoke whose arguments depend on a resource a preview is to create is
// not called then (it would read a world without the resource): its result
// is unknown, as a Terraform data source's is. The update calls it.
func TestInvokeWaitsForPendingResources(t *testing.T) {
	p := mustParse(t, `
name: test
resources:
  gen:
    type: plinth:fs:File
    properties: { path: out/gen.txt, content: hi }
variables:
  path: ${gen.path}
  direct:
    fn::invoke: { function: "plinth:fs:read", arguments: { path: "${gen.path}" }, return: content }
  throughVariable:
    fn::invoke: { function: "plinth:fs:read", arguments: { path: "${path}" }, return: content }
  independent:
    fn::invoke: { function: "plinth:fs:read", arguments: { path: in.txt }, return: content }
outputs:
  direct: ${direct}
  throughVariable: ${throughVariable}
  independent: ${independent}
`)
	ev, err := p.Program(nil, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(req engine.InvokeRequest) (resource.Object, error) {
		return resource.Object{"content": str("read " + req.Args["path"].Str())}, nil
	}
	for _, tt := range []struct {
		preview bool
		want    resource.Object
		calls   int
	}{
		{true, resource.Object{"direct": resource.Unknown(), "throughVariable": resource.Unknown(), "independent": str("read in.txt")}, 1},
		{false, resource.Object{"direct": str("read out/gen.txt"), "throughVariable": str("read out/gen.txt"), "independent": str("read in.txt")}, 3},
	} {
		mon := &fakeMonitor{preview: tt.preview, invokeF: read}
		if err := ev.Run(context.Background(), mon); err != nil {
			t.Fatalf("preview=%v: %v", tt.preview, err)
		}
		if diff := cmp.Diff(tt.want, mon.stackOutputs, valueCmp); diff != "" {
			t.Errorf("preview=%v: outputs (-want +got):\n%s", tt.preview, diff)
		}
		if len(mon.invokes) != tt.calls {
			t.Errorf("preview=%v: %d calls %v, want %d", tt.preview, len(mon.invokes), mon.invokes, tt.calls)
		}
	}
}
