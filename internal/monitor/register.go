package monitor

import (
	"errors"
	"fmt"
	"strings"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// RequestError is a request the monitor refused: a malformed value or an
// option plinth cannot honour, with the resource it was for.
type RequestError struct {
	What   string // "resource urn:…" or "function token"
	Reason string
}

func (e *RequestError) Error() string { return e.What + ": " + e.Reason }

// registration translates a RegisterResource request into the engine's
// registration. urn is the URN the engine will give it, for messages.
func (s *Server) registration(req *pulumirpc.RegisterResourceRequest, urn resource.URN) (engine.Registration, error) {
	what := func() string { return "resource " + string(urn) } // only for an error
	inputs, err := pulumiwire.DecodeObject(req.GetObject(), pulumiwire.Full())
	if err != nil {
		return engine.Registration{}, &RequestError{what(), fmt.Sprintf("the program sent a malformed value (%v). Check the value the program gives this property: an object with the key 4dabf18193072939515e22adb298388d is read as a special Pulumi value (secret, asset, output), so it must be one", err)}
	}
	if inputs, err = s.hashAssets(inputs); err != nil {
		return engine.Registration{}, &RequestError{what(), fmt.Sprintf("cannot read an asset the program gives it (%v); check that the file exists, relative to %s", err, s.cfg.Dir)}
	}
	reg := engine.Registration{
		Type: req.GetType(), Name: req.GetName(), Custom: req.GetCustom(), Remote: req.GetRemote(),
		Parent: s.parent(req.GetParent()), Inputs: inputs,
		Dependencies: s.urns(req.GetDependencies()),
		Provider:     s.providerRef(req.GetProvider()),
		Version:      req.GetVersion(),
		// Where a missing plugin is installed from.
		PluginDownloadURL: req.GetPluginDownloadURL(),
		Protect:           req.GetProtect(), RetainOnDelete: req.GetRetainOnDelete(),
		DeleteBeforeReplace: req.GetDeleteBeforeReplace(),
		IgnoreChanges:       pulumiwire.DecodePaths(req.GetIgnoreChanges()),
		ReplaceOnChanges:    pulumiwire.DecodePaths(req.GetReplaceOnChanges()),
		ImportID:            req.GetImportId(),
		DeletedWith:         resource.URN(req.GetDeletedWith()),
		// Sealed in the state by the engine, and returned as secrets.
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
	}
	if reg.Provider == "" && req.GetCustom() {
		reg.Provider = s.providerRef(req.GetProviders()[packageOf(req.GetType())])
	}
	if deps := req.GetPropertyDependencies(); len(deps) > 0 {
		reg.PropertyDependencies = make(map[string][]resource.URN, len(deps))
		for k, d := range deps {
			reg.PropertyDependencies[k] = s.urns(d.GetUrns())
		}
	}
	if reg.CustomTimeouts, err = timeouts(req.GetCustomTimeouts()); err != nil {
		return engine.Registration{}, &RequestError{what(), err.Error()}
	}
	reg.Aliases = s.aliases(req)
	if hasHooks(req.GetHooks()) {
		if reg.Hooks, err = s.hookBinding(req, what()); err != nil {
			return engine.Registration{}, err
		}
	}
	if err := refuseUnsupported(req); err != nil {
		return engine.Registration{}, &RequestError{what(), err.Error()}
	}
	return reg, nil
}

// refuseUnsupported refuses the options plinth cannot honour, saying why.
func refuseUnsupported(req *pulumirpc.RegisterResourceRequest) error {
	switch {
	case req.GetPackageRef() != "":
		return errors.New("it belongs to a parameterized package, which plinth does not support")
	case len(req.GetReplaceWith()) > 0:
		return errors.New("it has the replaceWith option, which plinth does not support; remove the option, or use replaceOnChanges or dependsOn")
	}
	return nil
}

func hasHooks(h *pulumirpc.RegisterResourceRequest_ResourceHooksBinding) bool {
	return len(h.GetBeforeCreate())+len(h.GetAfterCreate())+len(h.GetBeforeUpdate())+len(h.GetAfterUpdate())+
		len(h.GetBeforeDelete())+len(h.GetAfterDelete())+len(h.GetOnError()) > 0
}

// packageOf returns the package of a type token: "plinth" for
// plinth:random:Pet, "plinth" for pulumi:providers:plinth.
func packageOf(typ string) string {
	if rest, ok := strings.CutPrefix(typ, "pulumi:providers:"); ok {
		return rest
	}
	pkg, _, _ := strings.Cut(typ, ":")
	return pkg
}

// timeouts parses customTimeouts, given as Go durations ("5m").
func timeouts(t *pulumirpc.RegisterResourceRequest_CustomTimeouts) (engine.CustomTimeouts, error) {
	if t.GetCreate() == "" && t.GetUpdate() == "" && t.GetDelete() == "" {
		return engine.CustomTimeouts{}, nil // as the SDKs send it when the program sets none
	}
	return parseTimeouts(t)
}

func parseTimeouts(t *pulumirpc.RegisterResourceRequest_CustomTimeouts) (engine.CustomTimeouts, error) {
	var out engine.CustomTimeouts
	for _, f := range []struct {
		name, text string
		dst        *time.Duration
	}{{"create", t.GetCreate(), &out.Create}, {"update", t.GetUpdate(), &out.Update}, {"delete", t.GetDelete(), &out.Delete}} {
		if f.text == "" {
			continue
		}
		d, err := time.ParseDuration(f.text)
		if err != nil || d < 0 {
			return out, fmt.Errorf("customTimeouts.%s %q is not a duration; write it like \"5m\" or \"1h30m\"", f.name, f.text)
		}
		*f.dst = d
	}
	return out, nil
}

// aliases translates alias URNs and alias specs.
func (s *Server) aliases(req *pulumirpc.RegisterResourceRequest) []engine.Alias {
	var out []engine.Alias
	for _, u := range req.GetAliasURNs() {
		out = append(out, engine.Alias{URN: resource.URN(u)})
	}
	for _, a := range req.GetAliases() {
		if u := a.GetUrn(); u != "" {
			out = append(out, engine.Alias{URN: resource.URN(u)})
			continue
		}
		spec := a.GetSpec()
		if spec == nil {
			continue
		}
		al := engine.Alias{Name: spec.GetName(), Type: spec.GetType(), Stack: spec.GetStack(), Project: spec.GetProject(), NoParent: spec.GetNoParent()}
		if p := spec.GetParentUrn(); p != "" {
			al.Parent = s.parent(p)
			al.NoParent = al.Parent == ""
		}
		out = append(out, al)
	}
	return out
}

// hashAssets hashes the assets of a registration's inputs (see
// Config.Dir), so that a changed file is a changed input.
func (s *Server) hashAssets(inputs resource.Object) (resource.Object, error) {
	if s.cfg.Dir == "" {
		return inputs, nil
	}
	v, err := resource.WithHashes(resource.NewObject(inputs), s.cfg.Dir)
	if err != nil {
		return nil, err
	}
	return v.Object(), nil
}
