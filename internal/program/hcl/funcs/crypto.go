package funcs

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"

	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

func cryptoTable() map[string]function.Function {
	return map[string]function.Function{
		"md5":          hashFunc(md5.New, hex.EncodeToString),
		"sha1":         hashFunc(sha1.New, hex.EncodeToString),
		"sha256":       hashFunc(sha256.New, hex.EncodeToString),
		"sha512":       hashFunc(sha512.New, hex.EncodeToString),
		"base64sha256": hashFunc(sha256.New, base64.StdEncoding.EncodeToString),
		"base64sha512": hashFunc(sha512.New, base64.StdEncoding.EncodeToString),
		"bcrypt":       bcryptFunc,
		"rsadecrypt":   rsaDecryptFunc,
		"uuid":         uuidFunc,
		"uuidv5":       uuidV5Func,
	}
}

// hashFunc builds a function of one string returning its digest, encoded.
func hashFunc(h func() hash.Hash, enc func([]byte) string) function.Function {
	return stringFunc("str", "Computes a hash of the given string.", func(s string) string {
		return enc(digest(h, []byte(s)))
	})
}

func digest(h func() hash.Hash, b []byte) []byte {
	d := h()
	d.Write(b)
	return d.Sum(nil)
}

var bcryptFunc = function.New(&function.Spec{
	Description: "Computes a hash of the given string using the Blowfish cipher, returning a string in the Modular Crypt Format usually expected in the shadow password file on many Unix systems.",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "cost", Type: cty.Number},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		cost := 10
		if len(args) > 1 {
			if err := gocty.FromCtyValue(args[1], &cost); err != nil {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", err)
			}
		}
		if len(args) > 2 {
			return cty.UnknownVal(cty.String), fmt.Errorf("bcrypt() takes no more than two arguments")
		}
		if cost > bcrypt.MaxCost {
			// The wording of the x/crypto Terraform 1.11 is built with.
			return cty.UnknownVal(cty.String), fmt.Errorf("error occured generating password crypto/bcrypt: cost %d is outside allowed range (%d,%d)", cost, bcrypt.MinCost, bcrypt.MaxCost)
		}
		out, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("error occured generating password %s", err.Error())
		}
		return cty.StringVal(string(out)), nil
	},
})

var rsaDecryptFunc = function.New(&function.Spec{
	Description: "Decrypts an RSA-encrypted ciphertext, returning the corresponding cleartext.",
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s, key := args[0].AsString(), args[1].AsString()
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", s)
		}
		raw, err := ssh.ParseRawPrivateKey([]byte(key))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "%s", privateKeyError(err))
		}
		priv, ok := raw.(*rsa.PrivateKey)
		if !ok {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(1, "invalid private key type %T", raw)
		}
		//lint:ignore SA1019 rsadecrypt is defined as PKCS #1 v1.5 decryption, as in Terraform.
		out, err := rsa.DecryptPKCS1v15(nil, priv, b)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %s", err)
		}
		return cty.StringVal(string(out)), nil
	},
})

// privateKeyError words a key parsing failure without echoing the key.
func privateKeyError(err error) string {
	return fmt.Sprintf("invalid private key: %s", err)
}

var uuidFunc = function.New(&function.Spec{
	Description: "Generates a unique identifier string.",
	Type:        function.StaticReturnType(cty.String),
	Impl: func(_ []cty.Value, _ cty.Type) (cty.Value, error) {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to read random bytes for uuid: %w", err)
		}
		return cty.StringVal(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])), nil
	},
})

var uuidV5Func = function.New(&function.Spec{
	Description: "Generates a name-based UUID, as described in RFC 4122 section 4.3, also known as a \"version 5\" UUID.",
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ns uuid.UUID
		switch args[0].AsString() {
		case "dns":
			ns = uuid.NameSpaceDNS
		case "url":
			ns = uuid.NameSpaceURL
		case "oid":
			ns = uuid.NameSpaceOID
		case "x500":
			ns = uuid.NameSpaceX500
		default:
			var err error
			if ns, err = uuid.Parse(args[0].AsString()); err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("uuidv5() doesn't support namespace %s (%v)", args[0].AsString(), err)
			}
		}
		return cty.StringVal(uuid.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})
