package engine

import (
	"testing"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestIDFromSecretIgnoresChance: a short secret makes an ID secret only by
// being all of it (a random ID holding the letter of a one-letter secret
// is no leak); a longer one also by being part of it.
func TestIDFromSecretIgnoresChance(t *testing.T) {
	secret := func(s string) resource.Object {
		return resource.Object{"keepers": resource.NewObject(resource.Object{"a": resource.MakeSecret(resource.NewString(s))})}
	}
	for name, tc := range map[string]struct {
		id     string
		inputs resource.Object
		want   bool
	}{
		"one letter inside a random id": {"aXbx12", secret("x"), false},
		"one letter that is the id":     {"x", secret("x"), true},
		"a password inside a path":      {"out/hunter22.txt", secret("hunter22"), true},
		"four characters inside":        {"db-abcd-1", secret("abcd"), true},
		"a short number inside":         {"id-57-x", resource.Object{"n": resource.MakeSecret(resource.NewNumber(57))}, false},
		"a plain value inside":          {"out/hunter22.txt", resource.Object{"p": resource.NewString("hunter22")}, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := idFromSecret(tc.id, tc.inputs); got != tc.want {
				t.Errorf("idFromSecret(%q) = %v, want %v", tc.id, got, tc.want)
			}
		})
	}
}
