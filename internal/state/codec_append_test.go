package state

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
	"pgregory.net/rapid"
)

// encodingJSON is how the codec encoded a document before appendResource:
// encoding/json without HTML escaping, without the final newline.
func encodingJSON(t *rapid.T, v any) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// genText makes strings with what JSON must escape: quotes, backslashes,
// control characters (\b and \f among them), HTML's <>&, U+2028 and
// invalid UTF-8.
func genText() *rapid.Generator[string] {
	return rapid.OneOf(rapid.String(), rapid.StringMatching(`[a-z"\\<>&\x00-\x1f\x{2028}\x{2029}é]{0,12}`),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 8), func(b []byte) string { return "x" + string(b) }))
}

func genURNs(text *rapid.Generator[string]) *rapid.Generator[[]resource.URN] {
	return rapid.SliceOfN(rapid.Map(text, func(s string) resource.URN { return resource.URN(s) }), 0, 3)
}

func genTime() *rapid.Generator[time.Time] {
	return rapid.OneOf(rapid.Just(time.Time{}), rapid.Map(rapid.Int64Range(-1e12, 1e13), func(ms int64) time.Time {
		return time.UnixMilli(ms).Add(time.Duration(ms % 1000)).In(time.FixedZone("z", int(ms%7)*1800))
	}))
}

// genFullResource draws a resource with any of its stored fields set,
// its strings drawn from text.
func genFullResource(t *rapid.T, text *rapid.Generator[string]) *Resource {
	obj := func(label string) resource.Object {
		if rapid.Bool().Draw(t, label+" nil") {
			return nil
		}
		return genObject(genValue(2)).Draw(t, label)
	}
	opt := func(label string, g *rapid.Generator[string]) string {
		if rapid.Bool().Draw(t, label+" set") {
			return g.Draw(t, label)
		}
		return ""
	}
	r := &Resource{
		URN: resource.URN(text.Draw(t, "urn")), Type: text.Draw(t, "type"), Custom: rapid.Bool().Draw(t, "custom"),
		ID: opt("id", text), SecretID: rapid.Bool().Draw(t, "secret id"),
		Inputs: obj("inputs"), Outputs: obj("outputs"),
		Parent: resource.URN(opt("parent", text)), Provider: opt("provider", text),
		Dependencies: genURNs(text).Draw(t, "deps"), DependencyGroups: genURNs(text).Draw(t, "groups"),
		Protect: rapid.Bool().Draw(t, "protect"), RetainOnDelete: rapid.Bool().Draw(t, "retain"),
		DeleteBeforeReplace: rapid.Bool().Draw(t, "dbr"),
		IgnoreChanges:       rapid.SliceOfN(text, 0, 2).Draw(t, "ignore"), ReplaceOnChanges: rapid.SliceOfN(text, 0, 2).Draw(t, "roc"),
		External: rapid.Bool().Draw(t, "external"), DeletedWith: resource.URN(opt("deletedWith", text)),
		AdditionalSecretOutputs: rapid.SliceOfN(text, 0, 2).Draw(t, "aso"),
		Delete:                  rapid.Bool().Draw(t, "delete"), Missing: rapid.Bool().Draw(t, "missing"), Tainted: rapid.Bool().Draw(t, "tainted"),
		InitErrors: rapid.SliceOfN(text, 0, 2).Draw(t, "init errors"),
		Private:    rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "private"),
		Created:    genTime().Draw(t, "created"), Modified: genTime().Draw(t, "modified"),
		CustomTimeouts: CustomTimeouts{Create: time.Duration(rapid.IntRange(0, 3).Draw(t, "create")) * time.Minute,
			Delete: time.Duration(rapid.IntRange(0, 3).Draw(t, "delete t")) * time.Second},
		DeleteHooks: DeleteHooks{Before: rapid.SliceOfN(text, 0, 2).Draw(t, "before")},
	}
	if rapid.Bool().Draw(t, "property deps") {
		r.PropertyDependencies = map[string][]resource.URN{text.Draw(t, "pd key"): genURNs(text).Draw(t, "pd")}
	}
	if rapid.Bool().Draw(t, "input types") {
		r.InputTypes = map[string]json.RawMessage{text.Draw(t, "it key"): json.RawMessage(`[ "map", "string" ]`)}
	}
	if rapid.Bool().Draw(t, "provisioner") {
		r.DestroyProvisioners = []Provisioner{{Type: text.Draw(t, "prov type"), Config: obj("config"), Continue: true, Timeout: time.Minute}}
	}
	return r
}

