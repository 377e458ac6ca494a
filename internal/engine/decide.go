package engine

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// decide diffs a registration against its recorded state and settles on
// same, update or replace.
func (d *deployment) decide(c *change) error {
	provReplace, err := d.providerChanged(c)
	if err != nil {
		return err
	}
	ignore, err := parsePaths("ignoreChanges", c.reg.IgnoreChanges)
	if err != nil {
		return fmt.Errorf("%s: %w", c.urn, err)
	}
	resp, err := d.diff(c, ignore)
	if err != nil {
		return err
	}
	return d.settle(c, resp, provReplace)
}

// diff asks c's provider to diff it, unless the preview before this
// update already did so from the same request (see Plans).
func (d *deployment) diff(c *change, ignore []resource.PropertyPath) (provider.DiffResponse, error) {
	if resp, ok := d.x.diffOf(c); ok {
		return resp, nil
	}
	var resp provider.DiffResponse
	err := d.x.call(0, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Diff(ctx, provider.DiffRequest{
			URN: c.urn, ID: c.old.ID, OldInputs: c.old.Inputs, OldOutputs: c.old.Outputs,
			News: c.inputs, IgnoreChanges: ignore, Private: c.old.Private,
		})
		return err
	})
	if err != nil {
		return provider.DiffResponse{}, fmt.Errorf("diffing %s: %w", c.urn, err)
	}
	d.x.keepDiff(c, resp)
	return resp, nil
}

func (d *deployment) settle(c *change, resp provider.DiffResponse, provReplace bool) error {
	roc, err := parsePaths("replaceOnChanges", c.reg.ReplaceOnChanges)
	if err != nil {
		return fmt.Errorf("%s: %w", c.urn, err)
	}
	dd := resp.DetailedDiff
	changed := resp.Changes == provider.DiffSome
	if resp.Changes == provider.DiffUnknown || (changed && len(dd) == 0) {
		dd = resource.DiffObjects(c.old.Inputs, c.inputs, nil)
		changed = changed || len(dd) > 0
	}
	if !changed {
		resp = unchangedDiff(resp)
		dd = nil
	}
	dd = dd.Clone()
	markReplaceKeys(dd, resp.ReplaceKeys)
	forced := markReplaceOnChanges(dd, roc)
	c.diff, c.dbr = dd, resp.DeleteBeforeReplace && !c.reg.CreateBeforeDestroy || c.reg.DeleteBeforeReplace
	c.replace = dd.ReplacePaths()
	if provReplace {
		c.replace = append(c.replace, "provider")
	}
	c.reason = d.forcedReplace(c)
	switch {
	case provReplace || resp.Replaces() || forced || c.reason != "":
		c.op = OpReplace
	case changed || len(c.old.InitErrors) > 0:
		c.op = OpUpdate
	default:
		c.op = OpSame
	}
	return nil
}

// unchangedDiff drops the replacement a provider asked for in a diff that,
// once settled, changes nothing: a provider that answers "unknown" with
// replace keys, leaving the engine to compare inputs, and whose inputs did
// not change, is not replaced, as under pulumi. A Pulumi dynamic provider
// whose diff compares its news with outputs that lack them (outs left
// undefined) answers so on every run; taking its replace keys at their
// word replaced the resource at every preview.
func unchangedDiff(resp provider.DiffResponse) provider.DiffResponse {
	resp.ReplaceKeys, resp.DetailedDiff = nil, nil
	return resp
}

// forcedReplace says why a resource must be replaced whatever its diff:
// it is tainted, the operation's Replace option names it, or the program
// forced it.
func (d *deployment) forcedReplace(c *change) ReplaceReason {
	switch {
	case c.old.Tainted:
		return ReplaceTainted
	case d.replaceSet[c.urn]:
		return ReplaceRequested
	case c.reg.ForceReplace:
		return ReplaceTriggered
	}
	return ""
}

// providerChanged reports whether a resource must be replaced because its
// provider changed: the same provider resource was replaced, or a different
// provider's configuration cannot manage what the old one made.
func (d *deployment) providerChanged(c *change) (bool, error) {
	if c.old.Provider == c.inst.ref || c.old.Provider == "" {
		return false, nil
	}
	oldURN, _, err := state.ParseProviderRef(c.old.Provider)
	if err != nil {
		return false, fmt.Errorf("%s: %w", c.urn, err)
	}
	newURN, _, _ := state.ParseProviderRef(c.inst.ref)
	if oldURN == newURN {
		return true, nil
	}
	oldInst, err := d.prov.forRef(c.old.Provider)
	if err != nil {
		return false, fmt.Errorf("%s: %w", c.urn, err)
	}
	var resp provider.DiffResponse
	err = guard(func() (err error) {
		resp, err = c.inst.p.DiffConfig(d.callCtx, provider.DiffRequest{URN: newURN, OldInputs: oldInst.config, OldOutputs: oldInst.config, News: c.inst.config})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("%s: comparing its old provider with its new one: %w", c.urn, err)
	}
	return resp.Replaces(), nil
}

func parsePaths(option string, texts []string) ([]resource.PropertyPath, error) {
	paths := make([]resource.PropertyPath, 0, len(texts))
	for _, t := range texts {
		p, err := resource.ParsePath(t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", option, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// markReplaceKeys flags the changes under each top-level key a provider
// said requires replacement, adding an entry where the diff has none.
func markReplaceKeys(dd resource.DetailedDiff, keys []string) {
	for _, k := range keys {
		root := resource.PropertyPath{k}
		found := false
		for p, pd := range dd {
			if path, err := resource.ParsePath(p); err == nil && root.Contains(path) {
				pd.Replace, found = true, true
				dd[p] = pd
			}
		}
		if !found {
			dd[root.String()] = resource.PropertyDiff{Kind: resource.DiffUpdate, Replace: true}
		}
	}
}

// markReplaceOnChanges flags changes at, under or above a replaceOnChanges
// path and reports whether any was found.
func markReplaceOnChanges(dd resource.DetailedDiff, roc []resource.PropertyPath) bool {
	forced := false
	for p, pd := range dd {
		path, err := resource.ParsePath(p)
		if err != nil {
			continue
		}
		for _, r := range roc {
			if r.Contains(path) || path.Contains(r) {
				pd.Replace, forced = true, true
				dd[p] = pd
			}
		}
	}
	return forced
}
