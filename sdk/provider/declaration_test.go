package provider_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Malformed declarations, one kind of mistake each (issue 20). Struct
// tags whose syntax does not parse cannot be written here without go vet
// objecting; TestMalformedTagSyntax covers them with reflect.StructOf.

type optRequired struct {
	Size int `plinth:"size,required"`
}

type optTypo struct {
	Size int `plinth:"size,optoinal"`
}

type defNotInt struct {
	Count int `plinth:"count" default:"abc"`
}

type defNotBool struct {
	On bool `plinth:"on" default:"maybe"`
}

type defOutOfRange struct {
	Small int8 `plinth:"small" default:"300"`
}

type defNotList struct {
	Zones []string `plinth:"zones" default:"a,b"`
}

type dupGoName struct {
	URL string
	Url string `plinth:"url"`
}

type dupInner struct {
	Name string `plinth:"name"`
}

// dupEmbedded repeats a property of the struct it embeds.
type dupEmbedded struct {
	dupInner
	Label string `plinth:"name"`
}

type chanField struct {
	Events chan string `plinth:"events"`
}

type funcField struct {
	Hook func() `plinth:"hook,optional"`
}

type badName struct {
	Zone string `plinth:"my zone"`
}

type dottedName struct {
	Zone string `plinth:"zone.name"`
}

type level int

// unexportedEmbedded names an unexported embedded int as a property: the
// SDK cannot set it.
type unexportedEmbedded struct {
	level `plinth:"level"`
}

var _ = unexportedEmbedded{}.level // staticcheck: the field exists to be refused

type Color struct {
	Shade int `plinth:"shade" default:"red"`
}

type nestedDefault struct {
	Spec Color `plinth:"spec"`
}

type Rule struct {
	Port chan int `plinth:"port"`
}

type nestedInSlice struct {
	Rules []Rule `plinth:"rules"`
}

type Knob struct {
	Level int `plinth:"level,secrte"`
}

type nestedPointer struct {
	Knob *Knob `plinth:"knob,optional"`
}

type badConfig struct {
	Debug bool `plinth:"debug" default:"yes please"`
}

type badFuncArgs struct {
	Who string `plinth:"who" default:"x"`
	To  string `plinth:"who"`
}

// declCase is a provider whose one declaration is malformed, and the words
// New's error must contain: the Go type, the field, what is wrong and how
// to fix it.
type declCase struct {
	opt  provider.Option
	want []string
}

func res[I, O any]() provider.Option {
	return provider.WithResource[I, O]("bad:index:R", noop[I, O]{}, "")
}

