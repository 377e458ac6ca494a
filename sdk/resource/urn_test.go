package resource

import (
	"errors"
	"strings"
	"testing"
)

func TestParseURN(t *testing.T) {
	good := map[string]struct {
		stack, project, qualified, typ, parent, name, pkg string
	}{
		"urn:pulumi:dev::proj::plinth:random:Pet::pet":                  {"dev", "proj", "plinth:random:Pet", "plinth:random:Pet", "", "pet", "plinth"},
		"urn:pulumi:dev::proj::pkg:Thing::a b::c":                       {"dev", "proj", "pkg:Thing", "pkg:Thing", "", "a b::c", "pkg"},
		"urn:pulumi:prod::p::my:index:Box$pkg:index:Thing::inner":       {"prod", "p", "my:index:Box$pkg:index:Thing", "pkg:index:Thing", "my:index:Box", "inner", "pkg"},
		"urn:pulumi:s::p::a:b:C$d:e:F$g:h:I::n":                         {"s", "p", "a:b:C$d:e:F$g:h:I", "g:h:I", "a:b:C$d:e:F", "n", "g"},
		"urn:pulumi:dev::proj::pulumi:providers:aws::default_6_0_0":     {"dev", "proj", "pulumi:providers:aws", "pulumi:providers:aws", "", "default_6_0_0", "pulumi"},
		"urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b":                 {"dev", "proj", "aws:s3/bucket:Bucket", "aws:s3/bucket:Bucket", "", "b", "aws"},
		"urn:pulumi:dev::proj::azure-native:storage:StorageAccount::sa": {"dev", "proj", "azure-native:storage:StorageAccount", "azure-native:storage:StorageAccount", "", "sa", "azure-native"},
		"urn:pulumi:dev::proj::random:index:random_pet::p":              {"dev", "proj", "random:index:random_pet", "random:index:random_pet", "", "p", "random"},
		// What Pulumi's engine accepts and plinth used to refuse: a
		// component type of one segment, a type name with a hyphen, a
		// provider of a hyphenated package, four segments, a space.
		"urn:pulumi:dev::proj::component::c":                                                       {"dev", "proj", "component", "component", "", "c", ""},
		"urn:pulumi:dev::proj::component$pkg:index:Thing::t":                                       {"dev", "proj", "component$pkg:index:Thing", "pkg:index:Thing", "component", "t", "pkg"},
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10::c":                                {"dev", "proj", "my:module:ComponentSixParent-v10", "my:module:ComponentSixParent-v10", "", "c", "my"},
		"urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default":                            {"dev", "proj", "pulumi:providers:pulumi-nodejs", "pulumi:providers:pulumi-nodejs", "", "default", "pulumi"},
		"urn:pulumi:dev::proj::a:b:c:D::n":                                                         {"dev", "proj", "a:b:c:D", "a:b:c:D", "", "n", "a"},
		"urn:pulumi:dev::proj::9a:B::n":                                                            {"dev", "proj", "9a:B", "9a:B", "", "n", "9a"},
		"urn:pulumi:dev::proj::a:b c:D::n":                                                         {"dev", "proj", "a:b c:D", "a:b c:D", "", "n", "a"},
		"urn:pulumi:dev::proj::my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource::r": {"dev", "proj", "my:module:ComponentSixParent-v10$pulumi-nodejs:dynamic:Resource", "pulumi-nodejs:dynamic:Resource", "my:module:ComponentSixParent-v10", "r", "pulumi-nodejs"},
	}
	for s, want := range good {
		u, err := ParseURN(s)
		if err != nil {
			t.Errorf("ParseURN(%q): %v", s, err)
			continue
		}
		got := [7]string{u.Stack(), u.Project(), u.QualifiedType(), u.Type(), u.ParentType(), u.Name(), u.Package()}
		if got != [7]string{want.stack, want.project, want.qualified, want.typ, want.parent, want.name, want.pkg} {
			t.Errorf("ParseURN(%q) parts %q", s, got)
		}
		if NewURN(u.Stack(), u.Project(), u.ParentType(), u.Type(), u.Name()) != u {
			t.Errorf("NewURN does not rebuild %q", s)
		}
	}
	bad := map[string]string{
		"urn:plumi:dev::p::a:B::n":      "prefix",
		"urn:pulumi:dev::p::a:B":        "structure",
		"urn:pulumi:::p::a:B::n":        "stack",
		"urn:pulumi:dev::::a:B::n":      "project",
		"urn:pulumi:dev::p::a:B$::n":    "type",
		"urn:pulumi:dev::p::$a:B::n":    "type",
		"urn:pulumi:dev::p:::a:B::n":    "type",
		"urn:pulumi:dev::p::a:\tB::n":   "type",
		"urn:pulumi:dev::p::::n":        "type",
		"urn:pulumi:dev::p::a:B::":      "name",
		"urn:pulumi:dev::p::a:B::n\x00": "structure",
		"urn:pulumi:dev::p::a:B::n\xff": "structure",
	}
	for s, part := range bad {
		_, err := ParseURN(s)
		var ue *URNError
		if !errors.As(err, &ue) || ue.Part != part {
			t.Errorf("ParseURN(%q) = %v, want an error about the %s", s, err, part)
		}
	}
}

// TestURNPartsAsSplitN: a URN's parts are what splitting it at "::" into
// at most four gives, for well-formed URNs, names holding "::", and
// malformed ones (missing parts, no prefix).
func TestURNPartsAsSplitN(t *testing.T) {
	for _, u := range []URN{
		"urn:pulumi:dev::proj::a:b:C::name",
		"urn:pulumi:dev::proj::a:b:C$d:e:F::name::with::colons",
		"urn:pulumi:dev::proj::a:b:C::",
		"urn:pulumi:dev::proj::a:b:C",
		"urn:pulumi:dev::proj",
		"urn:pulumi:dev",
		"urn:pulumi:",
		"urn:pulumi:::::::",
		"not-a-urn::a::b::c::d",
		"",
	} {
		var want [4]string
		if s, ok := strings.CutPrefix(string(u), urnPrefix); ok {
			copy(want[:], strings.SplitN(s, "::", 4))
		}
		if got := u.parts(); got != want {
			t.Errorf("%q: parts %q, want %q", u, got, want)
		}
	}
}

func BenchmarkURNNameType(b *testing.B) {
	u := URN("urn:pulumi:dev::proj::plinth:random:Pet::pet7")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = u.Name(), u.Type()
	}
}

// TestParseURNAllocatesNothing: parsing a well-formed URN (one with
// parent types too) allocates nothing; the state loader and the engine
// parse one for every resource.
func TestParseURNAllocatesNothing(t *testing.T) {
	for _, s := range []string{
		"urn:pulumi:dev::proj::plinth:random:Pet::pet7",
		"urn:pulumi:dev::proj::my:index:Box$pkg:index:Thing::inner::with::colons",
	} {
		if n := testing.AllocsPerRun(100, func() {
			if _, err := ParseURN(s); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("ParseURN(%q) allocates %v times, want 0", s, n)
		}
	}
}

func BenchmarkParseURN(b *testing.B) {
	s := "urn:pulumi:dev::proj::my:index:Box$plinth:random:Pet::pet7"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseURN(s); err != nil {
			b.Fatal(err)
		}
	}
}
