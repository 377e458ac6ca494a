package state

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// FormatVersion is the version of the stored JSON of journal entries. A
// reader refuses a newer version rather than misread it.
const FormatVersion = 1

// SnapshotVersion is the version of the stored JSON of snapshots. Version
// 2 added the checksum; version 1 snapshots (no checksum) are still read.
const SnapshotVersion = 2

// The stored forms. Resource values are pre-encoded into RawMessages by the
// value codec; everything else is plain encoding/json.
type (
	snapshotJSON struct {
		Version int `json:"version"`
		// Checksum is the SHA-256 of the stored bytes with the checksum's
		// own digits set to '0' (see checksum.go). Version 2 and later.
		Checksum string `json:"checksum,omitempty"`
		Seq      uint64 `json:"seq"`
		// Lineage and Serial place the snapshot in its stack's history
		// (see Mark); snapshots written before them have neither.
		Lineage   string          `json:"lineage,omitempty"`
		Serial    uint64          `json:"serial,omitempty"`
		Resources []*resourceJSON `json:"resources"`
		Outputs   json.RawMessage `json:"outputs,omitempty"`
		// OutputTypes are Snapshot.OutputTypes; states written before
		// them have none.
		OutputTypes map[string]json.RawMessage `json:"outputTypes,omitempty"`
		Pending     []pendingJSON              `json:"pending,omitempty"`
	}
	pendingJSON struct {
		Op       Op            `json:"op"`
		Resource *resourceJSON `json:"resource"`
		Started  *time.Time    `json:"started,omitempty"`
	}
	entryJSON struct {
		Seq     uint64          `json:"seq"`
		Version int             `json:"v"`
		Step    uint64          `json:"step,omitempty"`
		Kind    string          `json:"kind"`
		Op      Op              `json:"op"`
		Old     *resourceJSON   `json:"old,omitempty"`
		New     *resourceJSON   `json:"new,omitempty"`
		Outputs json.RawMessage `json:"outputs,omitempty"`
		// OutputTypes are Entry.OutputTypes.
		OutputTypes map[string]json.RawMessage `json:"outputTypes,omitempty"`
		Time        *time.Time                 `json:"time,omitempty"`
	}
	resourceJSON struct {
		URN                  resource.URN              `json:"urn"`
		Type                 string                    `json:"type"`
		Custom               bool                      `json:"custom,omitempty"`
		ID                   string                    `json:"id,omitempty"`
		SealedID             json.RawMessage           `json:"sealedId,omitempty"`
		Inputs               json.RawMessage           `json:"inputs,omitempty"`
		Outputs              json.RawMessage           `json:"outputs,omitempty"`
		Parent               resource.URN              `json:"parent,omitempty"`
		Provider             string                    `json:"provider,omitempty"`
		Dependencies         []resource.URN            `json:"dependencies,omitempty"`
		PropertyDependencies map[string][]resource.URN `json:"propertyDependencies,omitempty"`
		DependencyGroups     []resource.URN            `json:"dependencyGroups,omitempty"`
		Protect              bool                      `json:"protect,omitempty"`
		RetainOnDelete       bool                      `json:"retainOnDelete,omitempty"`
		DeleteBeforeReplace  bool                      `json:"deleteBeforeReplace,omitempty"`
		IgnoreChanges        []string                  `json:"ignoreChanges,omitempty"`
		ReplaceOnChanges     []string                  `json:"replaceOnChanges,omitempty"`
		CustomTimeouts       *timeoutsJSON             `json:"customTimeouts,omitempty"`
		External             bool                      `json:"external,omitempty"`
		DeletedWith          resource.URN              `json:"deletedWith,omitempty"`
		AdditionalSecrets    []string                  `json:"additionalSecretOutputs,omitempty"`
		Delete               bool                      `json:"delete,omitempty"`
		Missing              bool                      `json:"missing,omitempty"`
		Tainted              bool                      `json:"tainted,omitempty"`
		InitErrors           []string                  `json:"initErrors,omitempty"`
		Private              []byte                    `json:"private,omitempty"`
		DestroyProvisioners  []provisionerJSON         `json:"destroyProvisioners,omitempty"`
		DeleteHooks          *deleteHooksJSON          `json:"deleteHooks,omitempty"`
		Created              *time.Time                `json:"created,omitempty"`
		Modified             *time.Time                `json:"modified,omitempty"`

		// InputTypes are Resource.InputTypes.
		InputTypes map[string]json.RawMessage `json:"inputTypes,omitempty"`
	}
	deleteHooksJSON struct {
		Before  []string `json:"before,omitempty"`
		After   []string `json:"after,omitempty"`
		OnError []string `json:"onError,omitempty"`
	}
	provisionerJSON struct {
		Type       string          `json:"type"`
		Config     json.RawMessage `json:"config,omitempty"`
		Connection json.RawMessage `json:"connection,omitempty"`
		Continue   bool            `json:"continue,omitempty"`
		Timeout    string          `json:"timeout,omitempty"`
	}
	timeoutsJSON struct {
		Create string `json:"create,omitempty"`
		Update string `json:"update,omitempty"`
		Delete string `json:"delete,omitempty"`
	}
)

