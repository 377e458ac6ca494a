package pulumi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A transcript records what a scenario did, stage by stage, in a form two
// runs can be compared in: what each command printed, the stack outputs,
// the files the program manages and the state, with what legitimately
// differs from run to run (IDs drawn at random, provider IDs, timestamps,
// ciphertexts, the project directory, the binary serving the provider)
// replaced by placeholders.
type transcript struct {
	p    *project
	norm *normaliser
	b    strings.Builder
}

func newTranscript(p *project) *transcript {
	return &transcript{p: p, norm: newNormaliser(p)}
}

// stage runs one command and records it and what it left behind. It
// returns what the command printed.
func (tr *transcript) stage(name string, args ...string) string {
	t := tr.p.t
	t.Helper()
	r := tr.p.try(args...)
	if r.Code != 0 {
		t.Fatalf("%s: plinth %s: exit %d\nstdout:\n%s\nstderr:\n%s", tr.p.mode.name, strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
	}
	if left := children(pluginBinary); len(left) > 0 {
		t.Errorf("%s: plinth %s left plugin processes running: %v", tr.p.mode.name, strings.Join(args, " "), left)
	}
	snap := tr.p.run("state", "export").Stdout
	tr.norm.learn(t, snap)
	fmt.Fprintf(&tr.b, "=== %s: plinth %s\n%s", name, tr.norm.apply(strings.Join(args, " ")), sortSteps(tr.norm.apply(r.Stdout)))
	if r.Stderr != "" {
		fmt.Fprintf(&tr.b, "--- stderr\n%s", tr.norm.apply(r.Stderr))
	}
	fmt.Fprintf(&tr.b, "--- stack output --json --show-secrets\n%s", tr.norm.apply(tr.p.run("stack", "output", "--json", "--show-secrets").Stdout))
	fmt.Fprintf(&tr.b, "--- files\n%s", tr.files())
	fmt.Fprintf(&tr.b, "--- state\n%s\n", tr.norm.state(t, snap))
	return r.Stdout
}

func (tr *transcript) String() string { return tr.b.String() }

// files lists every file under out/ and data/ with its mode and content.
func (tr *transcript) files() string {
	var b strings.Builder
	for _, dir := range []string{"data", "out"} {
		tr.walk(&b, tr.p.path(dir))
	}
	return b.String()
}

func (tr *transcript) walk(b *strings.Builder, root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			tr.p.t.Fatal(err)
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(tr.p.dir, path)
		fmt.Fprintf(b, "%s %04o %q\n", rel, info.Mode().Perm(), tr.norm.apply(string(data)))
		return nil
	})
}

// sortSteps sorts each run of consecutive step blocks (a step line and
// the property lines under it): independent steps run in parallel, so
// their order carries no meaning.
func sortSteps(out string) string {
	var b strings.Builder
	var run []string
	flush := func() {
		sort.Strings(run)
		for _, s := range run {
			b.WriteString(s)
		}
		run = run[:0]
	}
	for _, line := range strings.SplitAfter(out, "\n") {
		switch {
		case isStepLine(line):
			run = append(run, line)
		case strings.HasPrefix(line, "      ") && len(run) > 0:
			run[len(run)-1] += line
		default:
			flush()
			b.WriteString(line)
		}
	}
	flush()
	return b.String()
}

// isStepLine reports whether a line of plain output is a step: two
// spaces, then an operation marker or the blank marker of a refresh or an
// unchanged resource.
func isStepLine(line string) bool {
	return len(line) > 3 && strings.HasPrefix(line, "  ") && (strings.ContainsRune("+-~=", rune(line[2])) || strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "      "))
}

// normaliser replaces what differs from run to run with placeholders.
type normaliser struct {
	p *project
	// subs are replacements applied in order: longest first.
	subs map[string]string
	seen map[string]int // resource name -> IDs seen
}

func newNormaliser(p *project) *normaliser {
	return &normaliser{p: p, seen: map[string]int{}, subs: map[string]string{
		p.dir:         "<project>",
		p.mode.server: "<server>",
	}}
}

// randomIDs are the types whose IDs plinth draws at random.
var randomIDs = map[string]bool{
	"plinth:random:Pet": true, "plinth:random:String": true,
	"plinth:exec:Command": true, "plinth:time:Sleep": true,
}

// learn notes the random IDs of a state export, numbering each resource's
// IDs in the order they appear: "<pet#1>", then "<pet#2>" once it is
// replaced.
func (n *normaliser) learn(t testing.TB, export string) {
	t.Helper()
	for _, r := range decodeExport(t, export).Resources {
		if !randomIDs[r.Type] && !strings.HasPrefix(r.Type, "pulumi:providers:") {
			continue
		}
		if _, ok := n.subs[r.ID]; ok || r.ID == "" {
			continue
		}
		name := r.URN[strings.LastIndex(r.URN, "::")+2:]
		n.seen[name]++
		n.subs[r.ID] = fmt.Sprintf("<%s#%d>", name, n.seen[name])
	}
}

func (n *normaliser) apply(s string) string {
	olds := make([]string, 0, len(n.subs))
	for k := range n.subs {
		olds = append(olds, k)
	}
	slices.SortFunc(olds, func(a, b string) int { return len(b) - len(a) })
	for _, o := range olds {
		s = strings.ReplaceAll(s, o, n.subs[o])
	}
	return s
}

// exported is the part of a state export the normaliser reads.
type exported struct {
	Resources []struct {
		URN  string `json:"urn"`
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"resources"`
}

func decodeExport(t testing.TB, export string) exported {
	t.Helper()
	var e exported
	if err := json.Unmarshal([]byte(export), &e); err != nil {
		t.Fatalf("state export is not JSON: %v\n%s", err, export)
	}
	return e
}

// secretSig is the key that marks a secret (and other special values).
const secretSig = "4dabf18193072939515e22adb298388d"

// state normalises a state export: placeholders, no timestamps (nor the
// checksum, which covers them), ciphertexts replaced (after checking they are ciphertexts), resources
// sorted by URN, one per line.
func (n *normaliser) state(t testing.TB, export string) string {
	t.Helper()
	var snap map[string]any
	dec := json.NewDecoder(strings.NewReader(n.apply(export)))
	dec.UseNumber()
	if err := dec.Decode(&snap); err != nil {
		t.Fatal(err)
	}
	resources, _ := snap["resources"].([]any)
	lines := make([]string, 0, len(resources)+1)
	for _, r := range resources {
		obj := r.(map[string]any)
		delete(obj, "created")
		delete(obj, "modified")
		lines = append(lines, compact(t, hideCiphertexts(t, obj)))
	}
	sort.Strings(lines)
	delete(snap, "resources")
	delete(snap, "checksum") // covers the timestamps removed above

	return strings.Join(append([]string{compact(t, hideCiphertexts(t, snap))}, lines...), "\n")
}

// hideCiphertexts replaces every secret's ciphertext with a placeholder,
// failing if a secret is held in plain text.
func hideCiphertexts(t testing.TB, v any) any {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[secretSig]; ok {
			if c, ok := v["ciphertext"].(string); ok {
				if !strings.HasPrefix(c, "v1:") {
					t.Errorf("a secret in the state is not encrypted: %v", v)
				}
				v["ciphertext"] = "<ciphertext>"
			}
			if _, ok := v["plaintext"]; ok {
				t.Errorf("a secret in the state is held in plain text: %v", v)
			}
		}
		for k, e := range v {
			v[k] = hideCiphertexts(t, e)
		}
	case []any:
		for i, e := range v {
			v[i] = hideCiphertexts(t, e)
		}
	}
	return v
}

func compact(t testing.TB, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}