// TestAppendResourceMatchesEncodingJSON holds the hand-written encoder of
// resources and journal entries to the bytes encoding/json gave the
// stored structs, so that neither snapshots nor journals change form.
func TestAppendResourceMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genFullResource(t, genText())
		enc := &valueEncoder{crypter: &fakeCrypter{}}
		rj, err := enc.resource(r)
		if err != nil {
			t.Skip("not storable:", err) // the same resource must fail below too
		}
		got, err := enc.appendResource(nil, r)
		if err != nil {
			t.Fatalf("appendResource: %v", err)
		}
		if diff := cmp.Diff(encodingJSON(t, rj), string(got)); diff != "" {
			t.Fatalf("resource (-encoding/json +appendResource):\n%s", diff)
		}

		e := &Entry{Step: uint64(rapid.IntRange(0, 9).Draw(t, "step")), Kind: EntryKind(rapid.IntRange(0, 4).Draw(t, "kind")),
			Op: Op(genText().Draw(t, "op")), Time: genTime().Draw(t, "time")}
		if rapid.Bool().Draw(t, "old") {
			e.Old = r
		}
		if rapid.Bool().Draw(t, "outputs") {
			e.Outputs = genObject(genValue(1)).Draw(t, "stack outputs")
			e.OutputTypes = map[string]json.RawMessage{"x": json.RawMessage(`"string"`)}
		}
		doc := entryJSON{Version: FormatVersion, Step: e.Step, Kind: e.Kind.String(), Op: e.Op, Time: timePtr(e.Time), Old: rj}
		if e.Old == nil {
			doc.Old = nil
		}
		doc.Outputs, _ = enc.rawObject(e.Outputs)
		doc.OutputTypes = e.OutputTypes
		body, err := appendEntryBody(nil, e, enc.crypter)
		if err != nil {
			t.Fatalf("appendEntryBody: %v", err)
		}
		want := encodingJSON(t, doc)
		want = "{" + want[len(`{"seq":0,`):]
		if diff := cmp.Diff(want, string(body)); diff != "" {
			t.Fatalf("entry (-encoding/json +appendEntryBody):\n%s", diff)
		}
	})
}

// TestAppendJSONString checks the strings encoding/json escapes.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\", "\b\f\n\r\t\x00\x1f", "<a&b>", "\u2028\u2029", "bad\xffutf8", "é€𝄞", "\x7f"} {
		want, _ := json.Marshal(s)
		want = bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(want, []byte(`\u003c`), []byte("<")), []byte(`\u003e`), []byte(">")), []byte(`\u0026`), []byte("&"))
		if diff := cmp.Diff(string(want), string(appendJSONString(nil, s))); diff != "" {
			t.Errorf("appendJSONString(%s) (-encoding/json +got):\n%s", strconv.Quote(s), diff)
		}
	}
}

// TestWithSeqFillsTheRoomKept: the sequence number goes in the room kept
// before the body, for numbers of one digit to twenty, and the entry
// reads back.
func TestWithSeqFillsTheRoomKept(t *testing.T) {
	for _, seq := range []uint64{0, 7, 12345, 1<<64 - 1} {
		e := &Entry{Seq: seq, Step: 3, Kind: End, Op: OpCreate, New: thing("a", "a-1"), Time: t0}
		data, err := EncodeEntry(e, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"seq":` + strconv.FormatUint(seq, 10) + `,"v":1,"step":3,`; !bytes.HasPrefix(data, []byte(want)) {
			t.Errorf("seq %d: entry starts %.60s, want %s", seq, data, want)
		}
		got, err := DecodeEntry(data, nil)
		if err != nil {
			t.Fatalf("seq %d: %v", seq, err)
		}
		if diff := cmp.Diff(e, got, resourceCmp); diff != "" {
			t.Errorf("seq %d: round trip (-want +got):\n%s", seq, diff)
		}
	}
}

// TestAppendResourceErrorNamesTheResource: a field encoding/json refuses
// (a malformed input type) fails the snapshot with the resource's URN.
func TestAppendResourceErrorNamesTheResource(t *testing.T) {
	r := thing("bad", "b-1")
	r.InputTypes = map[string]json.RawMessage{"x": json.RawMessage(`{bad`)}
	_, err := EncodeSnapshot(&Snapshot{Resources: []*Resource{r}}, 1, nil)
	if err == nil || !strings.Contains(err.Error(), string(r.URN)) || !strings.Contains(err.Error(), "inputTypes") {
		t.Fatalf("err = %v, want one naming %s and inputTypes", err, r.URN)
	}
}
