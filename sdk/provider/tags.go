package provider

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fieldTag is what a struct field's tags say about its property:
//
//	Name string `plinth:"name,optional,secret,replaceOnChanges,computed" doc:"..." default:"..."`
type fieldTag struct {
	name             string
	optional         bool
	secret           bool
	replaceOnChanges bool
	computed         bool
	doc              string
	def              string
	hasDefault       bool
}

// parseTag reads a field's tags. skip is set for fields that are not
// properties: unexported ones and those tagged `plinth:"-"`.
func parseTag(f reflect.StructField) (tag fieldTag, skip bool, err error) {
	raw, tagged := f.Tag.Lookup("plinth")
	if raw == "-" || (!f.IsExported() && !f.Anonymous) {
		return tag, true, nil
	}
	parts := strings.Split(raw, ",")
	tag.name = strings.TrimSpace(parts[0])
	if tag.name == "" && !(f.Anonymous && !tagged) {
		tag.name = lowerCamel(f.Name)
	}
	for _, opt := range parts[1:] {
		if err := tag.setOption(strings.TrimSpace(opt)); err != nil {
			return tag, false, fmt.Errorf("field %s: %w", f.Name, err)
		}
	}
	tag.doc = f.Tag.Get("doc")
	tag.def, tag.hasDefault = f.Tag.Lookup("default")
	return tag, false, nil
}

func (t *fieldTag) setOption(opt string) error {
	switch opt {
	case "optional":
		t.optional = true
	case "secret":
		t.secret = true
	case "replaceOnChanges":
		t.replaceOnChanges = true
	case "computed":
		t.computed = true
	case "":
	default:
		return fmt.Errorf("unknown plinth tag option %q (known: optional, secret, replaceOnChanges, computed)", opt)
	}
	return nil
}

// required reports whether a program must set the property.
func (t fieldTag) required() bool { return !t.optional && !t.hasDefault }

// lowerCamel turns a Go field name into a property name: "Length" becomes
// "length", "URLPath" becomes "urlPath", "ID" becomes "id".
func lowerCamel(s string) string {
	runes := []rune(s)
	n := 0
	for n < len(runes) && unicode.IsUpper(runes[n]) {
		n++
	}
	if n > 1 && n < len(runes) && unicode.IsLower(runes[n]) {
		n-- // keep the capital that starts the next word: URLPath -> urlPath
	}
	for i := 0; i < n; i++ {
		runes[i] = unicode.ToLower(runes[i])
	}
	return string(runes)
}

// nearest returns the candidate closest to s by edit distance, if it is
// close enough to be a plausible typo.
func nearest(s string, candidates []string) string {
	best, bestD := "", utf8.RuneCountInString(s)/3+2
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
