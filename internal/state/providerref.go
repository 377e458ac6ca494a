package state

import (
	"fmt"
	"regexp"
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

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9_]`)

// DefaultProviderName names the default provider resource of a package at
// a version: "default", or "default_3_1_0" for version 3.1.0. A Terraform
// configuration's root-module provider block without an alias is named so
// too: Terraform sees it and the provider it implies when there is no
// block as one configuration, provider["registry.terraform.io/hashicorp/random"].
func DefaultProviderName(version string) string {
	if version == "" {
		return "default"
	}
	return "default_" + nonIdent.ReplaceAllString(version, "_")
}
