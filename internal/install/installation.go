package install

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/hcl/ast"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// MethodKind names a provider_installation method.
type MethodKind string

// The installation methods of terraform's CLI configuration.
const (
	Direct           MethodKind = "direct"
	FilesystemMirror MethodKind = "filesystem_mirror"
	NetworkMirror    MethodKind = "network_mirror"
)

// MethodConfig is one method block of provider_installation, as written.
type MethodConfig struct {
	Kind MethodKind
	// Location is a filesystem mirror's path or a network mirror's URL
	// ("" for direct).
	Location         string
	Include, Exclude []Pattern
}

// Installation is the CLI configuration's provider_installation block.
// Without one (Explicit false) every provider is installed directly from
// its registry.
type Installation struct {
	Explicit bool
	Methods  []MethodConfig
	// DevOverrides are dev_overrides: a directory holding the provider's
	// binary, by provider address (registry.terraform.io/hashicorp/random).
	DevOverrides map[string]string
}

// Pattern is an include or exclude pattern: HOST/NAMESPACE/TYPE, each
// part a name or "*" (NAMESPACE/TYPE means registry.terraform.io).
type Pattern struct{ Host, Namespace, Type string }

func (p Pattern) String() string { return p.Host + "/" + p.Namespace + "/" + p.Type }

// Matches reports whether the provider is one the pattern names.
func (p Pattern) Matches(a tfaddr.Provider) bool {
	part := func(pat, s string) bool { return pat == "*" || strings.EqualFold(pat, s) }
	return part(p.Host, a.Hostname.String()) && part(p.Namespace, a.Namespace) && part(p.Type, a.Type)
}

// ParsePattern reads an include or exclude pattern. A "*" must be
// followed only by "*" parts, as terraform requires.
func ParsePattern(s string) (Pattern, error) {
	parts := strings.Split(s, "/")
	if len(parts) == 2 {
		parts = append([]string{tfaddr.DefaultProviderRegistryHost.String()}, parts...)
	}
	if len(parts) != 3 {
		return Pattern{}, fmt.Errorf("pattern %q must be HOSTNAME/NAMESPACE/TYPE or NAMESPACE/TYPE, each part a name or *", s)
	}
	wild := false
	for _, p := range parts {
		if p == "" {
			return Pattern{}, fmt.Errorf("pattern %q has an empty part", s)
		}
		if wild && p != "*" {
			return Pattern{}, fmt.Errorf("pattern %q: after a * every part must be * too (write %s)", s, wildTail(parts))
		}
		if p != "*" && strings.Contains(p, "*") {
			return Pattern{}, fmt.Errorf("pattern %q: * must be a whole part, not part of a name", s)
		}
		wild = wild || p == "*"
	}
	return Pattern{Host: strings.ToLower(parts[0]), Namespace: parts[1], Type: parts[2]}, nil
}

func wildTail(parts []string) string {
	out := append([]string(nil), parts...)
	for i := range out {
		if i > 0 && (out[i-1] == "*") {
			out[i] = "*"
		}
	}
	return strings.Join(out, "/")
}

// Includes reports whether the method is for the provider: it matches an
// include pattern (or the method has none) and no exclude pattern.
func (m MethodConfig) Includes(a tfaddr.Provider) bool {
	for _, p := range m.Exclude {
		if p.Matches(a) {
			return false
		}
	}
	if len(m.Include) == 0 {
		return true
	}
	for _, p := range m.Include {
		if p.Matches(a) {
			return true
		}
	}
	return false
}

// Describe says where the method looks, for messages.
func (m MethodConfig) Describe() string {
	switch m.Kind {
	case FilesystemMirror:
		return "the filesystem mirror " + m.Location
	case NetworkMirror:
		return "the network mirror " + m.Location
	}
	return "its origin registry (direct)"
}

// readInstallation reads a provider_installation block.
func readInstallation(n ast.Node) (Installation, error) {
	out := Installation{Explicit: true, DevOverrides: map[string]string{}}
	items, err := body(n, "provider_installation")
	if err != nil {
		return out, err
	}
	for _, it := range items {
		kind := itemKeys(it)[0]
		switch MethodKind(kind) {
		case Direct, FilesystemMirror, NetworkMirror:
			var m MethodConfig
			m, err = readMethod(MethodKind(kind), it.Val)
			out.Methods = append(out.Methods, m)
		default:
			if kind != "dev_overrides" {
				return out, fmt.Errorf("unknown block %q: provider_installation may hold direct, filesystem_mirror, network_mirror and dev_overrides blocks", kind)
			}
			err = readDevOverrides(it.Val, out.DevOverrides)
		}
		if err != nil {
			return out, fmt.Errorf("%s: %w", kind, err)
		}
	}
	return out, nil
}

func readMethod(kind MethodKind, n ast.Node) (MethodConfig, error) {
	m := MethodConfig{Kind: kind}
	items, err := body(n, string(kind))
	if err != nil {
		return m, err
	}
	want := map[MethodKind]string{FilesystemMirror: "path", NetworkMirror: "url"}[kind]
	for _, it := range items {
		switch name := itemKeys(it)[0]; {
		case name == "include" || name == "exclude":
			ps, err := patterns(it.Val)
			if err != nil {
				return m, fmt.Errorf("%s %w", name, err)
			}
			if name == "include" {
				m.Include = ps
			} else {
				m.Exclude = ps
			}
		case name == want && want != "":
			if m.Location, err = literal(it.Val, "the mirror's location"); err != nil {
				return m, fmt.Errorf("%s %w", name, err)
			}
		default:
			return m, fmt.Errorf("unexpected argument %q", name)
		}
	}
	return m, checkLocation(m)
}

// checkLocation refuses a mirror without a usable location.
func checkLocation(m MethodConfig) error {
	switch m.Kind {
	case FilesystemMirror:
		if !filepath.IsAbs(m.Location) {
			return fmt.Errorf("path %q must be given, as an absolute directory name", m.Location)
		}
	case NetworkMirror:
		u, err := url.Parse(m.Location)
		if err != nil || u.Host == "" {
			return fmt.Errorf("url %q must be given, as an absolute https:// URL", m.Location)
		}
		if u.Scheme != "https" {
			return fmt.Errorf("url %q: a network mirror must be served over https, as terraform requires", m.Location)
		}
	}
	return nil
}

func patterns(n ast.Node) ([]Pattern, error) {
	strs, err := stringList(n)
	if err != nil {
		return nil, fmt.Errorf("%w, such as [\"registry.terraform.io/hashicorp/*\"]", err)
	}
	out := make([]Pattern, len(strs))
	for i, s := range strs {
		if out[i], err = ParsePattern(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readDevOverrides reads dev_overrides: provider source addresses
// ("hashicorp/random") to directories.
func readDevOverrides(n ast.Node, into map[string]string) error {
	items, err := body(n, "dev_overrides")
	if err != nil {
		return err
	}
	for _, it := range items {
		name := itemKeys(it)[0]
		addr, err := tfaddr.ParseProviderSource(name)
		if err != nil {
			return fmt.Errorf("%q is not a provider source address: %v", name, err)
		}
		dir, err := literal(it.Val, "the directory holding the provider's binary")
		if err != nil {
			return fmt.Errorf("%q %w", name, err)
		}
		into[addr.String()] = dir
	}
	return nil
}
