package plinth_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

func TestFileLifecycle(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	abs := filepath.Join(root, "out", "note.txt")

	f := h.create(plinth.FileType, "note", map[string]any{"path": "out/note.txt", "content": "hello", "permissions": "600"})
	want := resource.ObjectFromGo(map[string]any{"path": "out/note.txt", "content": "hello", "permissions": "0600",
		"absolutePath": abs, "size": 5, "sha256": sha("hello")})
	if d := cmp.Diff(want, f.outputs, valueCmp); d != "" || f.id != abs {
		t.Errorf("outputs (-want +got):\n%s\nID %q", d, f.id)
	}
	if got := readString(t, abs); got != "hello" || mode(t, abs) != 0o600 {
		t.Errorf("file %q mode %v", got, mode(t, abs))
	}

	same := h.refresh(f)
	if d := cmp.Diff(f.outputs, same.outputs, valueCmp); d != "" {
		t.Errorf("refresh of an untouched file changed the state (-want +got):\n%s", d)
	}
	args := map[string]any{"path": "out/note.txt", "content": "hello", "permissions": "0600"}
	if _, d := h.up(same, args); d.Changes != provider.DiffNone {
		t.Errorf("no change expected: %+v", d)
	}

	f, d := h.up(f, map[string]any{"path": "out/note.txt", "content": "hello again", "permissions": "0640"})
	if d.Replaces() || !cmp.Equal(d.ChangedKeys, []string{"content", "permissions"}) {
		t.Errorf("content change must update in place: %+v", d)
	}
	if got := readString(t, abs); got != "hello again" || mode(t, abs) != 0o640 || f.outputs["sha256"].Str() != sha("hello again") {
		t.Errorf("after update: %q, mode %v, outputs %v", got, mode(t, abs), f.outputs)
	}

	h.delete(f)
	if _, err := os.Stat(abs); !os.IsNotExist(err) {
		t.Errorf("file still there after Delete: %v", err)
	}
	h.delete(f) // deleting what is already gone is fine
}

