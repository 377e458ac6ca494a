package plinth

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Keepers are arbitrary values whose change replaces a random resource,
// producing a new value.
type Keepers = map[string]resource.Value

// PetArgs are the inputs of plinth:random:Pet.
type PetArgs struct {
	Length    int     `plinth:"length,replaceOnChanges" default:"2" doc:"Number of words in the name."`
	Prefix    string  `plinth:"prefix,optional,replaceOnChanges" doc:"A word put before the generated ones."`
	Separator string  `plinth:"separator,replaceOnChanges" default:"-" doc:"What joins the words."`
	Keepers   Keepers `plinth:"keepers,optional,replaceOnChanges" doc:"Arbitrary values; changing any of them makes a new name."`
}

// PetState are the outputs of plinth:random:Pet.
type PetState struct {
	PetArgs
	Name string `plinth:"name" doc:"The generated name (also the resource's ID)."`
}

// Pet is plinth:random:Pet. Every input replaces it, so it has no Update;
// it lives only in state, so Delete does nothing.
type Pet struct{}

// Check requires a positive length.
func (Pet) Check(_ context.Context, op provider.CheckOp[PetArgs]) (provider.CheckResult[PetArgs], error) {
	var fs []provider.CheckFailure
	if op.News.Length < 1 && !unknown(op.Unknowns, "length") {
		fs = append(fs, provider.CheckFailure{Property: "length", Reason: "must be at least 1"})
	}
	return provider.CheckResult[PetArgs]{Inputs: op.News, Failures: fs}, nil
}

// Create picks a name.
func (Pet) Create(_ context.Context, op provider.CreateOp[PetArgs]) (provider.CreateResult[PetState], error) {
	name := petName(secureRand(), op.Inputs)
	return provider.CreateResult[PetState]{ID: name, Outputs: PetState{PetArgs: op.Inputs, Name: name}}, nil
}

// petName makes length words: adverbs, then an adjective, then an animal.
func petName(r *rand.Rand, a PetArgs) string {
	words := make([]string, 0, a.Length+1)
	if a.Prefix != "" {
		words = append(words, a.Prefix)
	}
	for i := 0; i < a.Length-2; i++ {
		words = append(words, pick(r, petAdverbs))
	}
	if a.Length >= 2 {
		words = append(words, pick(r, petAdjectives))
	}
	words = append(words, pick(r, petNames))
	return strings.Join(words, a.Separator)
}

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

// StringArgs are the inputs of plinth:random:String.
type StringArgs struct {
	Length  int     `plinth:"length,replaceOnChanges" doc:"Number of characters."`
	Special bool    `plinth:"special,replaceOnChanges" default:"true" doc:"Include special characters (!@#$%&*()-_=+[]{}<>:?)."`
	Upper   bool    `plinth:"upper,replaceOnChanges" default:"true" doc:"Include upper-case letters."`
	Lower   bool    `plinth:"lower,replaceOnChanges" default:"true" doc:"Include lower-case letters."`
	Numeric bool    `plinth:"numeric,replaceOnChanges" default:"true" doc:"Include digits."`
	Keepers Keepers `plinth:"keepers,optional,replaceOnChanges" doc:"Arbitrary values; changing any of them makes a new string."`
}

// StringState are the outputs of plinth:random:String.
type StringState struct {
	StringArgs
	Result string `plinth:"result" doc:"The generated string (also the resource's ID)."`
}

// String is plinth:random:String.
type String struct{}

const (
	upperChars   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerChars   = "abcdefghijklmnopqrstuvwxyz"
	numericChars = "0123456789"
	specialChars = "!@#$%&*()-_=+[]{}<>:?"
)

// Check requires a positive length and at least one character class.
func (String) Check(_ context.Context, op provider.CheckOp[StringArgs]) (provider.CheckResult[StringArgs], error) {
	var fs []provider.CheckFailure
	if op.News.Length < 1 && !unknown(op.Unknowns, "length") {
		fs = append(fs, provider.CheckFailure{Property: "length", Reason: "must be at least 1"})
	}
	if len(op.Unknowns) == 0 && charset(op.News) == "" {
		fs = append(fs, provider.CheckFailure{Reason: "upper, lower, numeric and special are all false: enable at least one character class"})
	}
	return provider.CheckResult[StringArgs]{Inputs: op.News, Failures: fs}, nil
}

