package tfplugin

import (
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// propertyPath converts a Terraform attribute path to plinth's property path
// syntax: attributes and string keys become names, integer keys indices.
// Set elements (keyed by value) end the path.
func propertyPath(p cty.Path) resource.PropertyPath {
	out := resource.PropertyPath{}
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			out = append(out, s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				return out
			case s.Key.Type() == cty.String:
				out = append(out, s.Key.AsString())
			case s.Key.Type() == cty.Number:
				i, acc := s.Key.AsBigFloat().Int64()
				if acc != big.Exact {
					return out
				}
				out = append(out, int(i))
			default:
				return out
			}
		}
	}
	return out
}

// formatPath renders a Terraform attribute path in plinth's syntax, or
// "(resource)" for the empty path.
func formatPath(p cty.Path) string {
	s := propertyPath(p).String()
	if s == "" {
		return "(resource)"
	}
	return s
}

// topLevel returns the first attribute name of a path, or "".
func topLevel(p cty.Path) string {
	if len(p) > 0 {
		if s, ok := p[0].(cty.GetAttrStep); ok {
			return s.Name
		}
	}
	return ""
}

// isSensitivePath reports whether a path lies in or under a sensitive
// attribute of the block.
func isSensitivePath(b *block, p cty.Path) bool {
	attrs, blocks := b.attributes, b.blocks
	for _, s := range p {
		step, ok := s.(cty.GetAttrStep)
		if !ok {
			continue
		}
		if a, ok := attrs[step.Name]; ok {
			if a.sensitive {
				return true
			}
			if a.nested == nil {
				return false
			}
			attrs, blocks = a.nested.attributes, nil
			continue
		}
		nb, ok := blocks[step.Name]
		if !ok {
			return false
		}
		attrs, blocks = nb.block.attributes, nb.block.blocks
	}
	return false
}

// joinNonEmpty joins the non-empty strings with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
