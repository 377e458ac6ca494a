package yaml

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// builtinFunc computes a function from its evaluated argument.
type builtinFunc func(r *run, e *expr, arg resource.Value) (resource.Value, error)

// builtin describes an fn:: function: its argument shape and its code.
type builtin struct {
	// arity, when above zero, is the length of the list the function takes.
	arity int
	usage string
	run   builtinFunc
}

// builtins returns the functions by name (without "fn::"). fn::invoke is
// handled apart: its argument is checked when the program loads.
func builtins() map[string]builtin {
	return map[string]builtin{
		"secret":        {usage: "fn::secret: VALUE", run: fnSecret},
		"readFile":      {usage: "fn::readFile: PATH", run: strict(fnReadFile)},
		"join":          {arity: 2, usage: "fn::join: [SEPARATOR, [ITEMS...]]", run: strict(fnJoin)},
		"split":         {arity: 2, usage: "fn::split: [SEPARATOR, STRING]", run: strict(fnSplit)},
		"select":        {arity: 2, usage: "fn::select: [INDEX, LIST]", run: fnSelect},
		"toJSON":        {usage: "fn::toJSON: VALUE", run: strict(fnToJSON)},
		"fromJSON":      {usage: "fn::fromJSON: STRING", run: strict(fnFromJSON)},
		"fileAsset":     {usage: "fn::fileAsset: PATH", run: strict(fnFileAsset)},
		"stringAsset":   {usage: "fn::stringAsset: TEXT", run: strict(fnStringAsset)},
		"remoteAsset":   {usage: "fn::remoteAsset: URI", run: strict(fnRemoteAsset)},
		"fileArchive":   {usage: "fn::fileArchive: PATH", run: strict(fnFileArchive)},
		"remoteArchive": {usage: "fn::remoteArchive: URI", run: strict(fnRemoteArchive)},
		"assetArchive":  {usage: "fn::assetArchive: {NAME: ASSET_OR_ARCHIVE, ...}", run: strict(fnAssetArchive)},
		"toBase64":      {usage: "fn::toBase64: STRING", run: strict(fnToBase64)},
		"fromBase64":    {usage: "fn::fromBase64: STRING", run: strict(fnFromBase64)},
	}
}

// functionNames lists every function, for suggestions.
func functionNames() []string {
	names := []string{"fn::invoke"}
	for n := range builtins() {
		names = append(names, "fn::"+n)
	}
	sort.Strings(names)
	return names
}

// parseCall parses an fn:: call and checks its argument's shape where the
// program states it literally.
func (r *reader) parseCall(en entry, name string, e *expr, depth int) *expr {
	e.kind, e.compound().fn, e.at = exprCall, name, en.at
	where := e.where + ".fn::" + name
	if name == "invoke" {
		e.compound().call = r.parseInvoke(en.value, where, depth)
		if e.call() == nil {
			return nil
		}
		return e
	}
	b, ok := builtins()[name]
	if !ok {
		r.errorf(en.at, e.where, "Unknown function",
			"There is no function %q.%s The functions are %s.", en.key, suggest(en.key, functionNames()), quoteList(functionNames(), 20))
		return nil
	}
	if e.compound().arg = r.parseExpr(en.value, where, depth+1); e.arg() == nil {
		return nil
	}
	if b.arity > 0 && e.arg().kind != exprRef && (e.arg().kind != exprList || len(e.arg().elems()) != b.arity) {
		r.errorf(e.arg().at, where, "Invalid function argument",
			"fn::%s takes a list of %d items: %s.", name, b.arity, b.usage)
		return nil
	}
	return e
}

// strict wraps a function that needs its whole argument: an unknown
// anywhere in it makes the result unknown, and a secret anywhere in it makes
// the result secret.
func strict(f builtinFunc) builtinFunc {
	return func(r *run, e *expr, arg resource.Value) (resource.Value, error) {
		if arg.ContainsUnknowns() {
			return resource.Sticky(resource.Unknown(), arg), nil
		}
		plain, secret := arg.Unsecret()
		v, err := f(r, e, plain)
		if err != nil && secret {
			return resource.Value{}, hideDetail(r, e, err)
		}
		if err != nil {
			return resource.Value{}, err
		}
		return resource.Sticky(v, arg), nil
	}
}

// hideDetail replaces the detail of an error about a secret argument,
// which may quote it.
func hideDetail(r *run, e *expr, err error) error {
	summary := "Function failed"
	if d, ok := err.(program.Diagnostic); ok {
		summary = d.Summary
	}
	return r.fail(e, summary, "fn::%s failed on a secret argument; the details are not shown, to keep the secret. Check the value it is given.", e.fn())
}

