package display

import (
	"encoding/json"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Masked is what a scrubbed secret reads as, the same mark a secret
// value is rendered with.
const Masked = "[secret]"

// MinSecretLen is the shortest secret text a Scrubber removes from
// messages. A secret of one to three bytes ("1", "on", "dev") occurs by
// chance in almost any message (counts, durations, URNs, words), so
// replacing it everywhere would garble the output while hiding nothing:
// a secret that short can be guessed in a few thousand tries anyway.
// Values shown as values are masked whatever their length; only free text
// (errors, logs) is scrubbed by matching.
const MinSecretLen = 4

// minSecretNumberLen is the shortest number literal scrubbed: shorter
// numbers are everywhere in messages (line numbers, counts, exit codes).
const minSecretNumberLen = 6

// minSecretLineLen is the shortest line of a multi-line secret (a key, a
// certificate, a file) scrubbed on its own, since a failing command
// often echoes one line of it.
const minSecretLineLen = 8

// Scrubber removes known secret values from text: the errors providers
// return, what plugins log, and every message a view prints. It learns
// the secrets an operation knows (the stack's secret config, the secret
// values of the recorded state and of every step's inputs and outputs)
// and replaces each occurrence with [secret], in the text forms a
// message may quote it in (as is, JSON-escaped, Go-quoted). It is safe
// for concurrent use. A nil *Scrubber scrubs nothing.
type Scrubber struct {
	mu sync.RWMutex
	// byPrefix holds the known secret texts by their first MinSecretLen
	// bytes, longest first in each list: adding a secret costs what its
	// list holds, and a scrub looks at each position of the text once,
	// so a run that learns secrets step by step stays linear (rebuilding
	// a strings.Replacer after each new secret was quadratic: 5,000
	// secrets learned one at a time cost 6.4 s).
	byPrefix map[string][]secretForm
}

// secretForm is one text a Scrubber masks.
type secretForm struct {
	text string
	// line is set when text is only one line of a multi-line secret (and
	// no secret as a whole). Such a line is masked only where it stands
	// as a token of its own, not inside a longer run of base64 or word
	// characters: a private key's lines are windows onto the same bytes
	// (an RSA modulus, an EC point) its public key encodes, so inside a
	// public key's base64 the same text is a chance fragment of a public
	// value, not the secret (the RSA public_key_openssh and ECDSA
	// public_key_pem of tls_private_key were shown half masked).
	line bool
}

// NewScrubber returns a Scrubber that knows no secrets yet.
func NewScrubber() *Scrubber { return &Scrubber{byPrefix: map[string][]secretForm{}} }

// Learn adds every secret inside v: each string (and long number) under a
// secret mark, however deep.
func (s *Scrubber) Learn(v resource.Value) {
	if s == nil || !v.ContainsSecrets() {
		return
	}
	var texts []string
	collectSecrets(v, false, &texts)
	s.add(texts...)
}

// LearnObject learns the secrets of every property of o.
func (s *Scrubber) LearnObject(o resource.Object) {
	for _, v := range o {
		s.Learn(v)
	}
}

// LearnResource learns the secrets of a resource's inputs and outputs.
func (s *Scrubber) LearnResource(r *state.Resource) {
	if s == nil || r == nil {
		return
	}
	s.LearnObject(r.Inputs)
	s.LearnObject(r.Outputs)
	if r.SecretID {
		s.add(r.ID)
	}
}

// LearnSnapshot learns the secrets of every resource in a state.
func (s *Scrubber) LearnSnapshot(snap *state.Snapshot) {
	if s == nil || snap == nil {
		return
	}
	for _, r := range snap.Resources {
		s.LearnResource(r)
	}
	for _, p := range snap.Pending {
		s.LearnResource(p.Resource)
	}
	s.LearnObject(snap.Outputs)
}

// LearnEvent learns the secrets of the resources an engine event names.
func (s *Scrubber) LearnEvent(e engine.Event) {
	s.LearnResource(e.Old)
	s.LearnResource(e.New)
}

// collectSecrets appends the text of every secret scalar in v.
func collectSecrets(v resource.Value, inSecret bool, out *[]string) {
	switch v.Kind() {
	case resource.SecretKind:
		collectSecrets(v.SecretElement(), true, out)
	case resource.StringKind:
		if inSecret {
			*out = append(*out, v.Str())
		}
	case resource.NumberKind:
		if lit := v.NumberLiteral(); inSecret && len(lit) >= minSecretNumberLen {
			*out = append(*out, lit)
		}
	case resource.ArrayKind:
		for _, e := range v.Array() {
			collectSecrets(e, inSecret, out)
		}
	case resource.ObjectKind:
		for _, e := range v.Object() {
			collectSecrets(e, inSecret, out)
		}
	}
}

// add records secret texts and the forms a message may quote them in.
func (s *Scrubber) add(texts ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range texts {
		for _, form := range textForms(t) {
			if len(form.text) >= MinSecretLen {
				s.index(form)
			}
		}
	}
}

// textForms are the ways a secret may appear in a message: as is,
// escaped inside a JSON or Go string, and line by line when it has
// several lines.
func textForms(t string) []secretForm {
	forms := []secretForm{{text: t}, {text: strings.TrimSpace(t)}}
	if q := strconv.Quote(t); len(q) > 2 {
		forms = append(forms, secretForm{text: q[1 : len(q)-1]})
	}
	if j, err := json.Marshal(t); err == nil && len(j) > 2 {
		forms = append(forms, secretForm{text: string(j[1 : len(j)-1])})
	}
	if strings.Contains(t, "\n") {
		for _, l := range strings.Split(t, "\n") {
			if l = strings.TrimSpace(l); len(l) >= minSecretLineLen {
				forms = append(forms, secretForm{text: l, line: true})
			}
		}
	}
	return forms
}

// index adds a secret text to its prefix list, longest first (ties in
// byte order), unless it is there already; a text known both as a whole
// secret and as a line of one is masked wherever it appears. s.mu is
// held.
func (s *Scrubber) index(form secretForm) {
	key := form.text[:MinSecretLen]
	list := s.byPrefix[key]
	at := sort.Search(len(list), func(i int) bool {
		t := list[i].text
		return len(t) < len(form.text) || len(t) == len(form.text) && t >= form.text
	})
	if at < len(list) && list[at].text == form.text {
		list[at].line = list[at].line && form.line
		return
	}
	s.byPrefix[key] = slices.Insert(list, at, form)
}

// Scrub returns text with every known secret replaced by [secret]: at
// each position the longest secret that starts there, leftmost first,
// without overlaps.
func (s *Scrubber) Scrub(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.byPrefix) == 0 {
		return text
	}
	var b strings.Builder
	done := 0
	for i := 0; i+MinSecretLen <= len(text); {
		n := s.match(text, i)
		if n == 0 {
			i++
			continue
		}
		b.WriteString(text[done:i])
		b.WriteString(Masked)
		i += n
		done = i
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// match is the length of the longest known secret text[at:] starts
// with, 0 if none; a line of a secret counts only as a token of its own
// (see secretForm). s.mu is held.
func (s *Scrubber) match(text string, at int) int {
	rest := text[at:]
	for _, form := range s.byPrefix[rest[:MinSecretLen]] {
		if !strings.HasPrefix(rest, form.text) {
			continue
		}
		if !form.line || standsAlone(text, at, at+len(form.text)) {
			return len(form.text)
		}
	}
	return 0
}

// standsAlone reports whether text[from:to] is not part of a longer run
// of base64 or word characters: what comes before it is the start of the
// text, a character outside that set (an "=" too, which base64 has only
// at the end, so "key=LINE" is masked), or an escape such as the \n of
// a JSON or Go string, and what follows is the end or a character
// outside the set.
func standsAlone(text string, from, to int) bool {
	before := from == 0 || text[from-1] == '=' || !isTokenByte(text[from-1]) || from >= 2 && text[from-2] == '\\'
	after := to == len(text) || !isTokenByte(text[to])
	return before && after
}

// isTokenByte reports whether b may continue a base64 or word token.
func isTokenByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '+' || b == '/' || b == '=' || b == '_' || b == '-'
}

// Writer returns a writer that scrubs what it is given before passing it
// to w. Each Write is scrubbed on its own, so a secret split across two
// writes is not found: plinth writes whole lines. A nil Scrubber returns
// w itself, and so does a writer this Scrubber already scrubs.
func (s *Scrubber) Writer(w io.Writer) io.Writer {
	if s == nil || w == nil {
		return w
	}
	if sw, ok := w.(*scrubWriter); ok && sw.s == s {
		return w
	}
	return &scrubWriter{s: s, w: w}
}

type scrubWriter struct {
	s *Scrubber
	w io.Writer
}

// Write scrubs p and writes the result, reporting all of p written when
// the result was, as the caller's bytes are what it counts.
func (w *scrubWriter) Write(p []byte) (int, error) {
	out := w.s.Scrub(string(p))
	if _, err := io.WriteString(w.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}
