package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	version "github.com/hashicorp/go-version"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// Builtin is a provider compiled into plinth.
type Builtin struct {
	Version string
	New     func() (provider.Provider, error)
}

// Source makes providers for the engine: a built-in one in process when
// the package is built in and the version fits, else the plugin the Finder
// picks, started by the launcher for its protocol.
type Source struct {
	Finder   *plugin.Finder
	Builtins map[string]Builtin
	// Pulumi launches Pulumi-protocol plugins; Terraform launches
	// Terraform providers; Mu launches Mu-protocol providers. A nil
	// launcher means that protocol is not available.
	Pulumi    Launcher
	Terraform Launcher
	Mu        Launcher
	// Hosted returns the provider plinth starts itself for a package,
	// ahead of any plugin (see Hosted); ok is false for a package it does
	// not host. Nil hosts none.
	Hosted func(pkg string) (h Hosted, ok bool, err error)
	// Install, if set, installs the Pulumi resource plugin of a package
	// at an exact version from downloadURL ("" for the default), as the
	// pulumi CLI installs a plugin a program names that is not on disk.
	Install func(ctx context.Context, pkg, version, downloadURL string) error

	pre   prestarts // see Prestart
	carry carrying  // see Carry
}

var _ engine.ProviderSource = (*Source)(nil)

// NewSource makes a Source over env, asking unversioned Pulumi plugins
// their version through the Pulumi launcher.
func NewSource(env plugin.Env, builtins map[string]Builtin, pulumi, terraform Launcher) *Source {
	s := &Source{Finder: &plugin.Finder{Env: env}, Builtins: builtins, Pulumi: pulumi, Terraform: terraform}
	if pulumi != nil {
		s.Finder.Probe = probeWith(pulumi)
	}
	return s
}

// probeWith asks a plugin its version by launching it. Asked for a
// NewProvider call, it leaves the running plugin to that call (see
// probed); otherwise it closes it.
func probeWith(l Launcher) func(ctx context.Context, p plugin.Plugin) (string, error) {
	return func(ctx context.Context, p plugin.Plugin) (string, error) {
		prov, err := l.Launch(ctx, p)
		if err != nil {
			return "", err
		}
		info, err := prov.GetPluginInfo(ctx)
		if err != nil || !keep(ctx, p, prov) {
			_ = prov.Close()
		}
		return info.Version, err
	}
}

// NewProvider implements engine.ProviderSource. A package the Source
// hosts is started from its command (see Hosted). Otherwise, as the
// guide's lookup says, the newest compatible provider wins, the built-in
// one included; an installed plugin as new as the built-in wins the tie,
// since installing it says it is wanted.
func (s *Source) NewProvider(ctx context.Context, req engine.ProviderRequest) (provider.Provider, error) {
	if prov, ok, err := s.hosted(ctx, req); ok || err != nil {
		return prov, err
	}
	builtin, useBuiltin, err := s.builtinFor(req)
	if err != nil {
		return nil, err
	}
	ctx, kept := withProbed(ctx)
	defer kept.closeRest()
	p, err := s.find(ctx, req, useBuiltin)
	if err != nil {
		if useBuiltin {
			return builtin.New()
		}
		return nil, s.withBuiltin(err, req)
	}
	if useBuiltin && !atLeast(p.Version, builtin.Version) {
		return builtin.New()
	}
	l := s.launcher(p.Protocol)
	if l == nil {
		return nil, fmt.Errorf("found %s, but plinth cannot start %s plugins here", p, p.Protocol)
	}
	if prov := kept.take(p.Path); prov != nil {
		return prov, nil // started to ask its version
	}
	if prov := s.takeCarried(p, l); prov != nil {
		return prov, nil // the command's previous operation's
	}
	if prov, ok, err := s.takePrestarted(ctx, p.Path); ok {
		if err != nil {
			return nil, fmt.Errorf("starting %s: %w", p, err)
		}
		return s.carriable(p, l, prov), nil
	}
	prov, err := l.Launch(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", p, err)
	}
	return s.carriable(p, l, prov), nil
}

// find asks the Finder for the request's plugin; when none is on disk and
// the request names a Pulumi plugin by exact version, it installs it
// (Install) and looks again.
func (s *Source) find(ctx context.Context, req engine.ProviderRequest, useBuiltin bool) (plugin.Plugin, error) {
	preq := plugin.Request{Name: req.Package, Version: req.Version, Source: req.Source, Protocol: s.protocols(), ResolveVersions: useBuiltin}
	p, err := s.Finder.Find(ctx, preq)
	var nf *plugin.NotFoundError
	if err == nil || useBuiltin || s.Install == nil || req.Source != "" || !exactVersion(req.Version) || !errors.As(err, &nf) {
		return p, err
	}
	if ierr := s.Install(ctx, req.Package, req.Version, req.DownloadURL); ierr != nil {
		return plugin.Plugin{}, fmt.Errorf("%w\nplinth tried to install it: %v", err, ierr)
	}
	s.Finder.Rescan()
	return s.Finder.Find(ctx, preq)
}

// exactVersion reports whether a constraint names one version ("4.16.0",
// "v4.16.0"), as Pulumi programs name plugin versions.
func exactVersion(c string) bool {
	if c == "" || strings.ContainsAny(c, "<>=~!, ") {
		return false
	}
	_, err := version.NewSemver(strings.TrimPrefix(c, "v"))
	return err == nil
}

// builtinFor returns the built-in provider for a request and whether it is
// compatible with it.
func (s *Source) builtinFor(req engine.ProviderRequest) (Builtin, bool, error) {
	b, ok := s.Builtins[req.Package]
	if !ok || req.Source != "" {
		return Builtin{}, false, nil
	}
	fits, err := plugin.Satisfies(b.Version, req.Version)
	if err != nil {
		return Builtin{}, false, fmt.Errorf("package %s: %w", req.Package, err)
	}
	return b, fits, nil
}

// withBuiltin adds the built-in provider of the package, which did not
// fit the request either, to what a NotFoundError says was found, so the
// message does not claim there is no such provider at all.
func (s *Source) withBuiltin(err error, req engine.ProviderRequest) error {
	var nf *plugin.NotFoundError
	b, ok := s.Builtins[req.Package]
	if !ok || !errors.As(err, &nf) {
		return err
	}
	nf.Found = append([]plugin.Plugin{{Name: req.Package, Kind: plugin.KindResource, Protocol: plugin.ProtocolBuiltin, Version: b.Version, Origin: plugin.OriginBuiltin}}, nf.Found...)
	return err
}

// atLeast reports whether version a is known and not older than b.
func atLeast(a, b string) bool {
	av, err := version.NewVersion(a)
	if err != nil {
		return false
	}
	bv, err := version.NewVersion(b)
	return err != nil || !av.LessThan(bv)
}

// protocols restricts the search when only one launcher is wired.
func (s *Source) protocols() plugin.Protocol {
	only := plugin.Protocol("")
	for _, p := range []plugin.Protocol{plugin.ProtocolPulumi, plugin.ProtocolTerraform, plugin.ProtocolMu} {
		if s.launcher(p) == nil {
			continue
		}
		if only != "" {
			return ""
		}
		only = p
	}
	return only
}

// launcher is the launcher for a protocol.
func (s *Source) launcher(p plugin.Protocol) Launcher {
	switch p {
	case plugin.ProtocolTerraform:
		return s.Terraform
	case plugin.ProtocolMu:
		return s.Mu
	}
	return s.Pulumi
}