func fnSecret(_ *run, _ *expr, arg resource.Value) (resource.Value, error) {
	return resource.MakeSecret(arg), nil
}

// pair splits a two-item list argument.
func pair(r *run, e *expr, arg resource.Value) (resource.Value, resource.Value, error) {
	a := arg.SecretElement().Array()
	if arg.SecretElement().Kind() != resource.ArrayKind || len(a) != 2 {
		return resource.Value{}, resource.Value{}, r.fail(e, "Invalid function argument",
			"fn::%s takes a list of 2 items: %s. It was given %s.", e.fn(), builtins()[e.fn()].usage, describeValue(arg))
	}
	return a[0], a[1], nil
}

func fnJoin(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	sep, items, err := pair(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	if sep.Kind() != resource.StringKind || items.Kind() != resource.ArrayKind {
		return resource.Value{}, r.fail(e, "Invalid function argument",
			"fn::join takes a separator string and a list of strings (%s); it was given %s and %s.", builtins()["join"].usage, describeValue(sep), describeValue(items))
	}
	strs := make([]string, len(items.Array()))
	for i, it := range items.Array() {
		s, err := toText(it)
		if err != nil {
			return resource.Value{}, r.fail(e, "Invalid function argument", "Item %d of fn::join: %s.", i, err)
		}
		strs[i] = s
	}
	return resource.NewString(strings.Join(strs, sep.Str())), nil
}

func fnSplit(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	sep, s, err := pair(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	if sep.Kind() != resource.StringKind || s.Kind() != resource.StringKind {
		return resource.Value{}, r.fail(e, "Invalid function argument",
			"fn::split takes a separator and a string (%s); it was given %s and %s.", builtins()["split"].usage, describeValue(sep), describeValue(s))
	}
	parts := strings.Split(s.Str(), sep.Str())
	out := make([]resource.Value, len(parts))
	for i, p := range parts {
		out[i] = resource.NewString(p)
	}
	return resource.NewArray(out...), nil
}

// fnSelect needs only the index and the list itself known: the element it
// picks may be unknown or secret on its own.
func fnSelect(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	if arg.IsUnknown() {
		return arg, nil
	}
	idx, list, err := pair(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	outer := []resource.Value{idx, list}
	if arg.IsSecret() {
		outer = append(outer, arg)
	}
	if idx.SecretElement().IsUnknown() || list.SecretElement().IsUnknown() {
		return shallowSticky(resource.Unknown(), outer...), nil
	}
	i, items := idx.SecretElement(), list.SecretElement()
	n := int(i.Number())
	if i.Kind() != resource.NumberKind || float64(n) != i.Number() || items.Kind() != resource.ArrayKind {
		return resource.Value{}, r.fail(e, "Invalid function argument",
			"fn::select takes an integer index and a list (%s); it was given %s and %s.", builtins()["select"].usage, describeValue(idx), describeValue(list))
	}
	if n < 0 || n >= len(items.Array()) {
		return resource.Value{}, r.fail(e, "Index out of range",
			"fn::select asks for item %d of a list of %s. Use an index from 0 to %d.", n, plural(len(items.Array()), "item"), len(items.Array())-1)
	}
	return shallowSticky(items.Array()[n], outer...), nil
}

// shallowSticky marks v secret if any of outer is itself a secret.
func shallowSticky(v resource.Value, outer ...resource.Value) resource.Value {
	for _, o := range outer {
		if o.IsSecret() {
			return resource.MakeSecret(v)
		}
	}
	return v
}

func fnToJSON(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	g, err := jsonData(arg)
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot encode as JSON", "fn::toJSON: %s.", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return resource.Value{}, r.fail(e, "Cannot encode as JSON", "fn::toJSON: %s.", err)
	}
	return resource.NewString(strings.TrimSuffix(buf.String(), "\n")), nil
}

func fnFromJSON(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	s, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	v, err := parseJSON(s)
	if err != nil {
		return resource.Value{}, r.fail(e, "Invalid JSON", "fn::fromJSON could not parse its argument: %s.", err)
	}
	return v, nil
}

func stringArg(r *run, e *expr, arg resource.Value) (string, error) {
	if arg.Kind() != resource.StringKind {
		return "", r.fail(e, "Invalid function argument",
			"fn::%s takes a string (%s); it was given %s.", e.fn(), builtins()[e.fn()].usage, describeValue(arg))
	}
	return arg.Str(), nil
}

// projectPath resolves a path against the project directory.
func (r *run) projectPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.p.dir, p)
}