func TestFileDriftIsCorrected(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	args := map[string]any{"path": "drift.txt", "content": "mine"}
	f := h.create(plinth.FileType, "d", args)
	abs := f.id

	if err := os.WriteFile(abs, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	refreshed := h.refresh(f)
	if refreshed.outputs["content"].Str() != "theirs" || refreshed.outputs["sha256"].Str() != sha("theirs") {
		t.Errorf("refresh did not notice the edit: %v", refreshed.outputs)
	}
	fixed, d := h.up(refreshed, args)
	if !cmp.Equal(d.ChangedKeys, []string{"content"}) || d.Replaces() {
		t.Errorf("diff after an outside edit: %+v", d)
	}
	if readString(t, abs) != "mine" || fixed.outputs["sha256"].Str() != sha("mine") {
		t.Errorf("update did not restore the content")
	}

	if err := os.Chmod(abs, 0o600); err != nil {
		t.Fatal(err)
	}
	_, d = h.diff(h.refresh(fixed), args)
	if !cmp.Equal(d.ChangedKeys, []string{"permissions"}) {
		t.Errorf("diff after an outside chmod: %+v", d)
	}

	if err := os.Remove(abs); err != nil {
		t.Fatal(err)
	}
	if gone := h.refresh(fixed); gone != nil {
		t.Errorf("refresh of a deleted file = %+v, want gone", gone)
	}
}

func TestFileFromSourceAsset(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	if err := os.WriteFile(filepath.Join(root, "src.txt"), []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	pathAsset := &resource.Asset{Path: "src.txt", Hash: sha("from a file")}
	f := h.create(plinth.FileType, "s", map[string]any{"path": "copy.txt", "source": pathAsset})
	if got := readString(t, f.id); got != "from a file" || f.outputs["sha256"].Str() != sha("from a file") {
		t.Errorf("copy = %q, outputs %v", got, f.outputs)
	}

	if err := os.WriteFile(f.id, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	f2, d := h.up(h.refresh(f), map[string]any{"path": "copy.txt", "source": pathAsset})
	if !cmp.Equal(d.ChangedKeys, []string{"source"}) || d.Replaces() {
		t.Errorf("diff after editing a file made from an asset: %+v", d)
	}
	if readString(t, f2.id) != "from a file" {
		t.Errorf("update did not restore the file")
	}

	text := h.create(plinth.FileType, "t", map[string]any{"path": "text.txt", "source": resource.NewTextAsset("inline")})
	if readString(t, text.id) != "inline" {
		t.Errorf("text asset not written")
	}
}

func TestFilePathChangeReplaces(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	f := h.create(plinth.FileType, "f", map[string]any{"path": "a.txt", "content": "x"})

	moved, d := h.up(f, map[string]any{"path": "b.txt", "content": "x"})
	if !cmp.Equal(d.ReplaceKeys, []string{"path"}) {
		t.Errorf("a new path must replace, creating first: %+v", d)
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); !os.IsNotExist(err) {
		t.Errorf("old file left behind")
	}
	if readString(t, moved.id) != "x" {
		t.Errorf("new file missing")
	}

	// The same file written differently is no change: replacing it would
	// create the new file and then delete it as the old one.
	same, d := h.up(moved, map[string]any{"path": filepath.Join(root, "b.txt"), "content": "x"})
	if d.Changes != provider.DiffNone || same.id != moved.id {
		t.Errorf("same absolute path: %+v", d)
	}
	if readString(t, same.id) != "x" {
		t.Errorf("file missing")
	}
}

func TestFileCheck(t *testing.T) {
	h := newHarness(t, t.TempDir())
	tests := map[string]struct {
		args map[string]any
		want []provider.CheckFailure
	}{
		"both":    {map[string]any{"path": "a", "content": "x", "source": resource.NewTextAsset("y")}, []provider.CheckFailure{{Property: "source", Reason: "set either content or source, not both"}}},
		"neither": {map[string]any{"path": "a"}, []provider.CheckFailure{{Property: "content", Reason: "set content (text) or source (an asset)"}}},
		"mode":    {map[string]any{"path": "a", "content": "", "permissions": "0999"}, []provider.CheckFailure{{Property: "permissions", Reason: `"0999" is not a file mode: write it in octal, between "0000" and "0777", such as "0644"`}}},
		"path":    {map[string]any{"path": "", "content": "x"}, []provider.CheckFailure{{Property: "path", Reason: "must not be empty"}}},
		"valid":   {map[string]any{"path": "a", "content": ""}, nil},
	}
	for name, tc := range tests {
		if d := cmp.Diff(tc.want, h.failures(plinth.FileType, tc.args)); d != "" {
			t.Errorf("%s: failures (-want +got):\n%s", name, d)
		}
	}
}

func TestFilePreview(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	got := h.preview(plinth.FileType, resource.ObjectFromGo(map[string]any{"path": "p.txt", "content": "abc"}))
	want := resource.ObjectFromGo(map[string]any{"path": "p.txt", "content": "abc", "permissions": "0644",
		"absolutePath": filepath.Join(root, "p.txt"), "size": 3, "sha256": sha("abc")})
	if d := cmp.Diff(want, got, valueCmp); d != "" {
		t.Errorf("preview (-want +got):\n%s", d)
	}
	got = h.preview(plinth.FileType, resource.Object{"path": resource.Unknown(), "content": resource.MakeSecret(resource.Unknown())})
	for _, k := range []string{"path", "absolutePath", "size", "sha256"} {
		if !got[k].IsUnknown() {
			t.Errorf("%s = %v, want unknown", k, got[k])
		}
	}
	if _, err := os.Stat(filepath.Join(root, "p.txt")); !os.IsNotExist(err) {
		t.Errorf("a preview wrote the file")
	}
}

func TestFileSecretContentStaysSecret(t *testing.T) {
	h := newHarness(t, t.TempDir())
	f, err := h.tryCreate(plinth.FileType, "s", resource.Object{"path": resource.NewString("s.txt"), "content": resource.MakeSecret(resource.NewString("pw"))})
	if err != nil {
		t.Fatal(err)
	}
	if !f.outputs["content"].IsSecret() {
		t.Errorf("content output = %v, want a secret", f.outputs["content"])
	}
	if err := os.WriteFile(f.id, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := h.refresh(f); !r.outputs["content"].IsSecret() || !r.inputs["content"].IsSecret() {
		t.Errorf("refreshed content lost its secret mark: %v", r.outputs["content"])
	}
}

func TestFileImport(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	path := filepath.Join(root, "existing.txt")
	if err := os.WriteFile(path, []byte("already here"), 0o640); err != nil {
		t.Fatal(err)
	}
	resp, err := h.p.Read(h.ctx, provider.ReadRequest{URN: urnOf(plinth.FileType, "i"), ID: path})
	if err != nil {
		t.Fatal(err)
	}
	wantInputs := resource.ObjectFromGo(map[string]any{"path": path, "content": "already here", "permissions": "0640"})
	if d := cmp.Diff(wantInputs, resp.Inputs, valueCmp); d != "" || resp.ID != path {
		t.Errorf("imported inputs (-want +got):\n%s", d)
	}
	imported := &res{urn: urnOf(plinth.FileType, "i"), id: resp.ID, inputs: resp.Inputs, outputs: resp.Outputs}
	if _, d := h.diff(imported, map[string]any{"path": "existing.txt", "content": "already here", "permissions": "0640"}); d.Changes != provider.DiffNone {
		t.Errorf("a program matching the imported file must show no diff: %+v", d)
	}
}

func TestReadFileFunction(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	if err := os.WriteFile(filepath.Join(root, "in.txt"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := h.invoke(plinth.ReadFileToken, map[string]any{"path": "in.txt"})
	want := resource.ObjectFromGo(map[string]any{"content": "data", "size": 4, "sha256": sha("data")})
	if d := cmp.Diff(want, got.Return, valueCmp); d != "" {
		t.Errorf("readFile (-want +got):\n%s", d)
	}
	_, err := h.p.Invoke(h.ctx, provider.InvokeRequest{Token: plinth.ReadFileToken, Args: resource.ObjectFromGo(map[string]any{"path": "missing.txt"})})
	if err == nil {
		t.Error("reading a missing file succeeded")
	}
}

func TestGetEnvFunction(t *testing.T) {
	t.Setenv("PLINTH_TEST_VAR", "set")
	h := newHarness(t, "")
	tests := map[string]struct {
		args map[string]any
		want map[string]any
	}{
		"set":             {map[string]any{"name": "PLINTH_TEST_VAR", "default": "d"}, map[string]any{"value": "set", "exists": true}},
		"unset, default":  {map[string]any{"name": "PLINTH_TEST_UNSET", "default": "d"}, map[string]any{"value": "d", "exists": false}},
		"unset, no value": {map[string]any{"name": "PLINTH_TEST_UNSET"}, map[string]any{"value": "", "exists": false}},
	}
	for name, tc := range tests {
		if d := cmp.Diff(resource.ObjectFromGo(tc.want), h.invoke(plinth.GetEnvToken, tc.args).Return, valueCmp); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
}

func TestRootMustBeADirectory(t *testing.T) {
	p := plinth.New()
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := p.Configure(t.Context(), provider.ConfigureRequest{Inputs: resource.ObjectFromGo(map[string]any{"root": file})})
	if err == nil {
		t.Error("a file as root was accepted")
	}
}
