package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestResolveAddresses(t *testing.T) {
	urn := func(typ, name string) resource.URN { return resource.NewURN("dev", "p", "", typ, name) }
	known := map[resource.URN]bool{}
	for _, u := range []resource.URN{
		urn("random:index:random_pet", "random_pet.a[0]"), urn("random:index:random_pet", "random_pet.a[1]"),
		urn("random:index:random_pet", "random_pet.ab"), urn("local:index:local_file", `module.site["x"].local_file.page`),
		urn("local:index:local_file", `module.site["x"].module.inner.local_file.deep`), urn("local:index:local_file", "module.sitemap.local_file.m"),
		urn("pulumi:providers:random", "provider.random"),
	} {
		known[u] = true
	}
	cases := map[string]struct {
		values  []string
		want    []string
		wantErr bool
	}{
		"every instance":      {values: []string{"random_pet.a"}, want: []string{"random_pet.a[0]", "random_pet.a[1]"}},
		"one instance":        {values: []string{"random_pet.a[1]"}, want: []string{"random_pet.a[1]"}},
		"not a prefix match":  {values: []string{"random_pet.ab"}, want: []string{"random_pet.ab"}},
		"module and below":    {values: []string{"module.site"}, want: []string{`module.site["x"].local_file.page`, `module.site["x"].module.inner.local_file.deep`}},
		"module instance":     {values: []string{`module.site["x"].module.inner`}, want: []string{`module.site["x"].module.inner.local_file.deep`}},
		"URN kept":            {values: []string{string(urn("random:index:random_pet", "random_pet.zz"))}, want: []string{"random_pet.zz"}},
		"unknown address":     {values: []string{"random_pet.zz"}, wantErr: true},
		"providers not named": {values: []string{"provider.random"}, wantErr: true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := resolveAll("target", c.values, known)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			var names []string
			for _, u := range got {
				names = append(names, resource.URN(u).Name())
			}
			if diff := cmp.Diff(c.want, names, cmpSorted); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})
