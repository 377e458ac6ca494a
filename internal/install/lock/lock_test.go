package lock

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The text Terraform 1.11 writes for two providers: the header, a blank
// line before each block sorted by address, aligned single-line
// attributes, hashes one a line sorted.
const twoProviders = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/random" {
  version     = "3.6.3"
  constraints = "~> 3.6"
  hashes = [
    "h1:aaa=",
    "zh:01",
    "zh:02",
  ]
}

provider "registry.terraform.io/hashicorp/time" {
  version = "0.14.1"
  hashes = [
    "h1:bbb=",
  ]
}
`

func TestBytesIsTerraformsFormat(t *testing.T) {
	f := &File{Providers: map[string]Provider{
		"registry.terraform.io/hashicorp/time": {Address: "registry.terraform.io/hashicorp/time", Version: "0.14.1",
			Hashes: []string{"h1:bbb="}},
		"registry.terraform.io/hashicorp/random": {Address: "registry.terraform.io/hashicorp/random", Version: "3.6.3",
			Constraints: "~> 3.6", Hashes: []string{"zh:02", "h1:aaa=", "zh:01", "zh:02"}},
	}}
	if diff := cmp.Diff(twoProviders, string(f.Bytes())); diff != "" {
		t.Fatalf("lock file text (-want +got):\n%s", diff)
	}
}

func TestParseRoundTrips(t *testing.T) {
	f, err := Parse("x.hcl", []byte(twoProviders))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Provider{
		"registry.terraform.io/hashicorp/random": {Address: "registry.terraform.io/hashicorp/random", Version: "3.6.3",
			Constraints: "~> 3.6", Hashes: []string{"h1:aaa=", "zh:01", "zh:02"}},
		"registry.terraform.io/hashicorp/time": {Address: "registry.terraform.io/hashicorp/time", Version: "0.14.1",
			Hashes: []string{"h1:bbb="}},
	}
	if diff := cmp.Diff(want, f.Providers); diff != "" {
		t.Fatalf("parsed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(twoProviders, string(f.Bytes())); diff != "" {
		t.Fatalf("rewritten (-want +got):\n%s", diff)
	}
}

func TestParseRefusesBadFiles(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"syntax":       {`provider "a/b" {`, "invalid dependency lock file"},
		"no version":   {`provider "a/b" {}` + "\n", `"version" is required`},
		"hashes type":  {`provider "a/b" { ` + "\n" + `version = "1.0.0"` + "\n" + `hashes = "x"` + "\n}\n", "must be a list of strings"},
		"locked twice": {"provider \"a/b\" {\nversion = \"1\"\n}\nprovider \"a/b\" {\nversion = \"2\"\n}\n", "locked twice"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("x.hcl", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestReadMissingIsEmpty(t *testing.T) {
	f, err := Read(filepath.Join(t.TempDir(), FileName))
	if err != nil || len(f.Providers) != 0 {
		t.Fatalf("Read of a missing file = %v, %v; want an empty lock", f, err)
	}
}

// TestHashDirMatchesHashZip: the h1 of a zip and of its unpacked files
// agree, which is what lets a lock entry made from either check the
// other.
func TestHashDirMatchesHashZip(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	zpath := filepath.Join(t.TempDir(), "p.zip")
	zf, _ := os.Create(zpath)
	zw := zip.NewWriter(zf)
	w, _ := zw.Create("a")
	w.Write([]byte("hi\n"))
	zw.Close()
	zf.Close()
	hd, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	hz, err := HashZip(zpath)
	if err != nil {
		t.Fatal(err)
	}
	if hd != hz || !strings.HasPrefix(hd, "h1:") {
		t.Fatalf("HashDir %s, HashZip %s: want equal h1: hashes", hd, hz)
	}
}

// FuzzParse: whatever Parse accepts, Bytes writes so that Parse reads
// the same entries back (hashes sorted and once each).
func FuzzParse(f *testing.F) {
	f.Add([]byte(twoProviders))
	f.Add([]byte("provider \"a/b\" {\n  version = \"1\"\n  hashes = [\"zh:2\", \"zh:1\", \"zh:1\"]\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		first, err := Parse("f.hcl", src)
		if err != nil {
			return
		}
		second, err := Parse("f.hcl", first.Bytes())
		if err != nil {
			t.Fatalf("Parse of Bytes: %v\n%s", err, first.Bytes())
		}
		for a, p := range first.Providers {
			p.Hashes = slices.Compact(slices.Sorted(slices.Values(p.Hashes)))
			first.Providers[a] = p
		}
		if diff := cmp.Diff(first.Providers, second.Providers, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}

// TestHashDirSumsMatchesHashDir: the h1: hash built from file sums is
// HashDir's, whether sum knows a file or not, for a package with several
// files and a subdirectory; a sum that lies is believed (the caller keeps
// sums only of files unchanged since they were hashed).
func TestHashDirSumsMatchesHashDir(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"terraform-provider-x": "binary", "LICENSE": "text\n", "docs/README": "more"} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(dir, "terraform-provider-x")
	known, _ := FileSum(binary)
	tests := map[string]struct {
		sum  func(string) string
		same bool
	}{
		"no sums known":   {sum: func(string) string { return "" }, same: true},
		"binary's known":  {sum: func(p string) string { return map[string]string{binary: known}[p] }, same: true},
		"a sum that lies": {sum: func(p string) string { return map[string]string{binary: strings.Repeat("0", 64)}[p] }, same: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := HashDirSums(dir, tc.sum)
			if err != nil {
				t.Fatal(err)
			}
			if (got == want) != tc.same {
				t.Errorf("HashDirSums = %s, HashDir = %s; want equal: %v", got, want, tc.same)
			}
		})
	}
}
