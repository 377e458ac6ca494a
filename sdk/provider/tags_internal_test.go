package provider

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestMalformedTagSyntax covers struct tags that do not follow the
// key:"value" convention; reflect.StructTag.Lookup silently ignores what
// follows the mistake, so without the check the property quietly loses its
// name, options, default or doc. The types are made with reflect.StructOf
// because go vet rejects such tags in source.
func TestMalformedTagSyntax(t *testing.T) {
	tests := map[string]struct {
		tag  reflect.StructTag
		want string
	}{
		"value not quoted":      {`plinth:size`, "does not parse at \"plinth:size\""},
		"space after colon":     {`plinth: "size"`, "no space after the colon"},
		"missing closing quote": {`plinth:"size,optional`, "the value of plinth is missing its closing double quote"},
		"bad escape":            {`plinth:"size" doc:"a \q b"`, `the value of doc, "a \q b", is not a valid Go string`},
		"key given twice":       {`plinth:"size" plinth:"length"`, "gives plinth twice; only the first is read"},
		"doc after a bad entry": {`plinth:"size" json:size doc:"How big."`, `does not parse at "json:size doc:\"How big.\""`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			typ := reflect.StructOf([]reflect.StructField{{Name: "Size", Type: reflect.TypeFor[int](), Tag: tc.tag}})
			_, err := newTypeBuilder("test").object(typ, "index")
			if err == nil {
				t.Fatalf("tag `%s` was accepted", tc.tag)
			}
			var de *DeclarationError
			if !errors.As(err, &de) || de.Type != typ.String() || de.Field != "Size" {
				t.Errorf("err = %#v, want a DeclarationError for %s field Size", err, typ)
			}
			for _, w := range []string{"field Size:", tc.want} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}
