package resource

import (
	"fmt"
	"strings"
	"unicode"
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

// ParseURN validates s against the URN grammar.
func ParseURN(s string) (URN, error) {
	bad := func(part, format string, args ...any) (URN, error) {
		return "", &URNError{URN: s, Part: part, Reason: fmt.Sprintf(format, args...)}
	}
	if !strings.HasPrefix(s, urnPrefix) {
		return bad("prefix", "must start with %q", urnPrefix)
	}
	parts := strings.SplitN(s[len(urnPrefix):], "::", 4)
	if len(parts) < 4 {
		return bad("structure", "want urn:pulumi:<stack>::<project>::<type>::<name> with four parts separated by \"::\", found %d", len(parts))
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
	for _, t := range strings.Split(q, "$") {
		if err := ValidateType(t); err != nil {
			return err
		}
	}
	return nil
}

// ValidateType checks a type token of the form package:[module:]Type.
// Beyond the guide's identifiers it accepts what real packages use:
// hyphens in package names ("azure-native") and modules with "/"-separated
// segments ("s3/bucket").
func ValidateType(t string) error {
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
func (u URN) parts() [4]string {
	var p [4]string
	s, ok := strings.CutPrefix(string(u), urnPrefix)
	if !ok {
		return p
	}
	copy(p[:], strings.SplitN(s, "::", 4))
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