var declCases = map[string]declCase{
	"option required": {res[optRequired, optRequired](), []string{
		"type provider_test.optRequired, field Size:", `unknown plinth tag option "required"`,
		"required unless tagged optional or given a default, so remove it"}},
	"option typo": {res[optTypo, optTypo](), []string{
		"type provider_test.optTypo, field Size:", `unknown plinth tag option "optoinal"`, `did you mean "optional"?`}},
	"default not an integer": {res[defNotInt, defNotInt](), []string{
		"type provider_test.defNotInt, field Count:", `default:"abc" does not fit the field's type int`,
		`write a whole number in the type's range, such as default:"3"`}},
	"default not a boolean": {res[defNotBool, defNotBool](), []string{
		"type provider_test.defNotBool, field On:", `default:"maybe" does not fit the field's type bool`,
		`"maybe" is not a boolean`, `write default:"true" or default:"false"`}},
	"default out of range": {res[defOutOfRange, defOutOfRange](), []string{
		"type provider_test.defOutOfRange, field Small:", `default:"300" does not fit the field's type int8`,
		"300 is out of range"}},
	"default not JSON": {res[defNotList, defNotList](), []string{
		"type provider_test.defNotList, field Zones:", `default:"a,b" does not fit the field's type []string`,
		"not valid JSON", "write the value as JSON"}},
	"two fields one name": {res[dupGoName, dupGoName](), []string{
		"type provider_test.dupGoName, field Url:",
		`property "url" is already the name of field provider_test.dupGoName.URL`, "give one of them another name"}},
	"name repeated over an embedded struct": {res[dupInner, dupEmbedded](), []string{
		"outputs: type provider_test.dupEmbedded, field Label:",
		`property "name" is already the name of field provider_test.dupInner.Name`}},
	"channel field": {res[chanField, chanField](), []string{
		"type provider_test.chanField, field Events:", "type chan string is not supported", "change the field's type"}},
	"func field": {res[funcField, funcField](), []string{
		"type provider_test.funcField, field Hook:", "type func() is not supported", "change the field's type"}},
	"name with a space": {res[badName, badName](), []string{
		"type provider_test.badName, field Zone:", `property name "my zone"`, "is not an identifier",
		"use letters, digits and underscores"}},
	"name with a dot": {res[dottedName, dottedName](), []string{
		"type provider_test.dottedName, field Zone:", `property name "zone.name"`, "is not an identifier"}},
	"unexported embedded property": {res[unexportedEmbedded, unexportedEmbedded](), []string{
		"type provider_test.unexportedEmbedded, field level:", "is unexported, so the SDK cannot set it",
		"export its type"}},
	"nested struct": {res[nestedDefault, nestedDefault](), []string{
		"type provider_test.nestedDefault, field Spec.Shade (declared in provider_test.Color):",
		`default:"red" does not fit the field's type int`}},
	"nested in a slice": {res[nestedInSlice, nestedInSlice](), []string{
		"type provider_test.nestedInSlice, field Rules[].Port (declared in provider_test.Rule):",
		"type chan int is not supported"}},
	"nested behind a pointer": {res[nestedPointer, nestedPointer](), []string{
		"type provider_test.nestedPointer, field Knob.Level (declared in provider_test.Knob):",
		`unknown plinth tag option "secrte"`, `did you mean "secret"?`}},
	"configuration": {provider.WithConfig[badConfig](), []string{
		"type provider_test.badConfig, field Debug:", `default:"yes please" does not fit the field's type bool`}},
	"function arguments": {provider.WithFunction("bad:index:f",
		func(context.Context, badFuncArgs) (greetResult, error) { return greetResult{}, nil }, ""), []string{
		"function bad:index:f: arguments: type provider_test.badFuncArgs, field To:",
		`property "who" is already the name of field provider_test.badFuncArgs.Who`}},
}

func TestNewNamesTheBadDeclaration(t *testing.T) {
	for name, tc := range declCases {
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

// TestBadDeclarationsNeverPanicAtRequestTime builds each malformed
// provider; if New accepts it, Check, Create and Invoke with a value for
// every property must answer without a panic.
func TestBadDeclarationsNeverPanicAtRequestTime(t *testing.T) {
	for name, tc := range declCases {
		t.Run(name, func(t *testing.T) {
			p, err := provider.New(provider.Info{Name: "bad"}, tc.opt)
			if err != nil {
				return // refused at construction: the outcome the issue asks for
			}
			if err := exercise(p); err != nil {
				t.Errorf("New accepted the declaration, then a request failed: %v", err)
			}
		})
	}
}

// exercise configures p and calls Check, Create and Invoke on every
// resource type and function with each property set, returning a panic
// (raised or recovered by the SDK) as an error.
func exercise(p provider.Provider) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	ctx := context.Background()
	s, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		return err
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: sample(s.Schema.Config)}); isPanic(err) {
		return err
	}
	for token, r := range s.Schema.Resources {
		urn := resource.NewURN("dev", "proj", "", token, "r")
		in := sample(r.Inputs)
		if _, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: in}); isPanic(err) {
			return err
		}
		if _, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: in}); isPanic(err) {
			return err
		}
	}
	for token, f := range s.Schema.Functions {
		if _, err := p.Invoke(ctx, provider.InvokeRequest{Token: token, Args: sample(f.Inputs)}); isPanic(err) {
			return err
		}
	}
	return nil
}

func isPanic(err error) bool {
	var pe *provider.PanicError
	return errors.As(err, &pe)
}

// sample gives each property a value of its type.
func sample(props map[string]provider.Property) resource.Object {
	o := resource.Object{}
	for name, p := range props {
		o[name] = sampleValue(p.Type)
	}
	return o
}

func sampleValue(t provider.Type) resource.Value {
	switch t.Kind {
	case provider.TypeBool:
		return resource.NewBool(true)
	case provider.TypeInteger, provider.TypeNumber:
		return resource.NewNumber(1)
	case provider.TypeString, provider.TypeAny:
		return resource.NewString("x")
	case provider.TypeArray:
		return resource.NewArray(sampleValue(*t.Elem))
	case provider.TypeMap:
		return resource.NewObject(resource.Object{"k": sampleValue(*t.Elem)})
	case provider.TypeObject:
		return resource.NewObject(sample(t.Properties))
	}
	return resource.Null()
}
