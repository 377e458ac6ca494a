package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// OriginDevOverride is a provider the CLI configuration's dev_overrides
// names a directory for.
const OriginDevOverride Origin = "dev_overrides"

// devOverride finds the provider binary of a dev_overrides directory for
// a request naming a Source the overrides list: the first executable
// terraform-provider-NAME* file in it, whatever its version, as
// terraform uses it. ok is false when no override names the request.
func (f *Finder) devOverride(req Request) (Plugin, bool, error) {
	if req.Source == "" {
		return Plugin{}, false, nil
	}
	addrs := make([]string, 0, len(f.Env.DevOverrides))
	for a := range f.Env.DevOverrides {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		if !sameAddress(addr, req.Source) {
			continue
		}
		dir := f.Env.DevOverrides[addr]
		p, err := overrideBinary(dir, req.Name, addr)
		if err == nil {
			f.warnOnce(fmt.Sprintf("provider %s comes from %s, as the CLI configuration's dev_overrides says: it may not match any released version, and its version constraints and the dependency lock file are not checked", addr, dir))
		}
		return p, true, err
	}
	return Plugin{}, false, nil
}

func overrideBinary(dir, name, addr string) (Plugin, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Plugin{}, fmt.Errorf("provider %s: the dev_overrides directory %s cannot be read: %w", addr, dir, err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || !strings.HasPrefix(e.Name(), "terraform-provider-"+name) || info.Mode()&0o111 == 0 {
			continue
		}
		return Plugin{Name: name, Kind: KindResource, Protocol: ProtocolTerraform, Path: filepath.Join(dir, e.Name()),
			Origin: OriginDevOverride, Address: addr}, nil
	}
	return Plugin{}, fmt.Errorf("provider %s: the dev_overrides directory %s holds no executable terraform-provider-%s file; build the provider there (go install with GOBIN=%s) or change dev_overrides in the CLI configuration", addr, dir, name, dir)
}

// warnOnce gives a warning to Warn the first time it is given: a
// lookup may be made more than once for a provider (plinth checks a
// Terraform configuration's providers before it runs it).
func (f *Finder) warnOnce(msg string) {
	f.mu.Lock()
	if f.warned == nil {
		f.warned = map[string]bool{}
	}
	first := !f.warned[msg]
	f.warned[msg] = true
	f.mu.Unlock()
	if first && f.Warn != nil {
		f.Warn(msg)
	}
}