// EncodeSnapshot returns the stored form of s. Seq is the sequence number of
// the last journal entry s includes; replaying a journal onto s skips
// entries up to it. Secrets are sealed with c; an unknown value anywhere is
// an error naming the resource and property.
func EncodeSnapshot(s *Snapshot, seq uint64, c Crypter) ([]byte, error) {
	return encodeSnapshot(s, Mark{Seq: seq}, c)
}

// encodeSnapshot is EncodeSnapshot with the snapshot's whole mark.
func encodeSnapshot(s *Snapshot, m Mark, c Crypter) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(4096 + len(s.Resources)*512)
	patch, err := writeSnapshot(&buf, s, m, c)
	if err != nil {
		return nil, err
	}
	data := buf.Bytes()
	copy(data[patch.At:], patch.Data)
	return data, nil
}

// SnapshotPatch is what goes at offset At of a snapshot written as it
// was encoded, once all of it is written: its checksum, which is known
// only at the end.
type SnapshotPatch struct {
	At   int64
	Data []byte
}

// writeSnapshot writes the stored form of s to w with the checksum's
// digits as the placeholder, and returns the patch that puts the
// checksum in their place. The resources are encoded one at a time
// straight into w, so that a large state is never held a second time,
// neither as encoded structs nor, when w is a file, as bytes; the bytes
// are those encoding/json gives the whole snapshotJSON.
func writeSnapshot(w io.Writer, s *Snapshot, m Mark, c Crypter) (SnapshotPatch, error) {
	frame, err := snapshotFrame(s, m, c)
	if err != nil {
		return SnapshotPatch{}, err
	}
	// The frame's resources are the first "resources":[] in it: no string
	// before them can hold that text, as a quote in a string is escaped.
	at := bytes.Index(frame, []byte(`"resources":[]`))
	digits := checksumPrefix.FindSubmatchIndex(frame)
	if at < 0 || digits == nil {
		return SnapshotPatch{}, errors.New("encoding state: the snapshot has no resources list or checksum") // a broken invariant of marshalDoc
	}
	at += len(`"resources":[`)
	h := sha256.New()
	out := bufio.NewWriterSize(io.MultiWriter(w, h), 64<<10)
	out.Write(frame[:at])
	if err := writeResources(out, s.Resources, &valueEncoder{crypter: c}); err != nil {
		return SnapshotPatch{}, err
	}
	out.Write(frame[at:])
	if err := out.Flush(); err != nil {
		return SnapshotPatch{}, fmt.Errorf("writing state: %w", err)
	}
	sum := h.Sum(nil)
	return SnapshotPatch{At: int64(digits[2]), Data: []byte(hex.EncodeToString(sum))}, nil
}

// snapshotFrame is the stored form of s without its resources (an empty
// list in their place), with the placeholder for the checksum.
func snapshotFrame(s *Snapshot, m Mark, c Crypter) ([]byte, error) {
	enc := &valueEncoder{crypter: c}
	doc := snapshotJSON{Version: SnapshotVersion, Checksum: checksumPlaceholder, Seq: m.Seq, Lineage: m.Lineage, Serial: m.Serial,
		Resources: []*resourceJSON{}}
	var err error
	if doc.Outputs, err = enc.rawObject(s.Outputs); err != nil {
		return nil, fmt.Errorf("stack outputs: %w", err)
	}
	doc.OutputTypes = s.OutputTypes
	for _, p := range s.Pending {
		pj, err := enc.pending(p)
		if err != nil {
			return nil, err
		}
		doc.Pending = append(doc.Pending, pj)
	}
	return marshalDoc(doc)
}

