package plugin

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	version "github.com/hashicorp/go-version"
)

// Discover lists every plugin in every location, in search order. Missing
// directories are skipped; unreadable ones too, since a plugin directory
// of someone else's tool should not stop plinth.
func Discover(env Env) []Plugin {
	return discover(env).plugins
}

// scan is what discovery found: the plugins, and the files named and
// placed as plugins that cannot be run because no one may execute them
// (a download that lost its mode), which Find names when it finds nothing
// else.
type scan struct {
	plugins       []Plugin
	notExecutable []Plugin
}

// add keeps p, a file named as a plugin, as a plugin if it can be
// executed, else as not executable if it is a regular file.
func (s *scan) add(p Plugin) {
	info, err := os.Stat(p.Path)
	switch {
	case err != nil || !info.Mode().IsRegular():
	case info.Mode().Perm()&0o111 != 0:
		s.plugins = append(s.plugins, p)
	default:
		s.notExecutable = append(s.notExecutable, p)
	}
}

func discover(env Env) *scan {
	s := &scan{}
	for _, loc := range env.Locations() {
		switch loc.layout {
		case layoutPlain:
			scanPlain(loc, s)
		case layoutPulumi:
			scanPulumiCache(loc, s)
		case layoutTerraform:
			scanTerraform(loc, env.platform(), s)
		}
	}
	return s
}

// scanPlain reads a plinth plugin directory: bare binaries of either
// ecosystem, and Pulumi-style versioned directories.
func scanPlain(loc Location, s *scan) {
	entries, err := os.ReadDir(loc.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(loc.Dir, e.Name())
		if isDir(path) {
			pulumiVersionDir(loc, e.Name(), s)
			continue
		}
		if p, ok := parseBinary(e.Name()); ok {
			p.Path, p.Origin = path, loc.Origin
			s.add(p)
		}
	}
}

// parseBinary reads pulumi-<kind>-<name>, terraform-provider-<name>,
// terraform-provider-<name>_v<version>[_x<protocol>] and
// mu-resource-<name>[_v<version>]: the prefix is the marker that says
// which protocol the binary speaks.
func parseBinary(file string) (Plugin, bool) {
	file = strings.TrimSuffix(file, ".exe")
	if rest, ok := strings.CutPrefix(file, "mu-resource-"); ok {
		name, ver := splitTerraformName(rest)
		if name == "" {
			return Plugin{}, false
		}
		return Plugin{Name: name, Kind: KindResource, Protocol: ProtocolMu, Version: ver}, true
	}
	if rest, ok := strings.CutPrefix(file, "terraform-provider-"); ok {
		name, ver := splitTerraformName(rest)
		if name == "" {
			return Plugin{}, false
		}
		return Plugin{Name: name, Kind: KindResource, Protocol: ProtocolTerraform, Version: ver}, true
	}
	if rest, ok := strings.CutPrefix(file, "pulumi-"); ok {
		for _, k := range pulumiKinds {
			if name, ok := strings.CutPrefix(rest, string(k)+"-"); ok && name != "" {
				return Plugin{Name: name, Kind: k, Protocol: ProtocolPulumi}, true
			}
		}
	}
	return Plugin{}, false
}

var tfSuffix = regexp.MustCompile(`_x[0-9]+$`)

// splitTerraformName splits "random_v3.6.0_x5" into "random" and "3.6.0".
func splitTerraformName(rest string) (string, string) {
	i := strings.LastIndex(rest, "_v")
	if i < 0 {
		return rest, ""
	}
	ver := tfSuffix.ReplaceAllString(rest[i+2:], "")
	if _, err := version.NewVersion(ver); err != nil {
		return rest, ""
	}
	return rest[:i], ver
}

// scanPulumiCache reads Pulumi's plugin cache.
func scanPulumiCache(loc Location, s *scan) {
	entries, err := os.ReadDir(loc.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			pulumiVersionDir(loc, e.Name(), s)
		}
	}
}

// pulumiVersionDir reads <kind>-<name>-v<version>/pulumi-<kind>-<name>. A
// directory whose download Pulumi has not finished (a .partial marker
// beside it) is skipped.
func pulumiVersionDir(loc Location, dir string, s *scan) {
	kind, name, ver, ok := parseVersionDir(dir)
	if !ok {
		return
	}
	if _, err := os.Stat(filepath.Join(loc.Dir, dir+".partial")); err == nil {
		return
	}
	path := filepath.Join(loc.Dir, dir, "pulumi-"+string(kind)+"-"+name)
	s.add(Plugin{Name: name, Kind: kind, Protocol: ProtocolPulumi, Version: ver, Path: path, Origin: loc.Origin})
}

func parseVersionDir(dir string) (Kind, string, string, bool) {
	for _, k := range pulumiKinds {
		rest, ok := strings.CutPrefix(dir, string(k)+"-")
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, "-v")
		if i <= 0 {
			return "", "", "", false
		}
		if _, err := version.NewVersion(rest[i+2:]); err != nil {
			return "", "", "", false
		}
		return k, rest[:i], rest[i+2:], true
	}
	return "", "", "", false
}

// scanTerraform reads <root>/<host>/<namespace>/<name>/<version>/<os>_<arch>/
// and, for Terraform's older layout, binaries directly in <root>/<os>_<arch>/.
func scanTerraform(loc Location, platform string, s *scan) {
	var flat scan
	scanPlain(Location{Dir: filepath.Join(loc.Dir, platform), Origin: loc.Origin}, &flat)
	s.plugins = append(s.plugins, onlyTerraform(flat.plugins)...)
	s.notExecutable = append(s.notExecutable, onlyTerraform(flat.notExecutable)...)
	pattern := filepath.Join(loc.Dir, "*", "*", "*", "*", platform, "terraform-provider-*")
	matches, _ := filepath.Glob(pattern)
	for _, path := range matches {
		p, ok := parseBinary(filepath.Base(path))
		if !ok || p.Protocol != ProtocolTerraform {
			continue
		}
		rel, _ := filepath.Rel(loc.Dir, path)
		parts := strings.Split(filepath.ToSlash(rel), "/") // host, namespace, name, version, platform, file
		if parts[2] != p.Name {
			continue
		}
		p.Version, p.Path, p.Origin = parts[3], path, loc.Origin
		p.Address = parts[0] + "/" + parts[1] + "/" + parts[2]
		s.add(p)
	}
}

func onlyTerraform(ps []Plugin) []Plugin {
	var out []Plugin
	for _, p := range ps {
		if p.Protocol == ProtocolTerraform {
			out = append(out, p)
		}
	}
	return out
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
