package pulumistate

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Target says where adopted resources go and how to open secrets.
type Target struct {
	Stack, Project string
	// Passphrase opens passphrase-encrypted secrets; HasPassphrase says
	// it was given (PULUMI_CONFIG_PASSPHRASE set).
	Passphrase    string
	HasPassphrase bool
}

// Parse reads an exported deployment, refusing other versions.
func Parse(data []byte) (*Deployment, error) {
	var u Untyped
	if err := json.Unmarshal(data, &u); err != nil {
		return nil, fmt.Errorf("it is not a Pulumi deployment: %w", state.DescribeJSONError(data, err))
	}
	switch {
	case u.Version == 0 && u.Deployment == nil:
		return nil, errors.New(`it has no "version" and "deployment" fields, so it is not a Pulumi deployment (pulumi stack export)`)
	case u.Version != Version && u.Version != VersionWithFeatures:
		return nil, fmt.Errorf("it is a Pulumi deployment of version %d; plinth reads versions %d and %d (`pulumi stack export` of Pulumi 3)",
			u.Version, Version, VersionWithFeatures)
	}
	if err := checkFeatures(u.Features); err != nil {
		return nil, err
	}
	var d Deployment
	if err := json.Unmarshal(u.Deployment, &d); err != nil {
		return nil, fmt.Errorf("its deployment is not valid: %w", state.DescribeJSONError(u.Deployment, err))
	}
	return &d, nil
}

// ToSnapshot maps a deployment to a snapshot for the target stack. It
// returns notes for people about the fields it left out.
func ToSnapshot(d *Deployment, t Target) (*state.Snapshot, []string, error) {
	if err := checkReferences(d); err != nil {
		return nil, nil, err
	}
	c, err := crypterFor(d.SecretsProviders, t)
	if err != nil {
		return nil, nil, err
	}
	rw := rewriter{t: t, dropped: map[string]int{}}
	snap := &state.Snapshot{}
	if err := rw.resources(d.Resources, c, snap); err != nil {
		return nil, nil, err
	}
	notes := droppedNotes(rw.dropped)
	if note := dropStackReferences(snap); note != "" {
		notes = append(notes, note)
	}
	for i, op := range d.PendingOperations {
		res, err := rw.resource(op.Resource, c)
		if err != nil {
			return nil, nil, fmt.Errorf("pending_operations[%d]: %w", i, err)
		}
		o, ok := opOf[op.Type]
		if !ok {
			return nil, nil, fmt.Errorf("pending_operations[%d] is of type %q; Pulumi writes creating, updating, deleting or reading", i, op.Type)
		}
		snap.Pending = append(snap.Pending, state.PendingOperation{Op: o, Resource: res})
	}
	if err := snap.Verify(); err != nil {
		return nil, nil, fmt.Errorf("it fails plinth's integrity check (dangling or misordered references, duplicate URNs): %w", err)
	}
	return snap, notes, nil
}

// resources maps the deployment's resources into snap; the root stack
// resource's outputs become the stack's outputs.
func (rw rewriter) resources(rs []Resource, c state.Crypter, snap *state.Snapshot) error {
	seen := map[string]bool{}
	var stackURN resource.URN
	for i, r := range rs {
		res, err := rw.resource(r, c)
		if err != nil {
			return fmt.Errorf("resources[%d]: %w", i, err)
		}
		if res.Type == stackType {
			// plinth has no root stack resource: its outputs are the
			// stack's outputs, and what it parents has no parent.
			stackURN, snap.Outputs = res.URN, res.Outputs
			continue
		}
		if res.Parent == stackURN {
			res.Parent = ""
		}
		key := string(res.URN) + fmt.Sprint(res.Delete, res.ID)
		if seen[key] || (!res.Delete && seen[string(res.URN)]) {
			return fmt.Errorf("resource %s appears twice", r.URN)
		}
		seen[key], seen[string(res.URN)] = true, seen[string(res.URN)] || !res.Delete
		snap.Resources = append(snap.Resources, res)
	}
	return nil
}