func charset(a StringArgs) string {
	var b strings.Builder
	for _, c := range []struct {
		on    bool
		chars string
	}{{a.Upper, upperChars}, {a.Lower, lowerChars}, {a.Numeric, numericChars}, {a.Special, specialChars}} {
		if c.on {
			b.WriteString(c.chars)
		}
	}
	return b.String()
}

// Create draws the string from a cryptographically seeded generator.
func (String) Create(_ context.Context, op provider.CreateOp[StringArgs]) (provider.CreateResult[StringState], error) {
	r, chars := secureRand(), charset(op.Inputs)
	out := make([]byte, op.Inputs.Length)
	for i := range out {
		out[i] = chars[r.IntN(len(chars))]
	}
	s := string(out)
	return provider.CreateResult[StringState]{ID: s, Outputs: StringState{StringArgs: op.Inputs, Result: s}}, nil
}

// IntegerArgs are the inputs of plinth:random:Integer.
type IntegerArgs struct {
	Min     int64   `plinth:"min,replaceOnChanges" doc:"The smallest possible result."`
	Max     int64   `plinth:"max,replaceOnChanges" doc:"The largest possible result."`
	Seed    string  `plinth:"seed,optional,replaceOnChanges" doc:"With a seed, the same inputs always give the same result."`
	Keepers Keepers `plinth:"keepers,optional,replaceOnChanges" doc:"Arbitrary values; changing any of them makes a new integer."`
}

// IntegerState are the outputs of plinth:random:Integer.
type IntegerState struct {
	IntegerArgs
	Result int64 `plinth:"result" doc:"The generated integer (its decimal form is the resource's ID)."`
}

// Integer is plinth:random:Integer.
type Integer struct{}

// Check requires min <= max.
func (Integer) Check(_ context.Context, op provider.CheckOp[IntegerArgs]) (provider.CheckResult[IntegerArgs], error) {
	var fs []provider.CheckFailure
	if op.News.Min > op.News.Max && !unknown(op.Unknowns, "min") && !unknown(op.Unknowns, "max") {
		fs = append(fs, provider.CheckFailure{Property: "max", Reason: "must not be less than min (" + strconv.FormatInt(op.News.Min, 10) + ")"})
	}
	return provider.CheckResult[IntegerArgs]{Inputs: op.News, Failures: fs}, nil
}

// Create draws the integer, from the seed if there is one.
func (Integer) Create(_ context.Context, op provider.CreateOp[IntegerArgs]) (provider.CreateResult[IntegerState], error) {
	r := secureRand()
	if op.Inputs.Seed != "" {
		r = seededRand(op.Inputs.Seed)
	}
	n := randomBetween(r, op.Inputs.Min, op.Inputs.Max)
	return provider.CreateResult[IntegerState]{ID: strconv.FormatInt(n, 10), Outputs: IntegerState{IntegerArgs: op.Inputs, Result: n}}, nil
}

// randomBetween returns a uniform integer in [lo, hi], for any range of
// int64 (the span is computed in unsigned arithmetic so it cannot overflow).
func randomBetween(r *rand.Rand, lo, hi int64) int64 {
	span := uint64(hi) - uint64(lo)
	if span == math.MaxUint64 {
		return int64(r.Uint64())
	}
	return lo + int64(r.Uint64N(span+1))
}

// secureRand returns a generator seeded from the operating system.
func secureRand() *rand.Rand {
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // crypto/rand.Read never fails on supported platforms
	return rand.New(rand.NewChaCha8(seed))
}

// seededRand returns a generator whose sequence depends only on seed.
func seededRand(seed string) *rand.Rand {
	return rand.New(rand.NewChaCha8(sha256.Sum256([]byte(seed))))
}

// randomID returns a random hex identifier for resources without a natural
// one.
func randomID() string {
	var b [8]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// unknown reports whether the property is among an op's unknowns.
func unknown(unknowns []string, name string) bool {
	for _, u := range unknowns {
		if u == name {
			return true
		}
	}
	return false
}