// writeResources writes the resources, comma-separated, to w, each
// encoded into one reused buffer first.
func writeResources(w io.Writer, rs []*Resource, enc *valueEncoder) error {
	var one []byte
	for i, r := range rs {
		one = one[:0]
		if i > 0 {
			one = append(one, ',')
		}
		var err error
		if one, err = enc.appendResource(one, r); err != nil {
			return err
		}
		w.Write(one) // a write error is the Flush's
	}
	return nil
}

func marshalDoc(doc any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding state: %w", err)
	}
	return buf.Bytes(), nil
}

func (enc *valueEncoder) pending(p PendingOperation) (pendingJSON, error) {
	if p.Resource == nil {
		return pendingJSON{}, fmt.Errorf("a pending %s names no resource", p.Op)
	}
	rj, err := enc.resource(p.Resource)
	if err != nil {
		return pendingJSON{}, fmt.Errorf("pending %s: %w", p.Op, err)
	}
	return pendingJSON{Op: p.Op, Resource: rj, Started: timePtr(p.Started)}, nil
}

// rawObject encodes an object, or nothing for a nil one.
func (enc *valueEncoder) rawObject(o resource.Object) (json.RawMessage, error) {
	if o == nil {
		return nil, nil
	}
	return enc.object(nil, o)
}

func (enc *valueEncoder) resource(r *Resource) (*resourceJSON, error) {
	in, err := enc.rawObject(r.Inputs)
	if err != nil {
		return nil, fmt.Errorf("resource %s: inputs: %w", r.URN, err)
	}
	out, err := enc.rawObject(r.Outputs)
	if err != nil {
		return nil, fmt.Errorf("resource %s: outputs: %w", r.URN, err)
	}
	id, sealed, err := enc.id(r)
	if err != nil {
		return nil, fmt.Errorf("resource %s: id: %w", r.URN, err)
	}
	provs, err := enc.provisioners(r.DestroyProvisioners)
	if err != nil {
		return nil, fmt.Errorf("resource %s: destroy provisioners: %w", r.URN, err)
	}
	return &resourceJSON{
		DestroyProvisioners: provs, DeleteHooks: deleteHooksOf(r.DeleteHooks),
		URN: r.URN, Type: r.Type, Custom: r.Custom, ID: id, SealedID: sealed, Inputs: in, Outputs: out,
		Parent: r.Parent, Provider: r.Provider, Dependencies: r.Dependencies,
		PropertyDependencies: r.PropertyDependencies, DependencyGroups: r.DependencyGroups, Protect: r.Protect,
		RetainOnDelete: r.RetainOnDelete, DeleteBeforeReplace: r.DeleteBeforeReplace,
		IgnoreChanges: r.IgnoreChanges, ReplaceOnChanges: r.ReplaceOnChanges,
		CustomTimeouts: timeoutsOf(r.CustomTimeouts), Delete: r.Delete, Missing: r.Missing, Tainted: r.Tainted,
		External: r.External, DeletedWith: r.DeletedWith, AdditionalSecrets: r.AdditionalSecretOutputs,
		InitErrors: r.InitErrors, Private: r.Private, InputTypes: r.InputTypes,
		Created: timePtr(r.Created), Modified: timePtr(r.Modified),
	}, nil
}

// deleteHooksOf is how delete hooks are stored: nil when there are none.
func deleteHooksOf(h DeleteHooks) *deleteHooksJSON {
	if h.Empty() {
		return nil
	}
	return &deleteHooksJSON{Before: h.Before, After: h.After, OnError: h.OnError}
}

// id returns how a resource's ID is stored: in the clear, or, for a secret
// ID, sealed as the secret value {"id": ID} and nothing in the clear.
func (enc *valueEncoder) id(r *Resource) (string, json.RawMessage, error) {
	if !r.SecretID || r.ID == "" {
		return r.ID, nil, nil
	}
	sealed, err := enc.object(nil, resource.Object{"id": resource.MakeSecret(resource.NewString(r.ID))})
	return "", sealed, err
}

