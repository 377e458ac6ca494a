package engine

import (
	"testing"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestSealDerived is sealDerived's rule, case by case: what a property's
// output becomes given the input of the same name.
func TestSealDerived(t *testing.T) {
	s := resource.NewString
	secret := func(v resource.Value) resource.Value { return resource.MakeSecret(v) }
	obj := func(kv ...any) resource.Value {
		o := resource.Object{}
		for i := 0; i < len(kv); i += 2 {
			o[kv[i].(string)] = kv[i+1].(resource.Value)
		}
		return resource.NewObject(o)
	}
	arr := resource.NewArray
	for name, tc := range map[string]struct{ in, out, want resource.Value }{
		"plain input":                      {s("a"), s("a"), s("a")},
		"secret input, echoed":             {secret(s("pw")), s("pw"), secret(s("pw"))},
		"secret input, a different value":  {secret(s("pw")), s("hash-of-pw"), secret(s("hash-of-pw"))},
		"secret input, output secret":      {secret(s("pw")), secret(s("x")), secret(s("x"))},
		"secret input, null output":        {secret(s("pw")), resource.Null(), resource.Null()},
		"secret input, unknown output":     {secret(s("pw")), resource.Unknown(), secret(resource.Unknown())},
		"map with a secret, echoed":        {obj("a", secret(s("pw")), "b", s("v")), obj("a", s("pw"), "b", s("v")), obj("a", secret(s("pw")), "b", s("v"))},
		"map with a secret, changed":       {obj("a", secret(s("pw")), "b", s("v")), obj("a", s("PW"), "b", s("w"), "c", s("x")), obj("a", secret(s("PW")), "b", s("w"), "c", s("x"))},
		"nested map":                       {obj("m", obj("k", secret(s("pw")))), obj("m", obj("k", s("pw2"))), obj("m", obj("k", secret(s("pw2"))))},
		"list with a secret, echoed":       {arr(s("v"), secret(s("pw"))), arr(s("v"), s("pw")), arr(s("v"), secret(s("pw")))},
		"list with a secret, reordered":    {arr(s("v"), secret(s("pw"))), arr(s("pw"), s("v")), secret(arr(s("pw"), s("v")))},
		"list, the provider kept the mark": {arr(s("v"), secret(s("pw"))), arr(secret(s("pw")), s("v")), arr(secret(s("pw")), s("v"))},
		"map input, string output":         {obj("a", secret(s("pw"))), s("a=pw"), secret(s("a=pw"))},
	} {
		t.Run(name, func(t *testing.T) {
			outs := resource.Object{"p": tc.out, "other": s("x")}
			got := sealDerived(outs, resource.Object{"p": tc.in, "q": secret(s("unrelated"))})
			want := resource.Object{"p": tc.want, "other": s("x")}
			if !got.Equal(want) {
				t.Errorf("sealDerived = %v, want %v", got, want)
			}
			if !outs.Equal(resource.Object{"p": tc.out, "other": s("x")}) {
				t.Errorf("sealDerived changed its argument to %v", outs)
			}
		})
	}
}
