package resource

import (
	"errors"
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
		"urn:pulumi:dev::p::Thing::n":   "type",
		"urn:pulumi:dev::p::a:b:c:D::n": "type",
		"urn:pulumi:dev::p::9a:B::n":    "type",
		"urn:pulumi:dev::p::a:B$::n":    "type",
		"urn:pulumi:dev::p::a:B::":      "name",
		"urn:pulumi:dev::p::a:b c:D::n": "type",
	}
	for s, part := range bad {
		_, err := ParseURN(s)
		var ue *URNError
		if !errors.As(err, &ue) || ue.Part != part {
			t.Errorf("ParseURN(%q) = %v, want an error about the %s", s, err, part)
		}
	}
}