// openID reads a sealed ID back.
func openID(sealed json.RawMessage, c Crypter) (string, error) {
	o, err := decodeObject(sealed, c)
	if err != nil {
		return "", err
	}
	v := o["id"]
	if !v.IsSecret() || v.SecretElement().Kind() != resource.StringKind {
		return "", errors.New("the sealed ID is not a secret string")
	}
	return v.SecretElement().Str(), nil
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func timeOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

func timeoutsOf(t CustomTimeouts) *timeoutsJSON {
	if t == (CustomTimeouts{}) {
		return nil
	}
	return &timeoutsJSON{Create: durationText(t.Create), Update: durationText(t.Update), Delete: durationText(t.Delete)}
}

func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// EncodeEntry returns the stored form of a journal entry, one JSON line.
func EncodeEntry(e *Entry, c Crypter) ([]byte, error) {
	body, err := encodeEntryBody(e, c, 0)
	if err != nil {
		return nil, err
	}
	return withSeq(body, e.Seq), nil
}

// encodeEntryBody encodes e without its Seq, so that the costly part can
// run before the journal assigns the Seq (see withSeq). size guesses the
// encoded size (the Session's last, say): growing the buffer by doubling
// cost each journal entry about its size again in garbage.
func encodeEntryBody(e *Entry, c Crypter, size int) (entryBody, error) {
	b, err := appendEntryBody(make([]byte, seqRoom, seqRoom+max(size+64, 256)), e, c)
	if err != nil {
		return entryBody{}, err
	}
	return entryBody{buf: b}, nil
}

// entryBody is an encoded entry without its Seq, after seqRoom bytes
// kept for it, so that withSeq need not copy the entry.
type entryBody struct{ buf []byte }

// size is the body's encoded size.
func (b entryBody) size() int { return len(b.buf) - seqRoom }

// seqRoom is the room an entry body keeps before it for `{"seq":N,`.
const seqRoom = len(`{"seq":`) + 20 + len(`,`)

// checkRecordable refuses an entry that would put into the state a
// resource the loader refuses (CheckIdentity). A resolve entry's New only
// names the URN whose pending operations it drops.
func checkRecordable(e *Entry) error {
	if e.Op == OpResolve {
		return nil
	}
	return CheckIdentity(e.New.URN, e.New.Type, e.New.Custom)
}

// withSeq puts the sequence number as the first field of an entry body,
// in the room kept before it: the result shares the body's bytes.
func withSeq(body entryBody, seq uint64) []byte {
	var digits [20]byte
	num := strconv.AppendUint(digits[:0], seq, 10)
	// The body starts `{"v":...` at seqRoom; the prefix replaces its `{`.
	start := seqRoom + 1 - len(`{"seq":`) - len(num) - len(`,`)
	b := body.buf[start:]
	n := copy(b, `{"seq":`)
	n += copy(b[n:], num)
	b[n] = ','
	return b
}

// DecodeSnapshot parses a stored snapshot and returns it with the sequence
// number of the last journal entry it includes. Secrets are opened with c.
// A snapshot whose checksum does not match its bytes is refused.
func DecodeSnapshot(data []byte, c Crypter) (*Snapshot, uint64, error) {
	d, err := decodeSnapshot(data, c, true)
	return d.snap, d.seq, err
}

// decodedSnapshot is a decoded snapshot and what was found about its form.
type decodedSnapshot struct {
	snap    *Snapshot
	seq     uint64
	lineage string
	serial  uint64
	// legacy is set for a version 1 snapshot, which has no checksum.
	legacy bool
	// badChecksum is set when the checksum did not match and the caller
	// asked to read the snapshot anyway.
	badChecksum error
}

// decodeSnapshot parses a stored snapshot. With strict, a checksum that
// does not match is an error; without, it is reported in badChecksum and
// the contents are read as they are (salvage, and import of a copy that
// was repaired by hand).
func decodeSnapshot(data []byte, c Crypter, strict bool) (decodedSnapshot, error) {
	return decodeSnapshotAs(data, c, strict, true)
}

// decodeSnapshotAs is decodeSnapshot; with split false, the snapshot is
// decoded by encoding/json whole, not by parseSnapshotSplit first (tests
// hold the two to the same results).
func decodeSnapshotAs(data []byte, c Crypter, strict, split bool) (decodedSnapshot, error) {
	var d decodedSnapshot
	var doc snapshotHeader
	var list *resourceList
	ok := false
	if split {
		doc, list, ok = parseSnapshotSplit(data, c)
	}
	if !ok {
		list = &resourceList{data: data, c: c}
		doc = snapshotHeader{Resources: list}
		if err := json.Unmarshal(data, &doc); err != nil {
			return d, DescribeJSONError(data, err)
		}
	}
	sumErr := verifyChecksum(data)
	if sumErr != nil && !errors.Is(sumErr, errNoChecksum) {
		if strict {
			return d, sumErr
		}
		d.badChecksum = sumErr
	}
	if err := checkVersion(doc.Version, SnapshotVersion); err != nil {
		return d, err
	}
	if errors.Is(sumErr, errNoChecksum) && (doc.Version != 1 || doc.Checksum != "") {
		err := errors.New("its checksum is missing or damaged, so its contents cannot be trusted")
		if strict {
			return d, err
		}
		d.badChecksum = err
	}
	d.legacy = doc.Version == 1 && d.badChecksum == nil
	snap, err := doc.decode(list, c)
	if err != nil {
		return d, err
	}
	d.snap, d.seq, d.lineage, d.serial = snap, doc.Seq, doc.Lineage, doc.Serial
	return d, nil
}

// mark is the stored snapshot's mark.
func (d decodedSnapshot) mark() Mark { return Mark{Lineage: d.lineage, Serial: d.serial, Seq: d.seq} }

// snapshotHeader is snapshotJSON as a stored snapshot is decoded: its
// resources go one at a time straight into Resources (resourceList).
// Decoding them all into resourceJSONs first held a second form of the
// whole state: about 0.5 KB a resource at the peak of a 100,000-resource
// preview.
type snapshotHeader struct {
	snapshotJSON
	Resources *resourceList `json:"resources"`
}

// resourceList decodes a snapshot's resources list as encoding/json
// meets it. A failure is kept, not returned, so that the snapshot's
// version and checksum are judged first, as when the list was decoded
// after the rest.
type resourceList struct {
	data []byte // the whole snapshot, to place errors in
	c    Crypter
	out  []*Resource
	err  error
}

// UnmarshalJSON implements json.Unmarshaler. span is a slice of data
// (encoding/json hands an Unmarshaler a slice of its input), already
// checked to be valid JSON.
func (l *resourceList) UnmarshalJSON(span []byte) error {
	l.out, l.err = decodeResources(l.data, span, l.c)
	return nil
}

func (doc *snapshotHeader) decode(list *resourceList, c Crypter) (*Snapshot, error) {
	if list.err != nil {
		return nil, list.err
	}
	var err error
	s := &Snapshot{Resources: list.out}
	if s.Resources == nil {
		s.Resources = []*Resource{}
	}
	if s.Outputs, err = decodeObject(doc.Outputs, c); err != nil {
		return nil, fmt.Errorf("stack outputs: %w", err)
	}
	s.OutputTypes = doc.OutputTypes
	for i, pj := range doc.Pending {
		if pj.Resource == nil {
			return nil, fmt.Errorf("pending operation %d names no resource", i)
		}
		r, err := pj.Resource.decode(c)
		if err != nil {
			return nil, fmt.Errorf("pending operation %d: %w", i, err)
		}
		s.Pending = append(s.Pending, PendingOperation{Op: pj.Op, Resource: r, Started: timeOf(pj.Started)})
	}
	return s, nil
}

// jsonKind names the kind of JSON value that starts with c, as
// encoding/json's type errors do.
func jsonKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// share returns the copy of s that seen holds, adding s if it has none.
func share(seen map[string]string, s string) string {
	if s == "" {
		return s
	}
	if t, ok := seen[s]; ok {
		return t
	}
	seen[s] = s
	return s
}

// atSpan moves the offset of a type error found in span, a slice of
// data, to where it is in data, so that DescribeJSONError places it.
func atSpan(data, span []byte, err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		moved := *typ
		moved.Offset += int64(cap(data) - cap(span))
		return &moved
	}
	return err
}

