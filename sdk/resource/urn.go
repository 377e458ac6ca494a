package resource

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URN identifies a resource within a stack:
//
//	urn:pulumi:<stack>::<project>::[<parent type>$]<package>:[<module>:]<Type>::<name>
//
// The form is Pulumi's, kept exactly because Pulumi-protocol providers parse
// it. A parent type may itself be qualified, so nested components read
// a:b:C$d:e:F$g:h:I, as Pulumi writes them.
type URN string

const urnPrefix = "urn:pulumi:"

// NewURN builds a URN. parentType is the parent's qualified type, or "" for
// a resource without a component parent.
func NewURN(stack, project, parentType, typ, name string) URN {
	qualified := typ
	if parentType != "" {
		qualified = parentType + "$" + typ
	}
	return URN(urnPrefix + stack + "::" + project + "::" + qualified + "::" + name)
}

// URNError says which part of a URN is malformed.
type URNError struct {
	URN    string
	Part   string // "prefix", "stack", "project", "type", "name"
	Reason string
}

func (e *URNError) Error() string {
	return fmt.Sprintf("invalid URN %q: %s: %s", e.URN, e.Part, e.Reason)
}

// ParseURN validates s against the URN grammar. It checks what plinth
// needs to read a URN back unchanged and no more, as Pulumi does: a stack
// and project that are not empty, a qualified type whose every part
// passes ValidateType, and a name that is not empty. The name is the rest
// of the URN, so it may itself hold "::". Every part must be valid UTF-8
// without NUL characters: JSON cannot carry anything else unchanged, and
// PostgreSQL cannot store a NUL in text.
func ParseURN(s string) (URN, error) {
	bad := func(part, format string, args ...any) (URN, error) {
		return "", &URNError{URN: s, Part: part, Reason: fmt.Sprintf(format, args...)}
	}
	if !strings.HasPrefix(s, urnPrefix) {
		return bad("prefix", "must start with %q", urnPrefix)
	}
	// The parts as strings.SplitN(rest, "::", 4) would give them, without
	// the slice it allocates: a URN is parsed for every resource a
	// state holds and every one a program registers.
	if n := min(strings.Count(s[len(urnPrefix):], "::"), 3) + 1; n < 4 {
		return bad("structure", "want urn:pulumi:<stack>::<project>::<type>::<name> with four parts separated by \"::\", found %d", n)
	}
	parts := URN(s).parts()
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return bad("structure", "it is not valid UTF-8 or holds a NUL character")
	}
	if parts[0] == "" {
		return bad("stack", "the stack name is empty")
	}
	if parts[1] == "" {
		return bad("project", "the project name is empty")
	}
	if err := ValidateQualifiedType(parts[2]); err != nil {
		return bad("type", "%v", err)
	}
	if parts[3] == "" {
		return bad("name", "the resource name is empty")
	}
	return URN(s), nil
}

// ValidateQualifiedType checks a type token, optionally prefixed with parent
// types separated by "$".
func ValidateQualifiedType(q string) error {
	for { // each of strings.Split(q, "$"), without the slice
		t, rest, more := strings.Cut(q, "$")
		if err := ValidateType(t); err != nil {
			return err
		}
		if !more {
			return nil
		}
		q = rest
	}
}

// TypeError says why a type token cannot be a resource's type.
type TypeError struct {
	Type   string
	Reason string
}

func (e *TypeError) Error() string { return fmt.Sprintf("type %q %s", e.Type, e.Reason) }

// ValidateType checks a resource's type token as a URN carries it: any
// type Pulumi's engine accepts for a component resource ("component",
// my:module:ComponentSixParent-v10, pulumi:providers:azure-native), except
// what would make the URN ambiguous or not survive storage. So a type
// must not be empty, must not hold "::" (it separates the URN's parts),
// "$" (it separates a parent's type from its child's) or a control
// character, and must neither start nor end with ":" (it would run into
// the "::" around it). A custom resource's type must also pass
// ValidateCustomType. The state loader and the engine's admission of a
// registration both apply these rules, through state.CheckIdentity.
func ValidateType(t string) error {
	bad := func(reason string) error { return &TypeError{Type: t, Reason: reason} }
	switch {
	case t == "":
		return bad("is empty")
	case !utf8.ValidString(t):
		return bad("is not valid UTF-8")
	case strings.Contains(t, "::"):
		return bad(`holds "::", which separates the parts of a URN`)
	case strings.Contains(t, "$"):
		return bad(`holds "$", which separates a parent's type from its child's in a URN`)
	case strings.HasPrefix(t, ":") || strings.HasSuffix(t, ":"):
		return bad(`starts or ends with ":", which would run into the "::" around it in a URN`)
	case strings.IndexFunc(t, unicode.IsControl) >= 0:
		return bad("holds a control character")
	}
	return nil
}

