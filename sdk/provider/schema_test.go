package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestSchemaDerivedFromTypes(t *testing.T) {
	p := newToys(t, nil)
	resp, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	str := provider.Type{Kind: provider.TypeString}
	tagProps := map[string]provider.Property{
		"key":    {Type: str, Required: true},
		"value":  {Type: str},
		"pinned": {Type: provider.Type{Kind: provider.TypeBool}, ReplaceOnChanges: true},
	}
	tagType := provider.Type{Kind: provider.TypeObject, Token: "toys:index:Tag", Properties: tagProps}
	inputs := map[string]provider.Property{
		"name":     {Type: str, Required: true, ReplaceOnChanges: true, Description: "The toy's name."},
		"size":     {Type: provider.Type{Kind: provider.TypeInteger}, Default: resource.NewNumber(3)},
		"weight":   {Type: provider.Type{Kind: provider.TypeNumber}},
		"password": {Type: str, Secret: true},
		"tags":     {Type: provider.Type{Kind: provider.TypeArray, Elem: &tagType}},
		"labels":   {Type: provider.Type{Kind: provider.TypeMap, Elem: &str}},
		"extra":    {Type: provider.Type{Kind: provider.TypeAny}},
		"big":      {Type: provider.Type{Kind: provider.TypeInteger}},
		"small":    {Type: provider.Type{Kind: provider.TypeInteger}},
	}
	outputs := map[string]provider.Property{
		"serial":   {Type: str, Required: true, Computed: true, Description: "Assigned on creation."},
		"checksum": {Type: str, Required: true, Computed: true, Secret: true},
	}
	for k, v := range inputs {
		outputs[k] = v
	}
	want := provider.Schema{
		Name: "toys", Version: "1.2.3", Description: "Toys for tests.",
		Config: map[string]provider.Property{
			"greeting": {Type: str, Description: "Said on creation.", Default: resource.NewString("hello")},
			"region":   {Type: str, ReplaceOnChanges: true},
			"retries":  {Type: provider.Type{Kind: provider.TypeInteger}},
			"debug":    {Type: provider.Type{Kind: provider.TypeBool}},
		},
		Resources: map[string]provider.ResourceSchema{
			basicType: {Description: "A toy with defaults.", Inputs: inputs, Outputs: outputs},
			fullType:  {Description: "A toy with hooks.", Inputs: inputs, Outputs: outputs},
		},
		Functions: map[string]provider.FunctionSchema{
			"toys:index:greet": {
				Description: "Greets someone.",
				Inputs: map[string]provider.Property{
					"who":   {Type: str, Required: true},
					"times": {Type: provider.Type{Kind: provider.TypeInteger}, Default: resource.NewNumber(1)},
				},
				Outputs: map[string]provider.Property{"text": {Type: str, Required: true}},
			},
		},
		Types: map[string]provider.ObjectType{"toys:index:Tag": {Properties: tagProps}},
	}
	if d := cmp.Diff(want, resp.Schema, valueCmp); d != "" {
		t.Errorf("schema (-want +got):\n%s", d)
	}
	if got, want := provider.RequiredNames(resp.Schema.Resources[basicType].Inputs), []string{"name"}; !cmp.Equal(got, want) {
		t.Errorf("RequiredNames = %v, want %v", got, want)
	}
}