func checkVersion(v, latest int) error {
	switch {
	case v == 0:
		return errors.New("it has no format version; it was not written by plinth")
	case v > latest:
		return fmt.Errorf("it was written by a newer plinth (format version %d; this plinth reads up to %d); upgrade plinth", v, latest)
	}
	return nil
}

// DescribeJSONError turns encoding/json's errors into a sentence with a
// place in the data.
func DescribeJSONError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return errors.New("it is empty")
	case errors.As(err, &syn) && syn.Offset >= int64(len(data)):
		return fmt.Errorf("it ends early, after %d bytes (truncated?)", len(data))
	case errors.As(err, &syn):
		return fmt.Errorf("it is not valid JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		return fmt.Errorf("field %q at byte %d holds a JSON %s where a %s belongs", typ.Field, typ.Offset, typ.Value, typ.Type)
	}
	return err
}

func (rj *resourceJSON) decode(c Crypter) (*Resource, error) {
	r := &Resource{
		URN: rj.URN, Type: rj.Type, Custom: rj.Custom, ID: rj.ID,
		Parent: rj.Parent, Provider: rj.Provider, Dependencies: rj.Dependencies,
		PropertyDependencies: rj.PropertyDependencies, DependencyGroups: rj.DependencyGroups, Protect: rj.Protect,
		RetainOnDelete: rj.RetainOnDelete, DeleteBeforeReplace: rj.DeleteBeforeReplace,
		IgnoreChanges: rj.IgnoreChanges, ReplaceOnChanges: rj.ReplaceOnChanges,
		Delete: rj.Delete, Missing: rj.Missing, Tainted: rj.Tainted, InitErrors: rj.InitErrors, Private: rj.Private, InputTypes: rj.InputTypes,
		External: rj.External, DeletedWith: rj.DeletedWith, AdditionalSecretOutputs: rj.AdditionalSecrets,
		Created: timeOf(rj.Created), Modified: timeOf(rj.Modified),
	}
	if h := rj.DeleteHooks; h != nil {
		r.DeleteHooks = DeleteHooks{Before: h.Before, After: h.After, OnError: h.OnError}
	}
	var err error
	if len(rj.SealedID) > 0 {
		if r.ID, err = openID(rj.SealedID, c); err != nil {
			return nil, fmt.Errorf("%s: id: %w", rj.URN, err)
		}
		r.SecretID = true
	}
	if r.Inputs, err = decodeObject(rj.Inputs, c); err != nil {
		return nil, fmt.Errorf("%s: inputs: %w", rj.URN, err)
	}
	if r.Outputs, err = decodeObject(rj.Outputs, c); err != nil {
		return nil, fmt.Errorf("%s: outputs: %w", rj.URN, err)
	}
	if r.DestroyProvisioners, err = decodeProvisioners(rj.DestroyProvisioners, c); err != nil {
		return nil, fmt.Errorf("%s: destroy provisioners: %w", rj.URN, err)
	}
	if r.CustomTimeouts, err = rj.CustomTimeouts.decode(); err != nil {
		return nil, fmt.Errorf("%s: custom timeouts: %w", rj.URN, err)
	}
	return r, nil
}