// ValidateCustomType checks the type token of a resource a provider
// manages (a custom resource, a provider resource, a remote component):
// ValidateType's rules, and a package before the first ":" (for a
// provider resource, pulumi:providers:PACKAGE, the package after the
// prefix) made of letters, digits, '_' and '-' only, since the package
// names the provider plugin to start (pulumi-resource-azure-native).
// Pulumi's engine asks for package:module:Type; plinth also reads
// package:Type, as it always has.
func ValidateCustomType(t string) error {
	if err := ValidateType(t); err != nil {
		return err
	}
	pkg, _, found := strings.Cut(t, ":")
	if !found {
		return &TypeError{Type: t, Reason: "names no package: a resource a provider manages has a type package:module:Type, such as aws:s3/bucket:Bucket"}
	}
	if rest, ok := strings.CutPrefix(t, providerTypePrefix); ok {
		pkg = rest
	}
	if !isPackage(pkg) {
		return &TypeError{Type: t, Reason: fmt.Sprintf("has package %q, which may hold only letters, digits, '_' and '-': it names the provider plugin", pkg)}
	}
	return nil
}

// providerTypePrefix starts the type of every provider resource.
const providerTypePrefix = "pulumi:providers:"

// isPackage reports whether s can name a provider package.
func isPackage(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' {
			return false
		}
	}
	return s != ""
}

// ValidateSchemaToken checks a type token a provider declares in its
// schema, package:[module:]Type: stricter than what the engine admits
// (ValidateType), so that every token an SDK provider declares can be
// written in every front end. Beyond the guide's identifiers it accepts
// what real packages use: hyphens in package names ("azure-native") and
// modules with "/"-separated segments ("s3/bucket").
func ValidateSchemaToken(t string) error {
	parts := strings.Split(t, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return fmt.Errorf("type %q is not of the form package:[module:]Type", t)
	}
	if !isName(parts[0], "-") {
		return fmt.Errorf("type %q: package %q must start with a letter and hold only letters, digits, '_' and '-'", t, parts[0])
	}
	if len(parts) == 3 && !isName(parts[1], "-./") {
		return fmt.Errorf("type %q: module %q must start with a letter and hold only letters, digits, '_', '-', '.' and '/'", t, parts[1])
	}
	if name := parts[len(parts)-1]; !isName(name, "") {
		return fmt.Errorf("type %q: type name %q must start with a letter and hold only letters, digits and underscores", t, name)
	}
	return nil
}

// isName reports whether s starts with a letter and holds only letters,
// digits, '_' and the extra characters allowed.
func isName(s, extra string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := unicode.IsLetter(r)
		if i == 0 && !letter {
			return false
		}
		if !letter && !unicode.IsDigit(r) && r != '_' && !strings.ContainsRune(extra, r) {
			return false
		}
	}
	return true
}

// IsValid reports whether u follows the URN grammar.
func (u URN) IsValid() bool {
	_, err := ParseURN(string(u))
	return err == nil
}

// parts splits a URN known to be valid; a malformed URN yields empty parts.
// It splits as strings.SplitN(s, "::", 4) would, without the slice: the
// plugin path asks for a URN's name and type on every call.
func (u URN) parts() [4]string {
	var p [4]string
	s, ok := strings.CutPrefix(string(u), urnPrefix)
	if !ok {
		return p
	}
	for i := range 3 {
		before, after, found := strings.Cut(s, "::")
		if !found {
			p[i] = s
			return p
		}
		p[i], s = before, after
	}
	p[3] = s
	return p
}

// Stack returns the stack name.
func (u URN) Stack() string { return u.parts()[0] }

// Project returns the project name.
func (u URN) Project() string { return u.parts()[1] }

// QualifiedType returns the type with any parent types, e.g. "a:b:C$d:e:F".
func (u URN) QualifiedType() string { return u.parts()[2] }

// Type returns the resource's own type, without parent types.
func (u URN) Type() string {
	q := u.QualifiedType()
	return q[strings.LastIndex(q, "$")+1:]
}

// ParentType returns the qualified type of the parent, or "".
func (u URN) ParentType() string {
	q := u.QualifiedType()
	if i := strings.LastIndex(q, "$"); i >= 0 {
		return q[:i]
	}
	return ""
}

// Name returns the resource's name.
func (u URN) Name() string { return u.parts()[3] }

// Package returns the package of the resource's own type.
func (u URN) Package() string {
	t := u.Type()
	return t[:max(strings.Index(t, ":"), 0)]
}
