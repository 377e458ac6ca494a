package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"

	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

func encodingTable() map[string]function.Function {
	return map[string]function.Function{
		"base64decode":     base64DecodeFunc,
		"base64encode":     stringFunc("str", "Applies Base64 encoding to a string.", base64Encode),
		"base64gzip":       stringFunc("str", "Compresses a string with gzip and then encodes the result in Base64 encoding.", base64Gzip),
		"urlencode":        stringFunc("str", "Applies URL encoding to a given string.", url.QueryEscape),
		"textencodebase64": textEncodeBase64Func,
		"textdecodebase64": textDecodeBase64Func,
		"yamldecode":       ctyyaml.YAMLDecodeFunc,
		"yamlencode":       ctyyaml.YAMLEncodeFunc,
	}
}

// stringFunc builds a function of one string returning f of it.
func stringFunc(param, desc string, f func(string) string) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params:      []function.Parameter{{Name: param, Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(f(args[0].AsString())), nil
		},
	})
}

func base64Encode(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func base64Gzip(s string) string {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	_, _ = gz.Write([]byte(s)) // writes to a bytes.Buffer cannot fail
	_ = gz.Flush()
	_ = gz.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

var base64DecodeFunc = function.New(&function.Spec{
	Description: "Takes a string containing a Base64 character sequence and returns the original string.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		s := str.AsString()
		dec, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redact(s, marks))
		}
		if !utf8.Valid(dec) {
			return cty.UnknownVal(cty.String), errors.New("the result of decoding the provided string is not valid UTF-8")
		}
		return cty.StringVal(string(dec)).WithMarks(marks), nil
	},
})

var textEncodeBase64Func = function.New(&function.Spec{
	Description: "Encodes the given string into the named character encoding and then Base64-encodes the result.",
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		out, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", name)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(out)), nil
	},
})

var textDecodeBase64Func = function.New(&function.Spec{
	Description: "Decodes a string that was previously Base64-encoded, and then interprets the result as characters in the named character encoding.",
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			if off, ok := err.(base64.CorruptInputError); ok {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value is has an invalid base64 symbol at offset %d", int(off))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %w", err)
		}
		out, err := enc.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", name)
		}
		return cty.StringVal(string(out)), nil
	},
})

// ianaEncoding looks up an IANA character encoding by name or alias and
// returns it with its canonical name.
func ianaEncoding(alias string) (encoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(alias)
	if err != nil || enc == nil {
		return nil, "", function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this Terraform version", alias)
	}
	name, err := ianaindex.IANA.Name(enc)
	if err != nil {
		name = alias
	}
	return enc, name, nil
}
