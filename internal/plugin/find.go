package plugin

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	version "github.com/hashicorp/go-version"
)

// Request asks for a provider plugin.
type Request struct {
	// Name is the package name ("aws", "random").
	Name string
	// Version is a constraint: "6.1.0" (exactly), ">= 6.0", "~> 3.6",
	// ">= 1.0, < 2.0"; "" accepts any version.
	Version string
	// Protocol restricts the search to one protocol; "" accepts both.
	Protocol Protocol
	// Source is a Terraform registry address ("hashicorp/random" or
	// "registry.terraform.io/hashicorp/random"); it restricts the search
	// to Terraform providers with that address (or none known).
	Source string
	// ResolveVersions asks unversioned plugins their version even when
	// the choice among them does not need it (a built-in competes).
	ResolveVersions bool
}

// Finder resolves requests against the plugins in an Env. It is safe for
// concurrent use; discovery runs on first use, and again after Rescan.
type Finder struct {
	// Env says where to look.
	Env Env
	// Probe asks an unversioned Pulumi plugin its version (GetPluginInfo).
	// If nil, such plugins only match an empty constraint, or a constraint
	// no plugin of known version meets (see Find).
	Probe func(ctx context.Context, p Plugin) (string, error)
	// Warn receives warnings, such as a plugin used whose version is
	// unknown; nil discards them.
	Warn func(message string)

	scanMu  sync.Mutex
	found   *scan
	mu      sync.Mutex
	probed  map[string]string // path -> version
	warned  map[string]bool   // warnings already given
	probeMu sync.Mutex        // one probe at a time
}

func (f *Finder) plugins() []Plugin { return f.scanned().plugins }

func (f *Finder) scanned() *scan {
	f.scanMu.Lock()
	defer f.scanMu.Unlock()
	if f.found == nil {
		f.found = discover(f.Env)
	}
	return f.found
}

// Rescan forgets what discovery found, so that the next lookup looks on
// disk again (after a plugin was installed).
func (f *Finder) Rescan() {
	f.scanMu.Lock()
	defer f.scanMu.Unlock()
	f.found = nil
}

// NotFoundError says no installed plugin satisfies a request, and lists
// what was found and where plinth looked.
type NotFoundError struct {
	Request Request
	Found   []Plugin
	// NotExecutable are files of the package, named and placed as
	// plugins, that no one may execute.
	NotExecutable []Plugin
	Looked        []Location
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	if len(e.Found) == 0 && len(e.NotExecutable) > 0 {
		e.writeNotExecutable(&b)
		return b.String()
	}
	if len(e.Found) == 0 {
		fmt.Fprintf(&b, "no plugin found for package %q", e.Request.Name)
	} else {
		fmt.Fprintf(&b, "no plugin for package %q matches version %q; found:", e.Request.Name, e.Request.Version)
		for _, p := range e.Found {
			fmt.Fprintf(&b, "\n  %s (%s)", p, p.Origin)
		}
	}
	b.WriteString("\nplinth looked in:")
	for _, l := range e.Looked {
		fmt.Fprintf(&b, "\n  %s (%s)", l.Dir, l.Origin)
	}
	fmt.Fprintf(&b, "\nInstall pulumi-resource-%s or terraform-provider-%s_v<version> of a matching version into one of them (for example .plinth/plugins in the project).", e.Request.Name, e.Request.Name)
	if e.Request.Source != "" {
		fmt.Fprintf(&b, "\nIn a Terraform configuration, run plinth init (or terraform init) to install provider %s from its registry into .terraform/providers.", e.Request.Source)
	}
	if len(e.NotExecutable) > 0 {
		b.WriteString("\n")
		e.writeNotExecutable(&b)
	}
	return b.String()
}

// writeNotExecutable says, one line each, which files would be plugins
// of the package but for their mode, and how to fix them.
func (e *NotFoundError) writeNotExecutable(b *strings.Builder) {
	for i, p := range e.NotExecutable {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "found %s but it is not executable: chmod +x %s", p.Path, p.Path)
	}
}

// Find returns the newest plugin compatible with the request. Equal
// versions go to the one found first; a Pulumi-protocol plugin is preferred
// to a Terraform one when the request names no Source or Protocol.
func (f *Finder) Find(ctx context.Context, req Request) (Plugin, error) {
	if p, ok, err := f.devOverride(req); ok {
		return p, err
	}
	constraint, err := parseConstraint(req.Version)
	if err != nil {
		return Plugin{}, fmt.Errorf("package %s: %w", req.Name, err)
	}
	cands := f.candidates(req)
	f.resolveVersions(ctx, cands, constraint != nil || len(cands) > 1 || req.ResolveVersions)
	best := -1
	for i, c := range cands {
		if compatible(c.Version, constraint) && (best < 0 || better(c, cands[best])) {
			best = i
		}
	}
	if best < 0 {
		best = f.unversioned(req, cands)
	}
	if best < 0 {
		return Plugin{}, &NotFoundError{Request: req, Found: cands, Looked: f.Env.Locations(),
			NotExecutable: matching(f.scanned().notExecutable, req)}
	}
	return cands[best], nil
}

