package provider

import (
	"fmt"
	"reflect"
	"strconv"
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
	writeOnly        bool
	stable           bool
	variadic         bool
	set              bool
	block            bool
	doc              string
	def              string
	hasDefault       bool
	validate         string
	deprecated       string
}

// parseTag reads a field's tags. skip is set for fields that are not
// properties: unexported ones and those tagged `plinth:"-"`. The error, if
// any, says what is wrong with the tags and how to fix them; the caller
// names the type and field.
func parseTag(f reflect.StructField) (tag fieldTag, skip bool, err error) {
	raw, tagged := f.Tag.Lookup("plinth")
	if raw == "-" || (!f.IsExported() && !f.Anonymous) {
		return tag, true, nil
	}
	if err := checkTagSyntax(f.Tag); err != nil {
		return tag, false, err
	}
	parts := strings.Split(raw, ",")
	tag.name = strings.TrimSpace(parts[0])
	if tag.name == "" && !(f.Anonymous && !tagged) {
		tag.name = lowerCamel(f.Name)
	}
	if strings.HasPrefix(tag.name, "__") {
		return tag, false, fmt.Errorf("property name %q starts with \"__\", which the SDK reserves (see PrivateProperty); "+
			"rename it", tag.name)
	}
	if tag.name != "" && !isPropertyName(tag.name) {
		return tag, false, fmt.Errorf("property name %q in tag `plinth:%q` is not an identifier; "+
			"use letters, digits and underscores, starting with a letter or underscore", tag.name, raw)
	}
	for _, opt := range parts[1:] {
		if err := tag.setOption(strings.TrimSpace(opt)); err != nil {
			return tag, false, err
		}
	}
	tag.doc = f.Tag.Get("doc")
	tag.def, tag.hasDefault = f.Tag.Lookup("default")
	tag.validate = f.Tag.Get("validate")
	tag.deprecated = f.Tag.Get("deprecated")
	if !f.IsExported() && tag.name != "" && f.Type.Kind() != reflect.Struct {
		return tag, false, fmt.Errorf("the embedded field %s is unexported, so the SDK cannot set it as "+
			"property %q; export its type, or tag it `plinth:\"-\"`", f.Name, tag.name)
	}
	return tag, false, nil
}

// tagKeys are the struct tag keys the SDK reads.
var tagKeys = map[string]bool{"plinth": true, "doc": true, "default": true, "validate": true, "deprecated": true}

// checkTagSyntax reports a struct tag that does not follow the convention
// reflect.StructTag reads (key:"value" pairs separated by spaces), since
// reflect silently ignores the rest of such a tag, and a key the SDK reads
// given twice, since only the first counts.
func checkTagSyntax(tag reflect.StructTag) error {
	seen := map[string]bool{}
	for s := string(tag); ; {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return nil
		}
		i := 0
		for i < len(s) && s[i] > ' ' && s[i] != ':' && s[i] != '"' && s[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(s) || s[i] != ':' || s[i+1] != '"' {
			return fmt.Errorf("struct tag `%s` does not parse at %q; write each entry as key:\"value\" "+
				"(no space after the colon, the value in double quotes), entries separated by spaces", tag, s)
		}
		key := s[:i]
		s = s[i+1:]
		j := 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			return fmt.Errorf("struct tag `%s` does not parse: the value of %s is missing its closing double quote", tag, key)
		}
		if _, err := strconv.Unquote(s[:j+1]); err != nil {
			return fmt.Errorf("struct tag `%s` does not parse: the value of %s, %s, is not a valid Go string", tag, key, s[:j+1])
		}
		if tagKeys[key] && seen[key] {
			return fmt.Errorf("struct tag `%s` gives %s twice; only the first is read, so give it once", tag, key)
		}
		seen[key] = true
		s = s[j+1:]
	}
}

// isPropertyName reports whether name can name a property: an identifier
// of letters, digits and underscores that does not start with a digit.
func isPropertyName(name string) bool {
	for i, r := range name {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return name != ""
}

// tagOptions are the options a plinth tag may list after the name.
var tagOptions = []string{"optional", "secret", "replaceOnChanges", "computed", "writeOnly", "stable", "variadic", "set", "block"}

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
	case "writeOnly":
		t.writeOnly = true
	case "stable":
		t.stable = true
	case "variadic":
		t.variadic = true
	case "set":
		t.set = true
	case "block":
		t.block = true
	case "":
	case "required":
		return fmt.Errorf("unknown plinth tag option %q: properties are required unless tagged optional "+
			"or given a default, so remove it", opt)
	default:
		hint := ""
		if n := nearest(opt, tagOptions); n != "" {
			hint = fmt.Sprintf("; did you mean %q?", n)
		}
		return fmt.Errorf("unknown plinth tag option %q (known: %s)%s", opt, strings.Join(tagOptions, ", "), hint)
	}
	return nil
}

// checkWriteOnly reports a writeOnly option the SDK cannot honour: a
// write-only value is never recorded, so it has no default, is not
// computed, cannot replace the resource (there is nothing to compare it
// with) and is not an object (Terraform's protocol 5 has no write-only
// blocks).
func (t fieldTag) checkWriteOnly(c codec) error {
	if _, slice := c.(sliceCodec); t.variadic && !slice {
		return fmt.Errorf("variadic applies to a slice, the last parameter of a function, which takes any number of values")
	}
	if t.block && !isObjectOrObjects(c) {
		return fmt.Errorf("block applies to a nested struct, or a slice or map of them")
	}
	if t.set && !isScalarSlice(c) && !isStructSlice(c) {
		return fmt.Errorf("set applies to a slice of strings, numbers, booleans or structs; the SDK has no sets of collections")
	}
	if !t.writeOnly {
		return nil
	}
	switch {
	case t.hasDefault || t.computed || t.replaceOnChanges || t.stable:
		return fmt.Errorf("writeOnly cannot be combined with a default, computed, replaceOnChanges or stable: " +
			"a write-only value is never recorded, so there is nothing to default to or compare with")
	case hasStruct(c):
		return fmt.Errorf("writeOnly applies to values without nested objects; mark the nested fields writeOnly instead")
	}
	return nil
}

// isScalarSlice reports whether c is a slice (or pointer to one) of
// strings, numbers or booleans (see isStructSlice for the other sets).
func isScalarSlice(c codec) bool {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	s, ok := c.(sliceCodec)
	if !ok {
		return false
	}
	switch s.elem.(type) {
	case stringCodec, intCodec, floatCodec, boolCodec:
		return true
	}
	return false
}

// isStructSlice reports whether c is a slice (or pointer to one) of
// structs (or pointers to them).
func isStructSlice(c codec) bool {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	s, ok := c.(sliceCodec)
	if !ok {
		return false
	}
	e := s.elem
	if p, ok := e.(ptrCodec); ok {
		e = p.elem
	}
	_, ok = e.(*structCodec)
	return ok
}

// isObjectOrObjects reports whether c is a struct, or a slice or map of
// structs (pointers allowed).
func isObjectOrObjects(c codec) bool {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	switch e := c.(type) {
	case *structCodec:
		return true
	case sliceCodec:
		return isObjectOrObjects(e.elem)
	case mapCodec:
		return isObjectOrObjects(e.elem)
	}
	return false
}

// hasStruct reports whether c is or holds a nested object.
func hasStruct(c codec) bool {
	switch c := c.(type) {
	case *structCodec:
		return true
	case ptrCodec:
		return hasStruct(c.elem)
	case sliceCodec:
		return hasStruct(c.elem)
	case mapCodec:
		return hasStruct(c.elem)
	}
	return false
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
