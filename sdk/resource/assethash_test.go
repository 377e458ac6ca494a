package resource

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWithHashes: assets without a hash get the hash of what they hold,
// a relative path read against the directory given, inside objects,
// arrays and secrets; the value given is left as it was; a missing file
// is an error.
func TestWithHashes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := NewObject(Object{
		"file": NewAsset(&Asset{Path: "f.txt"}),
		"list": NewArray(MakeSecret(NewAsset(&Asset{Text: "two"}))),
	})
	out, err := WithHashes(in, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Object()["file"].Asset().Hash, hashBytes([]byte("one")); got != want {
		t.Errorf("file asset hash %q, want %q", got, want)
	}
	if got, want := out.Object()["list"].Array()[0].SecretElement().Asset().Hash, hashBytes([]byte("two")); got != want {
		t.Errorf("text asset in a secret in an array: hash %q, want %q", got, want)
	}
	if out.Object()["file"].Asset().Path != "f.txt" {
		t.Errorf("the asset's path became %q; it stays as the program gave it", out.Object()["file"].Asset().Path)
	}
	if in.Object()["file"].Asset().Hash != "" {
		t.Error("WithHashes changed the value it was given")
	}
	plain := NewObject(Object{"n": NewNumber(1)})
	if same, err := WithHashes(plain, dir); err != nil || !same.Equal(plain) {
		t.Errorf("a value without assets came back %v (%v)", same, err)
	}
	if _, err := WithHashes(NewAsset(&Asset{Path: "missing.txt"}), dir); err == nil {
		t.Error("an asset whose file is missing hashed without error")
	}
}
