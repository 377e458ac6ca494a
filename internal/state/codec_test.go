package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/plinth-iac/plinth/sdk/resource"
	"pgregory.net/rapid"
)

func TestValueRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(genValue(3)).Draw(t, "object")
		c := &fakeCrypter{}
		raw, err := (&valueEncoder{crypter: c}).object(nil, o)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		got, err := decodeObject(raw, c)
		if err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		if diff := cmp.Diff(o, got, valueCmp, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip of %s (-want +got):\n%s", raw, diff)
		}
		if !resource.NewObject(o).Equal(resource.NewObject(got)) {
			t.Fatalf("round trip of %s is not Equal", raw)
		}
	})
}

func TestNumbersKeepEveryDigit(t *testing.T) {
	tests := []string{
		"12345678901234567890",
		"-98765432109876543210987654321",
		"3.14159265358979323846264338327950288",
		"1e400",
		"0.30000000000000000001",
		"9007199254740993",
	}
	for _, lit := range tests {
		t.Run(lit, func(t *testing.T) {
			v, err := resource.ParseNumber(lit)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := (&valueEncoder{}).value(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != lit {
				t.Errorf("encoded %s, want %s", raw, lit)
			}
			got, err := decodeValue(raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.NumberLiteral() != lit || !got.Equal(v) {
				t.Errorf("decoded %s, want %s", got.NumberLiteral(), lit)
			}
		})
	}
}

// A decimal that is exactly how a double prints decodes as that double, so
// that state read back compares equal to the double a provider returns.
func TestShortestDoubleDecodesAsDouble(t *testing.T) {
	for _, f := range []float64{0.1, 1.5, 1e21, -0, 123456789, 2.5e-300} {
		raw, err := (&valueEncoder{}).value(nil, resource.NewNumber(f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeValue(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(resource.NewNumber(f)) {
			t.Errorf("%s decoded as %s, want the double %v", raw, got.NumberLiteral(), f)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	unknownRef := resource.Unknown()
	tests := map[string]struct {
		o       resource.Object
		crypter Crypter
		want    string
	}{
		"unknown": {
			o:    resource.Object{"a": resource.NewObject(resource.Object{"b": resource.NewArray(resource.Null(), resource.Unknown())})},
			want: "property a.b[1]: the value is unknown",
		},
		"unknown inside a secret": {
			o:       resource.Object{"pw": resource.MakeSecret(resource.Unknown())},
			crypter: &fakeCrypter{},
			want:    "property pw: the value is unknown",
		},
		"unknown reference ID": {
			o:    resource.Object{"r": resource.NewReference(resource.Reference{URN: urn("x"), ID: &unknownRef})},
			want: "property r: the ID of the reference to urn:pulumi:dev::proj::plinth:test:Thing::x: the value is unknown",
		},
		"secret without a crypter": {
			o:    resource.Object{"x": resource.NewArray(resource.MakeSecret(resource.NewString("pw")))},
			want: "property x[0]: the value is secret and no secrets key is configured",
		},
		"reserved key": {
			o:    resource.Object{"m": resource.NewObject(resource.Object{sigKey: resource.NewString("x")})},
			want: `property m["` + sigKey + `"]: the property name is reserved`,
		},
		"not finite": {
			o:    resource.Object{"n": resource.NewNumber(nan())},
			want: "property n: the number NaN is not finite",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := (&valueEncoder{crypter: tc.crypter}).object(nil, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

func TestEncodeSnapshotNamesResourceOfUnknown(t *testing.T) {
	r := thing("a", "a-1")
	r.Outputs = resource.Object{"ip": resource.Unknown()}
	_, err := EncodeSnapshot(&Snapshot{Resources: []*Resource{prov("test"), r}}, 0, nil)
	want := "resource " + string(r.URN) + ": outputs: property ip: the value is unknown"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want it to contain %q", err, want)
	}
	if !errors.Is(err, ErrUnknownValue) {
		t.Errorf("error does not wrap ErrUnknownValue")
	}
}

func TestDecodeValueRejects(t *testing.T) {
	tests := map[string]string{
		`{"a":[1,2,}`:                            "offset",
		`{"` + sigKey + `":"nope"}`:              "unknown kind of special value",
		`{"` + sigKey + `":"` + sigSecret + `"}`: "a secret has no ciphertext",
		`{"x":{"` + sigKey + `":"` + sigArchive + `","assets":{"m":1}}}`: `property x.assets.m: an archive member must be an asset or archive`,
		`{"a":"\u0001` + "\x01" + `"}`:                                   "control character",
		`[1] 2`:                                                          "unexpected data",
		`{"a" 1}`:                                                        "want ':'",
		`01`:                                                             "invalid number",
		`-`:                                                              "invalid number",
		`tru`:                                                            "invalid character",
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			_, err := decodeValue([]byte(in), &fakeCrypter{})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error = %v, want it to contain %q", err, want)
			}
		})
	}
}

func TestDecodeDeepNesting(t *testing.T) {
	in := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if _, err := decodeValue([]byte(in), nil); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Fatalf("error = %v, want a nesting error", err)
	}
}

// fullResource sets every field, so the round trip covers them all.
func fullResource() *Resource {
	r := thing("full", "f-1", providerURN("test"))
	r.Parent = urn("parent")
	r.PropertyDependencies = map[string][]resource.URN{"name": {urn("dep")}}
	r.Protect, r.RetainOnDelete, r.DeleteBeforeReplace, r.Delete, r.Tainted = true, true, true, true, true
	r.IgnoreChanges = []string{"tags", `a["b.c"]`}
	r.ReplaceOnChanges = []string{"name"}
	r.CustomTimeouts = CustomTimeouts{Create: time.Minute, Delete: 90 * time.Second}
	r.InitErrors = []string{"boot failed"}
	r.Private = []byte{0, 1, 2, 255}
	r.InputTypes = map[string]json.RawMessage{"tags": json.RawMessage(`["map","string"]`)}
	r.External, r.DeletedWith, r.AdditionalSecretOutputs = true, urn("owner"), []string{"pw"}
	r.Modified = t0.Add(time.Hour)
	r.Outputs["pw"] = resource.MakeSecret(resource.NewString("hunter2"))
	return r
}

var resourceCmp = cmp.Options{valueCmp, cmpopts.EquateEmpty()}

func TestSnapshotRoundTrip(t *testing.T) {
	s := &Snapshot{
		Resources: []*Resource{prov("test"), thing("a", "a-1"), fullResource()},
		Outputs:   resource.Object{"url": resource.NewString("https://x"), "key": resource.MakeSecret(resource.NewNumber(7))},
		// The types a Terraform configuration gave its outputs.
		OutputTypes: map[string]json.RawMessage{"url": json.RawMessage(`"string"`), "key": json.RawMessage(`"number"`)},
		Pending:     []PendingOperation{{Op: OpCreate, Resource: thing("b", ""), Started: t0}},
	}
	c := &fakeCrypter{}
	data, err := EncodeSnapshot(s, 42, c)
	if err != nil {
		t.Fatal(err)
	}
	got, seq, err := DecodeSnapshot(data, c)
	if err != nil {
		t.Fatal(err)
	}
	if seq != 42 {
		t.Errorf("seq = %d, want 42", seq)
	}
	if diff := cmp.Diff(s, got, resourceCmp); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if c.sealed != 2 || c.opened != 2 {
		t.Errorf("sealed %d and opened %d secrets, want 2 and 2", c.sealed, c.opened)
	}
}

func TestEntryRoundTrip(t *testing.T) {
	tests := map[string]*Entry{
		"begin create": {Seq: 1, Step: 1, Kind: Begin, Op: OpCreate, New: thing("a", ""), Time: t0},
		"end replace":  {Seq: 99, Step: 12, Kind: End, Op: OpReplace, Old: thing("a", "a-1"), New: fullResource(), Time: t0},
		"fail":         {Seq: 3, Step: 2, Kind: Fail, Op: OpDelete, Old: thing("a", "a-1")},
		"outputs":      {Seq: 4, Kind: Write, Op: OpOutputs, Outputs: resource.Object{"x": resource.NewBool(true)}},
		"typed outputs": {Seq: 5, Kind: Write, Op: OpOutputs, Outputs: resource.Object{"x": resource.NewArray(resource.NewBool(true))},
			OutputTypes: map[string]json.RawMessage{"x": json.RawMessage(`["list","bool"]`)}},
	}
	for name, e := range tests {
		t.Run(name, func(t *testing.T) {
			c := &fakeCrypter{}
			data, err := EncodeEntry(e, c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), fmt.Sprintf(`{"seq":%d,"v":1,`, e.Seq)) {
				t.Errorf("encoded entry starts %.30s", data)
			}
			got, err := DecodeEntry(data, c)
			if err != nil {
				t.Fatalf("decode %s: %v", data, err)
			}
			if diff := cmp.Diff(e, got, resourceCmp); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeSnapshotErrors(t *testing.T) {
	good, err := EncodeSnapshot(&Snapshot{Resources: []*Resource{prov("test"), thing("a", "a-1")}}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		data string
		want string
	}{
		"empty":        {"", "it is empty"},
		"truncated":    {string(good[:len(good)/2]), "it ends early"},
		"garbage":      {`{"version":1,"resources":[}]}`, "not valid JSON at byte"},
		"wrong type":   {`{"version":1,"resources":{}}`, `field "resources"`},
		"no version":   {`{"resources":[]}`, "no format version"},
		"newer":        {`{"version":7,"resources":[]}`, "newer plinth (format version 7"},
		"bad value":    {`{"version":1,"resources":[{"urn":"u","inputs":{"a":{"` + sigKey + `":"zzz"}}}]}`, "resource 0: u: inputs: property a: unknown kind of special value"},
		"bad timeouts": {`{"version":1,"resources":[{"urn":"u","customTimeouts":{"create":"soon"}}]}`, "custom timeouts"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := DecodeSnapshot([]byte(tc.data), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	c := &fakeCrypter{}
	good, err := EncodeSnapshot(&Snapshot{
		Resources: []*Resource{prov("test"), fullResource()},
		Outputs:   resource.Object{"n": resource.NewArray(resource.NewNumber(1.5), resource.MakeSecret(resource.NewString("s")))},
	}, 3, c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"version":1,"resources":[{"urn":"u","inputs":{"a":[1,"x",null,true,{"b":2e5}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, seq, err := DecodeSnapshot(data, c)
		if err != nil {
			return
		}
		// Whatever decodes must encode and decode again to the same thing.
		again, err := EncodeSnapshot(s, seq, c)
		if err != nil {
			if errors.Is(err, ErrUnknownValue) {
				return
			}
			t.Fatalf("re-encode: %v", err)
		}
		s2, _, err := DecodeSnapshot(again, c)
		if err != nil {
			t.Fatalf("decode of re-encoded: %v\n%s", err, again)
		}
		if diff := cmp.Diff(s, s2, resourceCmp); diff != "" {
			t.Fatalf("second round trip (-first +second):\n%s", diff)
		}
	})
}
