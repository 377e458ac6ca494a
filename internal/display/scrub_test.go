package display

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestScrub(t *testing.T) {
	secret := func(v any) resource.Value { return resource.MakeSecret(resource.MustFromGo(v)) }
	cases := map[string]struct {
		learn resource.Value
		text  string
		want  string
	}{
		"plain":      {secret("hunter2"), "exit 1: bad password hunter2", "exit 1: bad password [secret]"},
		"every time": {secret("hunter2"), "hunter2hunter2 x", "[secret][secret] x"},
		"nested in a map": {resource.NewObject(resource.Object{"m": secret(map[string]any{"k": []any{"deepsecret"}})}),
			"saw deepsecret", "saw [secret]"},
		"a map inside a secret": {secret(map[string]any{"a": "alpha-1", "b": "beta-22"}), "alpha-1 beta-22", "[secret] [secret]"},
		"not secret":            {resource.NewString("public"), "public", "public"},
		"Go-quoted":             {secret(`pa"ss\word`), `error: "pa\"ss\\word"`, `error: "[secret]"`},
		"JSON-escaped":          {secret("tab\there"), `{"m":"tab\there"}`, `{"m":"[secret]"}`},
		"one line of several":   {secret("line one is long\nline two is long\n"), "stderr: line two is long", "stderr: [secret]"},
		"longest first":         {secret([]any{"abcd", "abcdefgh"}), "abcdefgh", "[secret]"},
		"long number":           {secret(12345678), "port 12345678 refused", "port [secret] refused"},
		"short number kept":     {secret(443), "line 443", "line 443"},
		"three bytes kept":      {secret("dev"), "stack dev", "stack dev"},
		"four bytes scrubbed":   {secret("abcd"), "xabcdx", "x[secret]x"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewScrubber()
			s.Learn(tc.learn)
			if got := s.Scrub(tc.text); got != tc.want {
				t.Errorf("Scrub(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
	var nilScrubber *Scrubber
	if got := nilScrubber.Scrub("x hunter2"); got != "x hunter2" {
		t.Errorf("a nil Scrubber changed text: %q", got)
	}
}

// TestViewsScrubErrors: a provider error that quotes a secret input of
// the failing step is scrubbed in the plain, live and JSON views, in the
// step's line and in the diagnostics at the end, verbose or not (item
// 10). The secret is learnt from the event itself.
func TestViewsScrubErrors(t *testing.T) {
	const pw = "s3cr3t-pw"
	r := &state.Resource{URN: urn("plinth:exec:Command", "cmd"), Type: "plinth:exec:Command",
		Inputs: resource.Object{"env": resource.MakeSecret(resource.MustFromGo(map[string]any{"PW": pw}))}}
	stepErr := errors.New("creating " + string(r.URN) + ": command failed: exit status 1; stderr: bad password " + pw)
	for _, mode := range []Mode{Plain, Live, JSON} {
		for _, verbose := range []bool{false, true} {
			var out, errOut bytes.Buffer
			v := New(Options{Out: &out, ErrOut: &errOut, Mode: mode, Verbose: verbose, Diff: true, Tick: -1, Scrubber: NewScrubber()})
			v.Begin(Operation{Verb: "update", Stack: "dev"})
			v.Event(engine.Event{Kind: engine.EventStepStart, Op: engine.OpCreate, URN: r.URN, Type: r.Type, New: r})
			v.Event(engine.Event{Kind: engine.EventStepDone, Op: engine.OpCreate, URN: r.URN, Type: r.Type, New: r, Err: stepErr})
			v.Event(engine.Event{Kind: engine.EventDiagnostic, Severity: engine.SeverityWarning, Message: "provider says " + pw})
			v.Notice("notice " + pw)
			v.Diagnostic(Diagnostic{Summary: "x", Detail: "detail " + pw})
			v.End(Outcome{Result: &engine.Result{}, Err: &engine.OperationError{Errs: []error{stepErr}}})
			all := out.String() + errOut.String()
			if strings.Contains(all, pw) {
				t.Errorf("mode %d verbose %v leaked the secret:\n%s", mode, verbose, all)
			}
			if !strings.Contains(all, "bad password [secret]") {
				t.Errorf("mode %d verbose %v did not show the scrubbed error:\n%s", mode, verbose, all)
			}
			if mode == JSON {
				for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
					if !json.Valid([]byte(l)) {
						t.Errorf("JSON view wrote an invalid line: %s", l)
					}
				}
			}
		}
	}
}

// TestScrubKeepsJSON: secrets that look like JSON's own text do not break
// the JSON view, which scrubs field by field.
func TestScrubKeepsJSON(t *testing.T) {
	s := NewScrubber()
	s.Learn(resource.MakeSecret(resource.MustFromGo([]any{"true", `","`, "event"})))
	var out bytes.Buffer
	v := New(Options{Out: &out, Mode: JSON, Scrubber: s})
	v.Begin(Operation{Verb: "update", Preview: true, Stack: "dev"})
	v.Notice("the event was true")
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("invalid JSON %s: %v", l, err)
		}
		delete(m, "time")
		got = append(got, m)
	}
	want := []map[string]any{
		{"event": "begin", "operation": "update", "preview": true, "stack": "dev"},
		{"event": "notice", "message": "the [secret] was [secret]"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON events (-want +got):\n%s", diff)
	}
}

// TestFallbackSummaries: an error of no known kind gets the summary its
// caller gave it, a file error names the file, and a known kind keeps
// its own summary through Summarise.
func TestFallbackSummaries(t *testing.T) {
	_, pathErr := os.ReadFile(filepath.Join(t.TempDir(), "missing.yaml"))
	cases := map[string]struct {
		err  error
		want string
	}{
		"summarised":          {Summarise("Cannot read the program", errors.New("read plinth.yaml: is a directory")), "Cannot read the program"},
		"file error":          {pathErr, "Cannot access missing.yaml"},
		"known kind kept":     {Summarise("Update failed", &Error{Summary: "Invalid URN", Detail: "x"}), "Invalid URN"},
		"cancel kept":         {Summarise("Update failed", fmt.Errorf("x: %w", context.Canceled)), "Cancelled"},
		"nothing to go on":    {errors.New("mystery"), "Error"},
		"summarised wrapping": {fmt.Errorf("outer: %w", Summarise("Interrupted", errors.New("inner"))), "Interrupted"},
	}
	for name, c := range cases {
		if got := Diagnose(c.err, false)[0].Summary; got != c.want {
			t.Errorf("%s: summary %q, want %q", name, got, c.want)
		}
	}
	if Summarise("x", nil) != nil {
		t.Error("Summarise of nil is not nil")
	}
}

// TestScrubLearnsSecretIDs: an ID the engine marked secret is scrubbed
// even when no input the scrubber saw held it.
func TestScrubLearnsSecretIDs(t *testing.T) {
	s := NewScrubber()
	s.LearnResource(&state.Resource{ID: "bucket-hunter2-prod", SecretID: true})
	s.LearnResource(&state.Resource{ID: "public-id-1234"})
	got := s.Scrub("deleting bucket-hunter2-prod failed; public-id-1234 is fine")
	if want := "deleting [secret] failed; public-id-1234 is fine"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}

// TestScrubOverlappingSecrets: at each position the longest secret that
// starts there is masked, and a shorter one inside it leaves nothing.
func TestScrubOverlappingSecrets(t *testing.T) {
	s := NewScrubber()
	s.add("abcd", "xxabcdyy", "cdyyzz")
	got := s.Scrub("1 xxabcdyy 2 abcd 3 abcdyyzz 4 abc")
	if want := "1 [secret] 2 [secret] 3 [secret]yyzz 4 abc"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}

// TestScrubKeepsPublicKeys: the public half of a key pair is shown
// whole although the private key's lines, which the scrubber knows as
// secrets, are windows onto the same bytes (an RSA private key in
// OpenSSH form carries the public key blob; an EC private key's PEM ends
// with the public point). tls_private_key's RSA public_key_openssh and
// ECDSA public_key_pem were shown with [secret] in the middle. The
// private key itself, and each of its lines echoed on its own, is still
// masked.
func TestScrubKeepsPublicKeys(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsaPriv, err := ssh.MarshalPrivateKey(rsaKey, "")
	if err != nil {
		t.Fatal(err)
	}
	rsaPub, err := ssh.NewPublicKey(&rsaKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalECPrivateKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	ecPubDER, err := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct{ private, public string }{
		"RSA OpenSSH": {string(pem.EncodeToMemory(rsaPriv)), string(ssh.MarshalAuthorizedKey(rsaPub))},
		"ECDSA PEM": {string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: ecDER})),
			string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecPubDER}))},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewScrubber()
			s.Learn(resource.MakeSecret(resource.NewString(tc.private)))
			for _, text := range []string{tc.public, "pub = " + strconv.Quote(tc.public), "<<EOT\n" + tc.public + "EOT\n"} {
				if got := s.Scrub(text); got != text {
					t.Errorf("the public key was scrubbed:\n%s\nwant it whole:\n%s", got, text)
				}
			}
			if got := s.Scrub("key: " + tc.private); got != "key: "+Masked {
				t.Errorf("the private key was not masked: %q", got)
			}
			for _, l := range strings.Split(strings.TrimSpace(tc.private), "\n") {
				for _, text := range []string{"stderr: " + l + "\n", `{"line":"` + l + `\n"}`, "key=" + l + " rest"} {
					if got := s.Scrub(text); strings.Contains(got, l) {
						t.Errorf("a line of the private key was not masked: %q", got)
					}
				}
			}
		})
	}
}
