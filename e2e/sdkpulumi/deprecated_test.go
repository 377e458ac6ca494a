//go:build unix

package sdkpulumi_test

import (
	"strings"
	"testing"
)

// TestDeprecatedPropertyWarns previews a program that sets the example's
// deprecated owner: the preview succeeds and warns on the server, with
// the provider's message. Neither the pulumi CLI nor the YAML host warns
// of a deprecated property itself; pulumiserve logs it from Check.
func TestDeprecatedPropertyWarns(t *testing.T) {
	s := newStack(t, "server")
	s.edit("name: db", "name: db\n      owner: alice")
	out, errOut, err := s.try("preview")
	if err != nil {
		t.Fatalf("the preview failed: %v\n%s%s", err, out, errOut)
	}
	const want = `owner is deprecated: Use tags["owner"] instead.`
	if !strings.Contains(out+errOut, want) {
		t.Errorf("the preview does not warn %q:\n%s%s", want, out, errOut)
	}
}
