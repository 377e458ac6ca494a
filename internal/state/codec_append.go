package state

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// The journal and the snapshot encode every resource they store. Going
// through resourceJSON and encoding/json cost a struct, a RawMessage per
// object and a reflective walk that re-validates each RawMessage: at
// 100,000 resources about a tenth of a create's CPU and much of its
// garbage. appendResource writes the same bytes straight into one buffer;
// TestAppendResourceMatchesEncodingJSON holds it to encoding/json's output
// for resourceJSON. Fields that are rare (maps, provisioners, hooks) still
// go through encoding/json, field by field.

// appendResource appends the stored form of r: the bytes encoding/json
// (without HTML escaping) gives enc.resource(r).
func (enc *valueEncoder) appendResource(b []byte, r *Resource) ([]byte, error) {
	id, sealed, err := enc.id(r)
	if err != nil {
		return nil, fmt.Errorf("resource %s: id: %w", r.URN, err)
	}
	b = append(b, `{"urn":`...)
	b = appendJSONString(b, string(r.URN))
	b = append(b, `,"type":`...)
	b = appendJSONString(b, r.Type)
	b = appendBoolField(b, "custom", r.Custom)
	b = appendStringField(b, "id", id)
	if len(sealed) > 0 {
		b = append(b, `,"sealedId":`...)
		b = append(b, sealed...)
	}
	if b, err = enc.appendObjectField(b, "inputs", r.Inputs); err != nil {
		return nil, fmt.Errorf("resource %s: inputs: %w", r.URN, err)
	}
	if b, err = enc.appendObjectField(b, "outputs", r.Outputs); err != nil {
		return nil, fmt.Errorf("resource %s: outputs: %w", r.URN, err)
	}
	b = appendStringField(b, "parent", string(r.Parent))
	b = appendStringField(b, "provider", r.Provider)
	b = appendStringsField(b, "dependencies", r.Dependencies)
	if b, err = appendMarshalledField(b, "propertyDependencies", len(r.PropertyDependencies) > 0, r.PropertyDependencies); err != nil {
		return nil, fmt.Errorf("resource %s: %w", r.URN, err)
	}
	b = appendStringsField(b, "dependencyGroups", r.DependencyGroups)
	b = appendBoolField(b, "protect", r.Protect)
	b = appendBoolField(b, "retainOnDelete", r.RetainOnDelete)
	b = appendBoolField(b, "deleteBeforeReplace", r.DeleteBeforeReplace)
	b = appendStringsField(b, "ignoreChanges", r.IgnoreChanges)
	b = appendStringsField(b, "replaceOnChanges", r.ReplaceOnChanges)
	if t := timeoutsOf(r.CustomTimeouts); t != nil {
		b = append(b, `,"customTimeouts":{`...)
		b = appendTimeouts(b, t)
		b = append(b, '}')
	}
	b = appendBoolField(b, "external", r.External)
	b = appendStringField(b, "deletedWith", string(r.DeletedWith))
	b = appendStringsField(b, "additionalSecretOutputs", r.AdditionalSecretOutputs)
	b = appendBoolField(b, "delete", r.Delete)
	b = appendBoolField(b, "missing", r.Missing)
	b = appendBoolField(b, "tainted", r.Tainted)
	b = appendStringsField(b, "initErrors", r.InitErrors)
	if len(r.Private) > 0 {
		b = append(b, `,"private":"`...)
		b = base64.StdEncoding.AppendEncode(b, r.Private)
		b = append(b, '"')
	}
	if len(r.DestroyProvisioners) > 0 {
		provs, err := enc.provisioners(r.DestroyProvisioners)
		if err != nil {
			return nil, fmt.Errorf("resource %s: destroy provisioners: %w", r.URN, err)
		}
		if b, err = appendMarshalledField(b, "destroyProvisioners", true, provs); err != nil {
			return nil, fmt.Errorf("resource %s: %w", r.URN, err)
		}
	}
	if h := deleteHooksOf(r.DeleteHooks); h != nil {
		if b, err = appendMarshalledField(b, "deleteHooks", true, h); err != nil {
			return nil, fmt.Errorf("resource %s: %w", r.URN, err)
		}
	}
	if b, err = appendTimeField(b, "created", r.Created); err != nil {
		return nil, fmt.Errorf("resource %s: %w", r.URN, err)
	}
	if b, err = appendTimeField(b, "modified", r.Modified); err != nil {
		return nil, fmt.Errorf("resource %s: %w", r.URN, err)
	}
	if b, err = appendMarshalledField(b, "inputTypes", len(r.InputTypes) > 0, r.InputTypes); err != nil {
		return nil, fmt.Errorf("resource %s: %w", r.URN, err)
	}
	return append(b, '}'), nil
}