// unversioned picks, when no plugin of known version meets a constraint,
// the only plugin whose version is unknown (a bare
// terraform-provider-random, say: Terraform's protocol cannot be asked its
// version), with a warning naming it. With several, or none, it returns -1.
func (f *Finder) unversioned(req Request, cands []Plugin) int {
	pick := -1
	for i, c := range cands {
		if validVersion(c.Version) {
			continue
		}
		if pick >= 0 {
			return -1
		}
		pick = i
	}
	if pick >= 0 {
		f.warnOnce(fmt.Sprintf("using %s for package %s: its version is unknown (its file name carries none), so plinth cannot check it against %q; name it %s_v<version> to check", cands[pick].Path, req.Name, req.Version, cands[pick].Path))
	}
	return pick
}

// Satisfies reports whether version v meets constraint (">= 6.0",
// Terraform's "~> 3.6"; "" is met by any version). An unknown or invalid
// version meets only the empty constraint; an invalid constraint is an
// error that says how to write one.
func Satisfies(v, constraint string) (bool, error) {
	c, err := parseConstraint(constraint)
	if err != nil {
		return false, err
	}
	return compatible(v, c), nil
}

func parseConstraint(s string) (version.Constraints, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	c, err := version.NewConstraint(s)
	if err != nil {
		return nil, fmt.Errorf("invalid version constraint %q: write a version (6.1.0) or constraints such as \">= 6.0\" or \"~> 3.6\"", s)
	}
	return c, nil
}

// candidates are the resource plugins of the package the request allows.
func (f *Finder) candidates(req Request) []Plugin {
	return matching(f.plugins(), req)
}

// matching returns the resource plugins of ps the request allows.
func matching(ps []Plugin, req Request) []Plugin {
	var out []Plugin
	for _, p := range ps {
		if p.Kind != KindResource || p.Name != req.Name {
			continue
		}
		if req.Protocol != "" && p.Protocol != req.Protocol {
			continue
		}
		if req.Source != "" && (p.Protocol != ProtocolTerraform || !sameAddress(p.Address, req.Source)) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// sameAddress compares a found address with a requested one; a plugin
// whose address is unknown (a bare binary) matches any.
func sameAddress(found, requested string) bool {
	if found == "" {
		return true
	}
	if strings.Count(requested, "/") == 1 {
		requested = "registry.terraform.io/" + requested
	}
	return strings.EqualFold(found, requested)
}

// resolveVersions asks unversioned Pulumi plugins their version when the
// choice depends on it.
func (f *Finder) resolveVersions(ctx context.Context, cands []Plugin, needed bool) {
	if !needed || f.Probe == nil {
		return
	}
	for i, c := range cands {
		if c.Version == "" && c.Protocol == ProtocolPulumi {
			cands[i].Version = f.probe(ctx, c)
		}
	}
}

// probe asks a plugin its version once per path and binary.
func (f *Finder) probe(ctx context.Context, p Plugin) string {
	key := p.Path
	if info, err := os.Stat(p.Path); err == nil {
		key = fmt.Sprintf("%s@%d", p.Path, info.ModTime().UnixNano())
	}
	f.probeMu.Lock()
	defer f.probeMu.Unlock()
	f.mu.Lock()
	v, ok := f.probed[key]
	f.mu.Unlock()
	if ok {
		return v
	}
	v, err := f.Probe(ctx, p)
	if err != nil || !validVersion(v) {
		v = ""
	}
	f.mu.Lock()
	if f.probed == nil {
		f.probed = map[string]string{}
	}
	f.probed[key] = v
	f.mu.Unlock()
	return v
}

func validVersion(s string) bool {
	_, err := version.NewVersion(s)
	return err == nil
}

// compatible reports whether a plugin version satisfies the constraint;
// an unknown version only satisfies no constraint.
func compatible(v string, c version.Constraints) bool {
	if c == nil {
		return true
	}
	pv, err := version.NewVersion(v)
	return err == nil && c.Check(pv)
}

// better reports whether a beats b: a Pulumi plugin beats a Terraform one,
// then a newer version wins, a known version beating an unknown one.
func better(a, b Plugin) bool {
	if a.Protocol != b.Protocol {
		return a.Protocol == ProtocolPulumi
	}
	av, aerr := version.NewVersion(a.Version)
	bv, berr := version.NewVersion(b.Version)
	switch {
	case aerr != nil:
		return false
	case berr != nil:
		return true
	}
	return av.GreaterThan(bv)
}

// Diagnostic gives the summary for people (internal/display's interface);
// the detail is the message as wrapped, which lists what was found.
func (e *NotFoundError) Diagnostic() (summary, where, path, detail string) {
	if len(e.Found) == 0 && len(e.NotExecutable) > 0 {
		return "Provider plugin not executable", "", "", ""
	}
	return "Provider plugin not found", "", "", ""
}
