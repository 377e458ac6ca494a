package resource

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestValidateType: the types Pulumi's engine accepts are admitted (a
// component may have any type, a custom resource needs package:...), and
// what would make a URN ambiguous or not survive storage is refused.
func TestValidateType(t *testing.T) {
	tests := map[string]struct {
		typ               string
		component, custom bool // whether each rule admits it
	}{
		"three parts":                   {"plinth:random:Pet", true, true},
		"module with slash":             {"aws:s3/bucket:Bucket", true, true},
		"hyphenated package":            {"azure-native:storage:StorageAccount", true, true},
		"hyphen in the type name":       {"my:module:ComponentSixParent-v10", true, true},
		"provider of pulumi-nodejs":     {"pulumi:providers:pulumi-nodejs", true, true},
		"provider of azure-native":      {"pulumi:providers:azure-native", true, true},
		"dynamic resource":              {"pulumi-nodejs:dynamic:Resource", true, true},
		"two parts":                     {"pkg:Thing", true, true},
		"four parts":                    {"a:b:c:D", true, true},
		"starts with a digit":           {"9a:B", true, true},
		"unicode":                       {"paquet:módulo:Ressource", true, true},
		"space":                         {"my component", true, false},
		"one segment":                   {"component", true, false},
		"empty":                         {"", false, false},
		"URN separator":                 {"a::B", false, false},
		"parent separator":              {"a:b$C", false, false},
		"leading colon":                 {":a:B", false, false},
		"trailing colon":                {"a:B:", false, false},
		"provider of no package":        {"pulumi:providers:", false, false},
		"package with a slash":          {"../../bin/sh:x:Y", true, false},
		"package with a space":          {"my pkg:x:Y", true, false},
		"provider package with a slash": {"pulumi:providers:a/b", true, false},
		"provider package with a colon": {"pulumi:providers:a:b", true, false},
		"newline":                       {"a:b:C\n", false, false},
		"NUL":                           {"a:b:\x00", false, false},
		"invalid UTF-8":                 {"a:b:\xff", false, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if err := ValidateType(tt.typ); (err == nil) != tt.component {
				t.Errorf("ValidateType(%q) = %v, want admitted %v", tt.typ, err, tt.component)
			}
			err := ValidateCustomType(tt.typ)
			if (err == nil) != tt.custom {
				t.Errorf("ValidateCustomType(%q) = %v, want admitted %v", tt.typ, err, tt.custom)
			}
			var te *TypeError
			if err != nil && (!errors.As(err, &te) || te.Type != tt.typ || !strings.Contains(err.Error(), strconv.Quote(tt.typ))) {
				t.Errorf("ValidateCustomType(%q) = %v, want a *TypeError naming the type", tt.typ, err)
			}
		})
	}
}

// TestAdmittedTypesRoundTrip: every type ValidateType admits, alone or
// under a parent, gives a URN that parses back to the same type, parent
// and name, whatever the name.
func TestAdmittedTypesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		typ := tokenGen().Draw(t, "type")
		parent := rapid.SampledFrom([]string{"", "component", "my:module:ComponentSixParent-v10", "a:b:C$d:e:F"}).Draw(t, "parent")
		name := rapid.StringMatching(`[^\x00]+`).Draw(t, "name")
		if ValidateType(typ) != nil {
			t.Skip("not a type")
		}
		u := NewURN("dev", "proj", parent, typ, name)
		if _, err := ParseURN(string(u)); err != nil {
			t.Fatalf("ParseURN(%q): %v", u, err)
		}
		got := [3]string{u.Type(), u.ParentType(), u.Name()}
		if want := [3]string{typ, parent, name}; got != want {
			t.Fatalf("URN %q reads back as %q, want %q", u, got, want)
		}
	})
}

// tokenGen draws type tokens from the characters that matter: the
// separators, hyphens, spaces, letters and anything else.
func tokenGen() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.StringMatching(`[a-z:$ /._-]{1,12}`),
		rapid.StringMatching(`[a-zA-Z][a-zA-Z0-9-]*(:[a-zA-Z0-9/_.-]+){1,3}`),
		rapid.String(),
	)
}
