package state

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ProviderRef formats a provider reference, "<URN>::<ID>".
func ProviderRef(urn resource.URN, id string) string {
	return string(urn) + "::" + id
}

// ParseProviderRef splits a provider reference into its URN and ID.
func ParseProviderRef(ref string) (resource.URN, string, error) {
	i := strings.LastIndex(ref, "::")
	if i < 0 {
		return "", "", fmt.Errorf("invalid provider reference %q: want <provider URN>::<provider ID>", ref)
	}
	urn, err := resource.ParseURN(ref[:i])
	if err != nil {
		return "", "", fmt.Errorf("invalid provider reference %q: %w", ref, err)
	}
	return urn, ref[i+2:], nil
}