// checkReferences refuses a deployment whose resources name a parent,
// provider or dependency it does not hold, in the deployment's own URNs
// (plinth's integrity check, after conversion, catches the rest).
func checkReferences(d *Deployment) error {
	held := map[string]bool{}
	for _, r := range d.Resources {
		held[r.URN] = true
	}
	for _, r := range d.Resources {
		for _, ref := range references(r) {
			if !held[ref.urn] {
				return fmt.Errorf("resource %s names %s as its %s, which the deployment does not hold: a dangling reference; export the whole stack again with `pulumi stack export`",
					r.URN, ref.urn, ref.what)
			}
		}
	}
	return nil
}

type reference struct{ what, urn string }

// references lists what a resource refers to, in a fixed order.
func references(r Resource) []reference {
	var out []reference
	if r.Parent != "" {
		out = append(out, reference{"parent", r.Parent})
	}
	if pu, _, err := state.ParseProviderRef(r.Provider); err == nil {
		out = append(out, reference{"provider", string(pu)})
	}
	for _, dep := range r.Dependencies {
		out = append(out, reference{"dependency", dep})
	}
	if r.DeletedWith != "" {
		out = append(out, reference{"deletedWith resource", r.DeletedWith})
	}
	keys := make([]string, 0, len(r.PropertyDependencies))
	for k := range r.PropertyDependencies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, dep := range r.PropertyDependencies[k] {
			out = append(out, reference{"dependency (of property " + k + ")", dep})
		}
	}
	return out
}

// stackType is the type of Pulumi's root stack resource.
const stackType = "pulumi:pulumi:Stack"

var opOf = map[string]state.Op{"creating": state.OpCreate, "updating": state.OpUpdate, "deleting": state.OpDelete, "reading": state.OpRead}

// crypterFor opens the deployment's secrets provider, if it can.
func crypterFor(sp *SecretsProviders, t Target) (state.Crypter, error) {
	switch {
	case sp == nil:
		return missingKey{"it holds a secret but names no secrets provider (secrets_providers) to open it; " +
			"re-export it with `pulumi stack export --show-secrets`"}, nil
	case sp.Type == "passphrase" && t.HasPassphrase:
		return OpenPassphrase(sp.State, t.Passphrase)
	case sp.Type == "passphrase":
		return missingKey{"its secrets are encrypted with a passphrase: set PULUMI_CONFIG_PASSPHRASE to it"}, nil
	}
	return missingKey{fmt.Sprintf("its secrets are encrypted by the %q secrets provider, which plinth cannot open; "+
		"re-export it with `pulumi stack export --show-secrets`, or change its secrets provider to passphrase first", sp.Type)}, nil
}

// missingKey fails to open any secret, saying why.
type missingKey struct{ why string }

func (m missingKey) Seal([]byte) (string, error) { return "", errors.New(m.why) }
func (m missingKey) Open(string) ([]byte, error) { return nil, errors.New(m.why) }

// rewriter moves URNs into the target's stack and project, and counts
// the fields it drops.
type rewriter struct {
	t       Target
	dropped map[string]int
}

func (rw rewriter) urn(u string) (resource.URN, error) {
	if u == "" {
		return "", nil
	}
	p, err := resource.ParseURN(u)
	if err != nil {
		return "", err
	}
	rest := strings.TrimPrefix(string(p), "urn:pulumi:"+p.Stack()+"::"+p.Project()+"::")
	return resource.URN("urn:pulumi:" + rw.t.Stack + "::" + rw.t.Project + "::" + rest), nil
}

