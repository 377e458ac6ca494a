package tfserve

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// overlay lays a configuration over the value the provider reports, the
// way Terraform requires a planned or new state to be: every value the
// configuration sets is kept exactly as written (its spelling, and an
// unknown keeps the configuration's type: an unknown string in a map of
// any type stays an unknown string), and the provider's value fills only
// the computed attributes the configuration leaves null, at any depth (a
// default on a field of a nested object).
func overlay(config, provider tftypes.Value, t *vtype) tftypes.Value {
	if !config.IsKnown() || config.IsNull() {
		return config
	}
	switch {
	case t.kind == kindObject:
		return overlayObject(config, provider, t)
	case t.kind == kindSet && t.elem.kind == kindObject:
		return overlaySet(config, provider, t)
	case (t.kind == kindList || t.kind == kindMap) && t.elem.kind == kindObject:
		return overlayCollection(config, provider, t)
	}
	return config
}

// overlayObject overlays each attribute: output-only attributes (the ID)
// and computed ones the configuration leaves null are the provider's.
func overlayObject(config, provider tftypes.Value, t *vtype) tftypes.Value {
	var cvals, pvals map[string]tftypes.Value
	if err := config.As(&cvals); err != nil {
		return config
	}
	if provider.IsKnown() && !provider.IsNull() {
		_ = provider.As(&pvals)
	}
	vals := make(map[string]tftypes.Value, len(t.attrs))
	types := make(map[string]tftypes.Type, len(t.attrs))
	for _, a := range t.attrs {
		cv, ok := cvals[a.tf]
		pv, pok := pvals[a.tf]
		if !pok {
			pv = tftypes.NewValue(a.t.tftype(), nil)
		}
		switch {
		case !ok || !a.input:
			vals[a.tf] = pv
		case cv.IsKnown() && cv.IsNull() && a.computed:
			vals[a.tf] = pv
		default:
			vals[a.tf] = overlay(cv, pv, a.t)
		}
		types[a.tf] = a.t.tftype()
		if a.t.kind == kindDynamic || types[a.tf].Is(tftypes.DynamicPseudoType) {
			types[a.tf] = vals[a.tf].Type()
		}
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, vals)
}

// overlayCollection overlays the objects of a list (by index) or a map
// (by key) on the provider's objects at the same place.
func overlayCollection(config, provider tftypes.Value, t *vtype) tftypes.Value {
	if t.kind == kindList {
		var cs, ps []tftypes.Value
		if err := config.As(&cs); err != nil {
			return config
		}
		if provider.IsKnown() && !provider.IsNull() {
			_ = provider.As(&ps)
		}
		out := make([]tftypes.Value, len(cs))
		for i, c := range cs {
			p := tftypes.NewValue(t.elem.tftype(), nil)
			if i < len(ps) {
				p = ps[i]
			}
			out[i] = overlay(c, p, t.elem)
		}
		return tftypes.NewValue(config.Type(), out)
	}
	var cs, ps map[string]tftypes.Value
	if err := config.As(&cs); err != nil {
		return config
	}
	if provider.IsKnown() && !provider.IsNull() {
		_ = provider.As(&ps)
	}
	out := make(map[string]tftypes.Value, len(cs))
	for k, c := range cs {
		p, ok := ps[k]
		if !ok {
			p = tftypes.NewValue(t.elem.tftype(), nil)
		}
		out[k] = overlay(c, p, t.elem)
	}
	return tftypes.NewValue(config.Type(), out)
}

// overlaySet overlays each object of a set on the provider's object that
// agrees with it: a set has no order (the SDK sorts it), so an element is
// paired with the first unpaired one whose attributes equal every known,
// non-null one the configuration sets.
func overlaySet(config, provider tftypes.Value, t *vtype) tftypes.Value {
	var cs, ps []tftypes.Value
	if err := config.As(&cs); err != nil {
		return config
	}
	if provider.IsKnown() && !provider.IsNull() {
		_ = provider.As(&ps)
	}
	used := make([]bool, len(ps))
	out := make([]tftypes.Value, len(cs))
	for i, c := range cs {
		p := tftypes.NewValue(t.elem.tftype(), nil)
		for j := range ps {
			if !used[j] && agrees(c, ps[j]) {
				p, used[j] = ps[j], true
				break
			}
		}
		out[i] = overlay(c, p, t.elem)
	}
	return tftypes.NewValue(config.Type(), out)
}

// agrees reports whether the object p has the value of each known,
// non-null attribute the object c sets.
func agrees(c, p tftypes.Value) bool {
	var cvals, pvals map[string]tftypes.Value
	if c.As(&cvals) != nil || !p.IsKnown() || p.IsNull() || p.As(&pvals) != nil {
		return false
	}
	for k, cv := range cvals {
		if !cv.IsFullyKnown() || cv.IsNull() {
			continue
		}
		if pv, ok := pvals[k]; !ok || !cv.Equal(pv) {
			return false
		}
	}
	return true
}
