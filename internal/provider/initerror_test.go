package provider

import "testing"

func TestInitErrorMessage(t *testing.T) {
	tests := map[string]struct {
		err  *InitError
		want string
	}{
		"with ID":    {&InitError{ID: "i-1", Reasons: []string{"not ready"}}, "resource i-1 was created but failed to initialise: not ready"},
		"without ID": {&InitError{Reasons: []string{"not ready"}}, "the resource was created but failed to initialise, and the provider gave no ID: not ready"},
	}
	for name, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}