// appendEntryBody appends the stored form of e without its Seq: the
// bytes encoding/json gives its entryJSON, less the leading `"seq":0,`.
func appendEntryBody(b []byte, e *Entry, c Crypter) ([]byte, error) {
	enc := &valueEncoder{crypter: c}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, FormatVersion, 10)
	if e.Step != 0 {
		b = append(b, `,"step":`...)
		b = strconv.AppendUint(b, e.Step, 10)
	}
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, e.Kind.String())
	b = append(b, `,"op":`...)
	b = appendJSONString(b, string(e.Op))
	var err error
	if e.Old != nil {
		b = append(b, `,"old":`...)
		if b, err = enc.appendResource(b, e.Old); err != nil {
			return nil, fmt.Errorf("journal entry for %s %s: old state: %w", e.Kind, e.Op, err)
		}
	}
	if e.New != nil {
		if err := checkRecordable(e); err != nil {
			return nil, fmt.Errorf("journal entry for %s %s: refused, since the state loader would not read it back: %w", e.Kind, e.Op, err)
		}
		b = append(b, `,"new":`...)
		if b, err = enc.appendResource(b, e.New); err != nil {
			return nil, fmt.Errorf("journal entry for %s %s: new state: %w", e.Kind, e.Op, err)
		}
	}
	if b, err = enc.appendObjectField(b, "outputs", e.Outputs); err != nil {
		return nil, fmt.Errorf("journal entry for %s %s: stack outputs: %w", e.Kind, e.Op, err)
	}
	if b, err = appendMarshalledField(b, "outputTypes", len(e.OutputTypes) > 0, e.OutputTypes); err != nil {
		return nil, err
	}
	if b, err = appendTimeField(b, "time", e.Time); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendObjectField appends `,"name":` and o, or nothing for a nil o (an
// empty object is stored, as the RawMessage of rawObject was).
func (enc *valueEncoder) appendObjectField(b []byte, name string, o resource.Object) ([]byte, error) {
	if o == nil {
		return b, nil
	}
	b = appendFieldName(b, name)
	return enc.object(b, o)
}

func appendFieldName(b []byte, name string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// appendBoolField appends an omitempty bool.
func appendBoolField(b []byte, name string, v bool) []byte {
	if !v {
		return b
	}
	return append(appendFieldName(b, name), "true"...)
}

// appendStringField appends an omitempty string.
func appendStringField(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	return appendJSONString(appendFieldName(b, name), s)
}

// appendStringsField appends an omitempty slice of strings.
func appendStringsField[S ~string](b []byte, name string, ss []S) []byte {
	if len(ss) == 0 {
		return b
	}
	b = append(appendFieldName(b, name), '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, string(s))
	}
	return append(b, ']')
}

func appendTimeouts(b []byte, t *timeoutsJSON) []byte {
	start := len(b)
	for _, f := range []struct{ name, v string }{{"create", t.Create}, {"update", t.Update}, {"delete", t.Delete}} {
		if f.v == "" {
			continue
		}
		if len(b) > start {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.name...)
		b = append(b, '"', ':')
		b = appendJSONString(b, f.v)
	}
	return b
}

// appendTimeField appends an omitempty time (a zero time is omitted, as
// timePtr made it nil), as time.Time's MarshalJSON does.
func appendTimeField(b []byte, name string, t time.Time) ([]byte, error) {
	if t.IsZero() {
		return b, nil
	}
	if y := t.Year(); y < 0 || y > 9999 {
		return appendMarshalledField(b, name, true, t) // encoding/json's error
	}
	b = append(appendFieldName(b, name), '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendMarshalledField appends `,"name":` and v as encoding/json encodes
// it (without HTML escaping), when present.
func appendMarshalledField(b []byte, name string, present bool, v any) ([]byte, error) {
	if !present {
		return b, nil
	}
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding state: %s: %w", name, err)
	}
	return append(appendFieldName(b, name), bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// appendJSONString appends s as encoding/json does with HTML escaping
// off. It differs from appendString (the value codec's, kept as it is so
// that stored values do not change) only in writing \b and \f short.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return appendSlowJSONString(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendSlowJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < utf8.RuneSelf && (c < 0x20 || c == '"' || c == '\\'):
			b = append(b, s[start:i]...)
			switch c {
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			default:
				b = appendEscape(b, c)
			}
			i++
			start = i
			continue
		case c < utf8.RuneSelf:
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xf])
			}
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
