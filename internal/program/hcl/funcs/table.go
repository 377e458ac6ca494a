package funcs

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Mark is the type of the cty marks this package gives meaning to.
type Mark string

const (
	// Sensitive marks a value Terraform hides ("(sensitive value)"). The
	// front end marks sensitive variables and outputs with it; sensitive,
	// nonsensitive and issensitive add, remove and test it.
	Sensitive Mark = "sensitive"
	// Ephemeral marks a value that must never reach state or plan;
	// ephemeralasnull replaces such values with nulls.
	Ephemeral Mark = "ephemeral"
)

// Option configures Table.
type Option func(*config)

type config struct {
	planTimestamp cty.Value
	planning      bool
}

// impure are the functions whose result differs from call to call:
// unknown during a plan (see Planning).
var impure = []string{"bcrypt", "timestamp", "uuid"}

// Planning makes the table one for a plan: the impure functions (bcrypt,
// timestamp, uuid) check their arguments but return an unknown value of
// their type, as Terraform's do until apply ("(known after apply)"), so
// a plan shows no value that apply would not keep.
func Planning() Option {
	return func(c *config) { c.planning = true }
}

// WithPlanTimestamp sets what plantimestamp() returns: the RFC 3339 time
// the plan was made. Without it plantimestamp() is unknown, as in
// Terraform's validate.
func WithPlanTimestamp(ts string) Option {
	return func(c *config) { c.planTimestamp = cty.StringVal(ts) }
}

// Table returns every built-in function keyed by its Terraform name, each
// also under "core::<name>". baseDir is path.cwd, the root module's
// directory: relative file paths (file, fileset, templatefile, ...) are
// resolved against it, as Terraform resolves them.
func Table(baseDir string, opts ...Option) map[string]function.Function {
	cfg := config{planTimestamp: cty.UnknownVal(cty.String)}
	for _, o := range opts {
		o(&cfg)
	}
	t := pureTable()
	for name, f := range fileTable(baseDir) {
		t[name] = f
	}
	t["plantimestamp"] = planTimestampFunc(cfg.planTimestamp)
	if cfg.planning {
		for _, name := range impure {
			t[name] = function.Unpredictable(t[name])
		}
	}
	t["templatefile"] = templateFileFunc(baseDir, t)
	t["templatestring"] = templateStringFunc(t)
	aliases := make(map[string]function.Function, len(t))
	for name, f := range t {
		aliases["core::"+name] = f
	}
	for name, f := range aliases {
		t[name] = f
	}
	return t
}

// pureTable holds the functions that need no context.
func pureTable() map[string]function.Function {
	t := map[string]function.Function{
		"can":             tryfunc.CanFunc,
		"try":             tryfunc.TryFunc,
		"sensitive":       sensitiveFunc,
		"nonsensitive":    nonsensitiveFunc,
		"issensitive":     issensitiveFunc,
		"ephemeralasnull": ephemeralAsNullFunc,
		"tobool":          makeToFunc(cty.Bool),
		"tonumber":        makeToFunc(cty.Number),
		"tostring":        makeToFunc(cty.String),
		"tolist":          makeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"toset":           makeToFunc(cty.Set(cty.DynamicPseudoType)),
	}
	for _, part := range []map[string]function.Function{
		stdlibTable(), collectionTable(), stringTable(), encodingTable(),
		cryptoTable(), cidrTable(), timeTable(),
	} {
		for name, f := range part {
			t[name] = f
		}
	}
	return t
}

// stdlibTable holds the functions for which go-cty's stdlib has exactly
// Terraform's behaviour (Terraform uses the same implementations).
func stdlibTable() map[string]function.Function {
	return map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": stdlib.LogFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc, "signum": stdlib.SignumFunc,
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "split": stdlib.SplitFunc,
		"strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "title": stdlib.TitleFunc,
		"trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc, "trimspace": stdlib.TrimSpaceFunc,
		"trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
		"chunklist": stdlib.ChunklistFunc, "coalescelist": stdlib.CoalesceListFunc,
		"compact": stdlib.CompactFunc, "concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc,
		"distinct": stdlib.DistinctFunc, "element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc,
		"keys": stdlib.KeysFunc, "merge": stdlib.MergeFunc, "range": stdlib.RangeFunc,
		"reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setproduct": stdlib.SetProductFunc, "setsubtract": stdlib.SetSubtractFunc,
		"setunion": stdlib.SetUnionFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"csvdecode": stdlib.CSVDecodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
		"formatdate": stdlib.FormatDateFunc, "timeadd": stdlib.TimeAddFunc,
	}
}