func (rw rewriter) urns(us []string) ([]resource.URN, error) {
	var out []resource.URN
	for _, u := range us {
		n, err := rw.urn(u)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func (rw rewriter) resource(r Resource, c state.Crypter) (*state.Resource, error) {
	urn, err := rw.urn(r.URN)
	if err != nil || urn == "" {
		return nil, fmt.Errorf("resource URN %q: %v", r.URN, err)
	}
	if err := unmapped(r, rw.dropped); err != nil {
		return nil, err
	}
	res := &state.Resource{URN: urn, Type: r.Type, Custom: r.Custom, ID: r.ID, Protect: r.Protect, Tainted: r.Taint,
		Delete: r.Delete, InitErrors: r.InitErrors, RetainOnDelete: r.RetainOnDelete,
		IgnoreChanges: r.IgnoreChanges, ReplaceOnChanges: r.ReplaceOnChanges, External: r.External,
		AdditionalSecretOutputs: r.AdditionalSecretOutputs,
		DeleteHooks:             state.DeleteHooks{Before: r.ResourceHooks[hookBeforeDelete], After: r.ResourceHooks[hookAfterDelete], OnError: r.ResourceHooks[hookOnError]}}
	if res.Parent, err = rw.urn(r.Parent); err != nil {
		return nil, fmt.Errorf("%s: parent: %v", r.URN, err)
	}
	if res.Dependencies, err = rw.urns(r.Dependencies); err != nil {
		return nil, fmt.Errorf("%s: dependencies: %v", r.URN, err)
	}
	if err := rw.more(r, res); err != nil {
		return nil, err
	}
	if res.Inputs, err = state.DecodeObject(r.Inputs, c); err != nil {
		return nil, fmt.Errorf("%s: inputs: %w", r.URN, err)
	}
	if res.Outputs, err = state.DecodeObject(r.Outputs, c); err != nil {
		return nil, fmt.Errorf("%s: outputs: %w", r.URN, err)
	}
	return res, nil
}

// more maps the provider reference, property dependencies, timeouts and
// times.
func (rw rewriter) more(r Resource, res *state.Resource) error {
	if r.Provider != "" {
		pu, id, err := state.ParseProviderRef(r.Provider)
		if err != nil {
			return fmt.Errorf("%s: %v", r.URN, err)
		}
		nu, _ := rw.urn(string(pu))
		res.Provider = state.ProviderRef(nu, id)
	}
	for k, deps := range r.PropertyDependencies {
		us, err := rw.urns(deps)
		if err != nil {
			return fmt.Errorf("%s: property dependencies of %s: %v", r.URN, k, err)
		}
		if res.PropertyDependencies == nil {
			res.PropertyDependencies = map[string][]resource.URN{}
		}
		res.PropertyDependencies[k] = us
	}
	if r.DeletedWith != "" {
		dw, err := rw.urn(r.DeletedWith)
		if err != nil {
			return fmt.Errorf("%s: deletedWith: %v", r.URN, err)
		}
		res.DeletedWith = dw
	}
	if ct := r.CustomTimeouts; ct != nil {
		sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
		res.CustomTimeouts = state.CustomTimeouts{Create: sec(ct.Create), Update: sec(ct.Update), Delete: sec(ct.Delete)}
	}
	if r.Created != nil {
		res.Created = *r.Created
	}
	if r.Modified != nil {
		res.Modified = *r.Modified
	}
	return nil
}

// ExportOptions are what an export may do beyond the faithful: nothing
// unless asked.
type ExportOptions struct {
	// PlaintextIDs writes IDs derived from secrets (state.Resource's
	// SecretID, sealed in plinth's state) in the clear, which is the only
	// way Pulumi's format holds an ID; without it such an ID refuses the
	// export (SecretIDError).
	PlaintextIDs bool
	// Stack and Project name the stack resource (pulumi:pulumi:Stack),
	// which holds the stack's outputs, when no resource's URN gives them:
	// a stack with outputs and no resources.
	Stack, Project string
}

// SecretIDError refuses to write IDs derived from secrets: a Pulumi
// deployment holds every resource's ID as a plain string (apitype's
// ResourceV3.ID; Pulumi's engine cannot make an ID secret, pulumi/pulumi
// #2717), so no secrets provider can seal one and `pulumi stack import`
// would take nothing else there.
type SecretIDError struct {
	URNs []resource.URN
}

func (e *SecretIDError) Error() string {
	names := make([]string, len(e.URNs))
	for i, u := range e.URNs {
		names[i] = string(u)
	}
	return fmt.Sprintf("the ID of %s derives from a secret, and plinth's state holds it sealed, but Pulumi's "+
		"deployment format holds every resource ID in plain text (Pulumi cannot make an ID secret), so the export "+
		"would reveal it; pass --plaintext-ids to write it in the clear knowingly, or change the resource so that "+
		"its ID does not hold a secret", strings.Join(names, ", "))
}

// secretIDs lists the resources, recorded or pending, whose ID derives
// from a secret.
func secretIDs(snap *state.Snapshot) []resource.URN {
	var urns []resource.URN
	for _, r := range snap.Resources {
		if r.SecretID && r.ID != "" {
			urns = append(urns, r.URN)
		}
	}
	for _, op := range snap.Pending {
		if r := op.Resource; r != nil && r.SecretID && r.ID != "" {
			urns = append(urns, r.URN)
		}
	}
	return urns
}

// stackResourceURN is the URN of the deployment's stack resource, named
// for the stack and project of the snapshot's resources, else of opts;
// "" for an empty snapshot, which needs none.
func stackResourceURN(snap *state.Snapshot, opts ExportOptions) (string, error) {
	stack, project := opts.Stack, opts.Project
	switch {
	case len(snap.Resources) > 0:
		stack, project = snap.Resources[0].URN.Stack(), snap.Resources[0].URN.Project()
	case len(snap.Pending) > 0:
		stack, project = snap.Pending[0].Resource.URN.Stack(), snap.Pending[0].Resource.URN.Project()
	case len(snap.Outputs) == 0:
		return "", nil
	case stack == "" || project == "":
		return "", fmt.Errorf("the stack has outputs and no resources, so the stack and project that name its stack resource must be given (ExportOptions.Stack and Project)")
	}
	return string(resource.NewURN(stack, project, "", stackType, project+"-"+stack)), nil
}

// FromSnapshot writes a snapshot as an exported deployment; secrets are
// sealed with p (nil: the snapshot must hold none). An ID derived from a
// secret refuses the export (SecretIDError) unless opts.PlaintextIDs.
func FromSnapshot(snap *state.Snapshot, p *Passphrase, now time.Time, opts ExportOptions) ([]byte, error) {
	if urns := secretIDs(snap); len(urns) > 0 && !opts.PlaintextIDs {
		return nil, &SecretIDError{URNs: urns}
	}
	d := Deployment{Manifest: newManifest(now, manifestVersion)}
	var c state.Crypter = missingKey{"the state holds secrets: set PULUMI_CONFIG_PASSPHRASE to encrypt them for Pulumi's passphrase secrets provider"}
	if p != nil {
		c = p
		d.SecretsProviders = &SecretsProviders{Type: "passphrase", State: p.State}
	}
	stackURN, err := stackResourceURN(snap, opts)
	if err != nil {
		return nil, err
	}
	if stackURN != "" {
		outs, err := state.EncodeObject(snap.Outputs, c)
		if err != nil {
			return nil, fmt.Errorf("stack outputs: %w", err)
		}
		d.Resources = append(d.Resources, Resource{URN: stackURN, Type: stackType, Outputs: outs})
	}
	for _, r := range snap.Resources {
		if len(r.DependencyGroups) > 0 { // Pulumi lists every instance
			r = r.Clone()
			r.Dependencies, r.DependencyGroups = state.ExpandGroups(r, snap.Resources), nil
		}
		rj, err := resourceOut(r, c)
		if err != nil {
			return nil, err
		}
		if rj.Parent == "" && !defaultProvider(r) {
			rj.Parent = stackURN
		}
		d.Resources = append(d.Resources, rj)
	}
	for _, op := range snap.Pending {
		rj, err := resourceOut(op.Resource, c)
		if err != nil {
			return nil, err
		}
		d.PendingOperations = append(d.PendingOperations, Operation{Resource: rj, Type: opName(op.Op)})
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	err = enc.Encode(untypedWithFeatures(d, raw))
	return b.Bytes(), err
}

// defaultProvider reports whether r is a default provider, which pulumi
// records with no parent; an explicit provider is the program's resource,
// and its parent is the stack's, as any other resource's.
func defaultProvider(r *state.Resource) bool {
	name := r.URN.Name()
	return state.IsProviderType(r.Type) && (name == state.DefaultProviderName("") || strings.HasPrefix(name, "default_"))
}

// manifestVersion is the "version" written in an export's manifest: the
// tool that wrote it, as `pulumi stack` shows it ("Pulumi version used").
const manifestVersion = "plinth"

// newManifest makes a manifest whose magic cookie is what Pulumi checks
// it against: the hex SHA-256 of the version (deploy.Manifest.NewMagic in
// pulumi/pkg). `pulumi stack import` refuses any other cookie as
// "possible tampering/corruption".
func newManifest(now time.Time, version string) Manifest {
	return Manifest{Time: now, Magic: fmt.Sprintf("%x", sha256.Sum256([]byte(version))), Version: version}
}

func opName(o state.Op) string {
	for k, v := range opOf {
		if v == o {
			return k
		}
	}
	return "updating"
}

// Pulumi's names of the kinds of hooks the state keeps.
const (
	hookBeforeDelete = "BeforeDelete"
	hookAfterDelete  = "AfterDelete"
	hookOnError      = "OnError"
)

// resourceHooksOut is a resource's delete hooks as Pulumi records them.
func resourceHooksOut(h state.DeleteHooks) map[string][]string {
	if h.Empty() {
		return nil
	}
	out := map[string][]string{}
	for kind, names := range map[string][]string{hookBeforeDelete: h.Before, hookAfterDelete: h.After, hookOnError: h.OnError} {
		if len(names) > 0 {
			out[kind] = names
		}
	}
	return out
}

func resourceOut(r *state.Resource, c state.Crypter) (Resource, error) {
	in, err := encodeOmitNil(r.Inputs, c)
	if err != nil {
		return Resource{}, fmt.Errorf("%s: inputs: %w", r.URN, err)
	}
	out, err := encodeOmitNil(r.Outputs, c)
	if err != nil {
		return Resource{}, fmt.Errorf("%s: outputs: %w", r.URN, err)
	}
	rj := Resource{URN: string(r.URN), Custom: r.Custom, Delete: r.Delete, ID: r.ID, Type: r.Type, Inputs: in, Outputs: out,
		Parent: string(r.Parent), Protect: r.Protect, Taint: r.Tainted, InitErrors: r.InitErrors, Provider: r.Provider,
		RetainOnDelete: r.RetainOnDelete, IgnoreChanges: r.IgnoreChanges, ReplaceOnChanges: r.ReplaceOnChanges, External: r.External,
		DeletedWith: string(r.DeletedWith), AdditionalSecretOutputs: r.AdditionalSecretOutputs,
		ResourceHooks: resourceHooksOut(r.DeleteHooks)}
	for _, dep := range r.Dependencies {
		rj.Dependencies = append(rj.Dependencies, string(dep))
	}
	for k, deps := range r.PropertyDependencies {
		if rj.PropertyDependencies == nil {
			rj.PropertyDependencies = map[string][]string{}
		}
		for _, dep := range deps {
			rj.PropertyDependencies[k] = append(rj.PropertyDependencies[k], string(dep))
		}
	}
	if ct := r.CustomTimeouts; ct != (state.CustomTimeouts{}) {
		rj.CustomTimeouts = &CustomTimeouts{Create: ct.Create.Seconds(), Update: ct.Update.Seconds(), Delete: ct.Delete.Seconds()}
	}
	if !r.Created.IsZero() {
		rj.Created = &r.Created
	}
	if !r.Modified.IsZero() {
		rj.Modified = &r.Modified
	}
	return rj, nil
}

// encodeOmitNil encodes an object; a nil one is left out.
func encodeOmitNil(o resource.Object, c state.Crypter) (json.RawMessage, error) {
	if o == nil {
		return nil, nil
	}
	return state.EncodeObject(o, c)
}
