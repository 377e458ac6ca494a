package tfstate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// address is the resource's address without an instance key:
// module.a["x"].random_pet.p, or data.x.y.
func (r *Resource) address() (string, error) {
	switch r.Mode {
	case "managed", "data":
	case "":
		return "", fmt.Errorf("resource %s.%s has no mode", r.Type, r.Name)
	default:
		return "", fmt.Errorf("resource %s.%s has mode %q; Terraform writes \"managed\" or \"data\"", r.Type, r.Name, r.Mode)
	}
	if !identRE.MatchString(r.Type) || !identRE.MatchString(r.Name) {
		return "", fmt.Errorf("resource type %q and name %q are not both Terraform identifiers", r.Type, r.Name)
	}
	if err := checkModule(r.Module); err != nil {
		return "", fmt.Errorf("resource %s.%s: %w", r.Type, r.Name, err)
	}
	a := r.Type + "." + r.Name
	if r.Mode == "data" {
		a = "data." + a
	}
	if r.Module != "" {
		a = r.Module + "." + a
	}
	return a, nil
}

// moduleRE matches one module step: module.NAME with an optional key.
var moduleRE = regexp.MustCompile(`^module\.[A-Za-z_][A-Za-z0-9_-]*(\[(\d+|"(?:[^"\\]|\\.)*")\])?`)

// checkModule checks a module instance address such as module.a[0].module.b.
func checkModule(m string) error {
	rest := m
	for rest != "" {
		loc := moduleRE.FindStringIndex(rest)
		if loc == nil {
			return fmt.Errorf("module address %q is not of the form module.NAME[KEY].module.NAME", m)
		}
		rest = rest[loc[1]:]
		if rest != "" {
			var ok bool
			if rest, ok = strings.CutPrefix(rest, "."); !ok {
				return fmt.Errorf("module address %q is not of the form module.NAME[KEY].module.NAME", m)
			}
		}
	}
	return nil
}

// instanceKey formats an index_key: "" for none, [0] for a number, ["a"]
// for a string.
func instanceKey(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fmt.Errorf("index_key %s: %v", raw, err)
	}
	switch k := v.(type) {
	case float64:
		if k < 0 || k != float64(int64(k)) {
			return "", fmt.Errorf("index_key %s is not a count index (a whole number from 0)", raw)
		}
		return "[" + strconv.FormatInt(int64(k), 10) + "]", nil
	case string:
		return "[" + strconv.Quote(k) + "]", nil
	}
	return "", fmt.Errorf("index_key %s is neither a number (count) nor a string (for_each)", raw)
}

// providerAddr is a provider configuration address:
// module.x.provider["registry.terraform.io/hashicorp/random"].west.
type providerAddr struct {
	Module string // "" for the root module
	Source string // registry.terraform.io/hashicorp/random
	Alias  string
}

var providerRE = regexp.MustCompile(`^((?:module\.[A-Za-z_][A-Za-z0-9_-]*\.)*)provider\["([^"\\]+)"\](?:\.([A-Za-z_][A-Za-z0-9_-]*))?$`)

// legacyProviderRE matches Terraform 0.12's provider.NAME[.ALIAS].
var legacyProviderRE = regexp.MustCompile(`^((?:module\.[A-Za-z_][A-Za-z0-9_-]*\.)*)provider\.([A-Za-z_][A-Za-z0-9_-]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*))?$`)

func parseProvider(s string) (providerAddr, error) {
	if m := providerRE.FindStringSubmatch(s); m != nil {
		parts := strings.Split(m[2], "/")
		if len(parts) != 3 || !identRE.MatchString(parts[2]) || parts[0] == "" || parts[1] == "" {
			return providerAddr{}, fmt.Errorf("provider %s: %q is not a provider source address (HOST/NAMESPACE/TYPE, such as registry.terraform.io/hashicorp/random)", s, m[2])
		}
		return providerAddr{Module: strings.TrimSuffix(m[1], "."), Source: m[2], Alias: m[3]}, nil
	}
	if m := legacyProviderRE.FindStringSubmatch(s); m != nil {
		return providerAddr{Module: strings.TrimSuffix(m[1], "."), Source: "registry.terraform.io/hashicorp/" + m[2], Alias: m[3]}, nil
	}
	if s == "" {
		return providerAddr{}, fmt.Errorf("no provider is named")
	}
	return providerAddr{}, fmt.Errorf("provider %q is not a provider configuration address such as provider[\"registry.terraform.io/hashicorp/random\"]", s)
}

// Type is the provider's type name: random.
func (p providerAddr) Type() string { return p.Source[strings.LastIndex(p.Source, "/")+1:] }

// String formats the address as Terraform writes it in state.
func (p providerAddr) String() string {
	s := `provider["` + p.Source + `"]`
	if p.Alias != "" {
		s += "." + p.Alias
	}
	if p.Module != "" {
		s = p.Module + "." + s
	}
	return s
}

// urnName is the name of the provider resource, as the Terraform front end
// names provider configurations: default for the root module's unaliased
// one, [module.x.]provider.TYPE[.ALIAS] otherwise.
func (p providerAddr) urnName() string {
	if p.Module == "" && p.Alias == "" {
		return "default"
	}
	n := "provider." + p.Type()
	if p.Alias != "" {
		n += "." + p.Alias
	}
	if p.Module != "" {
		n = p.Module + "." + n
	}
	return n
}

// pluginSource is the source a program would give: the registry's
// host left out.
func (p providerAddr) pluginSource() string {
	return strings.TrimPrefix(p.Source, "registry.terraform.io/")
}