func (t *timeoutsJSON) decode() (CustomTimeouts, error) {
	var out CustomTimeouts
	if t == nil {
		return out, nil
	}
	for _, f := range []struct {
		text string
		d    *time.Duration
	}{{t.Create, &out.Create}, {t.Update, &out.Update}, {t.Delete, &out.Delete}} {
		if f.text == "" {
			continue
		}
		d, err := time.ParseDuration(f.text)
		if err != nil {
			return CustomTimeouts{}, err
		}
		*f.d = d
	}
	return out, nil
}

// DecodeEntry parses one stored journal entry.
func DecodeEntry(data []byte, c Crypter) (*Entry, error) {
	var doc entryJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, DescribeJSONError(data, err)
	}
	if err := checkVersion(doc.Version, FormatVersion); err != nil {
		return nil, err
	}
	kind, err := parseKind(doc.Kind)
	if err != nil {
		return nil, err
	}
	e := &Entry{Seq: doc.Seq, Step: doc.Step, Kind: kind, Op: doc.Op, Time: timeOf(doc.Time)}
	if doc.Old != nil {
		if e.Old, err = doc.Old.decode(c); err != nil {
			return nil, fmt.Errorf("old state: %w", err)
		}
	}
	if doc.New != nil {
		if e.New, err = doc.New.decode(c); err != nil {
			return nil, fmt.Errorf("new state: %w", err)
		}
	}
	if e.Outputs, err = decodeObject(doc.Outputs, c); err != nil {
		return nil, fmt.Errorf("stack outputs: %w", err)
	}
	e.OutputTypes = doc.OutputTypes
	return e, nil
}

func parseKind(s string) (EntryKind, error) {
	for k := Begin; k <= Write; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown entry kind %q", s)
}