func TestTypeString(t *testing.T) {
	s := provider.Type{Kind: provider.TypeString}
	arr := provider.Type{Kind: provider.TypeArray, Elem: &s}
	tests := map[string]struct {
		typ  provider.Type
		want string
	}{
		"scalar":  {s, "string"},
		"nested":  {provider.Type{Kind: provider.TypeMap, Elem: &arr}, "map<array<string>>"},
		"named":   {provider.Type{Kind: provider.TypeObject, Token: "a:b:C"}, "a:b:C"},
		"untyped": {provider.Type{Kind: provider.TypeObject}, "object"},
	}
	for name, tc := range tests {
		if got := tc.typ.String(); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

type selfRef struct {
	Next *selfRef `plinth:"next,optional"`
}

type selfRefArgs struct {
	Head selfRef `plinth:"head"`
}

type badTag struct {
	X string `plinth:"x,optinal"`
}

type badDefault struct {
	N int `plinth:"n" default:"1.5"`
}

type dupName struct {
	A string `plinth:"same"`
	B string `plinth:"same"`
}

type unsupported struct {
	C chan int `plinth:"c"`
}

type intKeys struct {
	M map[int]string `plinth:"m"`
}

type noop[I, O any] struct{}

func (noop[I, O]) Create(context.Context, provider.CreateOp[I]) (provider.CreateResult[O], error) {
	return provider.CreateResult[O]{}, nil
}

func TestNewRejectsBadDefinitions(t *testing.T) {
	info := provider.Info{Name: "bad"}
	tests := map[string]struct {
		opt  provider.Option
		info provider.Info
		want string
	}{
		"recursive type": {provider.WithResource[selfRefArgs, selfRefArgs]("bad:index:R", noop[selfRefArgs, selfRefArgs]{}, ""), info,
			"provider bad: resource bad:index:R: inputs: type provider_test.selfRefArgs, field Head.Next (declared in provider_test.selfRef): type provider_test.selfRef refers to itself; recursive types are not supported"},
		"tag typo": {provider.WithResource[badTag, badTag]("bad:index:R", noop[badTag, badTag]{}, ""), info,
			`provider bad: resource bad:index:R: inputs: type provider_test.badTag, field X: unknown plinth tag option "optinal" (known: optional, secret, replaceOnChanges, computed, writeOnly, stable, variadic, set, block); did you mean "optional"?`},
		"default of wrong type": {provider.WithResource[badDefault, badDefault]("bad:index:R", noop[badDefault, badDefault]{}, ""), info,
			`provider bad: resource bad:index:R: inputs: type provider_test.badDefault, field N: default:"1.5" does not fit the field's type int: expected an integer, got 1.5; write a whole number in the type's range, such as default:"3"`},
		"duplicate property": {provider.WithResource[dupName, dupName]("bad:index:R", noop[dupName, dupName]{}, ""), info,
			"provider bad: resource bad:index:R: inputs: type provider_test.dupName, field B: property \"same\" is already the name of field provider_test.dupName.A; give one of them another name with a plinth tag, or leave one out with `plinth:\"-\"`"},
		"unsupported field": {provider.WithResource[unsupported, unsupported]("bad:index:R", noop[unsupported, unsupported]{}, ""), info,
			"provider bad: resource bad:index:R: inputs: type provider_test.unsupported, field C: type chan int is not supported (use bool, integers, floats, string, slices, maps with string keys, structs, pointers, *resource.Asset, *resource.Archive or resource.Value); change the field's type, or tag it `plinth:\"-\"` if it is not a property"},
		"int map keys": {provider.WithResource[intKeys, intKeys]("bad:index:R", noop[intKeys, intKeys]{}, ""), info,
			"provider bad: resource bad:index:R: inputs: type provider_test.intKeys, field M: map keys must be strings, not int; use map[string]string"},
		"foreign token": {provider.WithResource[greetArgs, greetArgs]("other:index:R", noop[greetArgs, greetArgs]{}, ""), info,
			`provider bad: token "other:index:R" belongs to package "other", not "bad"; tokens must start with "bad:"`},
		"malformed token": {provider.WithResource[greetArgs, greetArgs]("bad", noop[greetArgs, greetArgs]{}, ""), info,
			`provider bad: type "bad" is not of the form package:[module:]Type`},
		"not a struct": {provider.WithFunction("bad:index:f", func(context.Context, int) (greetResult, error) { return greetResult{}, nil }, ""), info,
			"provider bad: function bad:index:f: arguments: int is a int; it must be a struct"},
		"bad provider name": {provider.WithConfig[toyConfig](), provider.Info{Name: "no good"},
			`provider name "no good" must be an identifier (letters, digits, underscores)`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := provider.New(tc.info, tc.opt)
			if err == nil {
				t.Fatal("New succeeded")
			}
			if d := cmp.Diff(tc.want, err.Error()); d != "" {
				t.Errorf("error (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewRejectsDuplicates(t *testing.T) {
	_, err := provider.New(provider.Info{Name: "toys"},
		provider.WithResource[toyArgs, toyState](basicType, basicToy{}, ""),
		provider.WithResource[toyArgs, toyState](basicType, basicToy{}, ""))
	if err == nil || err.Error() != "provider toys: resource type toys:index:Basic is added twice" {
		t.Errorf("err = %v", err)
	}
	_, err = provider.New(provider.Info{Name: "toys"}, provider.WithConfig[toyConfig](), provider.WithConfig[toyConfig]())
	if err == nil || err.Error() != "provider toys: the configuration is declared twice" {
		t.Errorf("err = %v", err)
	}
}