func fnReadFile(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	p, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	b, err := os.ReadFile(r.projectPath(p))
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot read file",
			"fn::readFile could not read %q: %s. Paths are relative to the project directory %s.", p, err, r.p.dir)
	}
	return resource.NewString(string(b)), nil
}

func fnFileAsset(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	p, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	a, err := resource.NewPathAsset(r.projectPath(p))
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot read asset",
			"fn::fileAsset could not read %q: %s. Paths are relative to the project directory %s.", p, err, r.p.dir)
	}
	return resource.NewAsset(a), nil
}

func fnStringAsset(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	s, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	return resource.NewAsset(resource.NewTextAsset(s)), nil
}

func fnRemoteAsset(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	u, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	a, err := resource.NewURIAsset(u)
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot fetch asset", "fn::remoteAsset could not read %q: %s.", u, err)
	}
	return resource.NewAsset(a), nil
}

func fnFileArchive(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	p, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	a, err := resource.NewPathArchive(r.projectPath(p))
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot read archive",
			"fn::fileArchive could not read %q: %s. Paths are relative to the project directory %s.", p, err, r.p.dir)
	}
	return resource.NewArchive(a), nil
}

func fnRemoteArchive(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	u, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	a, err := resource.NewURIArchive(u)
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot fetch archive", "fn::remoteArchive could not read %q: %s.", u, err)
	}
	return resource.NewArchive(a), nil
}

func fnAssetArchive(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	if arg.Kind() != resource.ObjectKind {
		return resource.Value{}, r.fail(e, "Invalid function argument",
			"fn::assetArchive takes a mapping of names to assets and archives (%s); it was given %s.", builtins()["assetArchive"].usage, describeValue(arg))
	}
	for _, k := range arg.Object().Keys() {
		if m := arg.Object()[k]; m.Kind() != resource.AssetKind && m.Kind() != resource.ArchiveKind {
			return resource.Value{}, r.fail(e, "Invalid function argument",
				"Member %q of fn::assetArchive is %s; make it an asset or archive with fn::fileAsset, fn::stringAsset, fn::fileArchive and the like.", k, describeValue(m))
		}
	}
	a, err := resource.NewAssetArchive(arg.Object())
	if err != nil {
		return resource.Value{}, r.fail(e, "Cannot build archive", "fn::assetArchive: %s.", err)
	}
	return resource.NewArchive(a), nil
}

func fnToBase64(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	s, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	return resource.NewString(base64.StdEncoding.EncodeToString([]byte(s))), nil
}

func fnFromBase64(r *run, e *expr, arg resource.Value) (resource.Value, error) {
	s, err := stringArg(r, e, arg)
	if err != nil {
		return resource.Value{}, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return resource.Value{}, r.fail(e, "Invalid base64", "fn::fromBase64 could not decode its argument: %s.", err)
	}
	if !utf8.Valid(b) {
		return resource.Value{}, r.fail(e, "Invalid base64", "fn::fromBase64 decoded bytes that are not UTF-8 text; values must be text. Use fn::fileAsset for binary content.")
	}
	return resource.NewString(string(b)), nil
}

// toText converts a scalar to the text interpolation and fn::join use.
func toText(v resource.Value) (string, error) {
	switch v.Kind() {
	case resource.StringKind:
		return v.Str(), nil
	case resource.NumberKind:
		return v.NumberLiteral(), nil
	case resource.BoolKind:
		return fmt.Sprint(v.Bool()), nil
	case resource.NullKind:
		return "", nil
	}
	return "", fmt.Errorf("%s cannot be turned into text (use fn::toJSON for lists and objects)", describeValue(v))
}

// describeValue names a value's kind for messages, without its contents
// (which may be secret).
func describeValue(v resource.Value) string {
	switch v.Kind() {
	case resource.NullKind:
		return "null"
	case resource.ArrayKind:
		return "a list of " + plural(len(v.Array()), "item")
	case resource.ObjectKind, resource.AssetKind, resource.ArchiveKind:
		return "an " + v.Kind().String()
	case resource.UnknownKind:
		return "an unknown value"
	case resource.SecretKind:
		return "a secret " + strings.TrimPrefix(strings.TrimPrefix(describeValue(v.SecretElement()), "a "), "an ")
	}
	return "a " + v.Kind().String()
}
