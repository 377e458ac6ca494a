package runtime_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost/runtime"
)

// TestRequiredPackagesCached: a yaml host is asked which packages the
// program needs once while nothing it reads to answer changes; editing
// the program, adding a .yaml file beneath it (a package declaration),
// changing the runtime options or the host binary asks again, as does
// every run of a program made by a compiler. A cached answer is still
// checked against the plugins installed: one removed fails the run
// before the program starts, without asking the host.
func TestRequiredPackagesCached(t *testing.T) {
	h, p, record := fakeProject(t, "record")
	tmp := filepath.Dir(p.Dir)
	h.Runtime, p.Runtime = "yaml", "yaml"
	h.PackagesCache = filepath.Join(tmp, "cache")
	host := installFake(t, filepath.Join(p.Dir, ".plinth", "plugins"), "yaml")
	random := filepath.Join(tmp, "providers", "pulumi-resource-random")
	writeExec(t, random)
	writeExec(t, filepath.Join(tmp, "providers", "pulumi-resource-terraform-provider"))
	asked := filepath.Join(tmp, "asked")
	environ := h.Environ
	h.Environ = func() []string { return append(environ(), fakeAsked+"="+asked) }
	write := func(rel, text string) func() {
		return func() { writeFile(t, filepath.Join(p.Dir, rel), text) }
	}
	write("Pulumi.yaml", "name: proj\nruntime: yaml\n")()
	steps := []struct {
		name        string
		edit        func()
		wantAsked   int // in all, after the step
		wantMissing bool
	}{
		{name: "first run", wantAsked: 1},
		{name: "nothing changed", wantAsked: 1},
		{name: "the program edited", edit: write("Pulumi.yaml", "name: proj\nruntime: yaml\nresources: {}\n"), wantAsked: 2},
		{name: "unchanged again", wantAsked: 2},
		{name: "a package declaration added", edit: write("sdks/vault.yaml", "packageDeclarationVersion: 1\n"), wantAsked: 3},
		{name: "a file the host does not read", edit: write("notes.txt", "hello"), wantAsked: 3},
		{name: "Main.json added", edit: write("Main.json", "{}"), wantAsked: 4},
		{name: "runtime options changed", edit: func() { p.Options = map[string]any{"toolchain": "uv"} }, wantAsked: 5},
		{name: "another host binary", edit: func() {
			if err := os.Remove(host); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(tmp, "bin")
			installFake(t, bin, "yaml")
			getenv := h.Getenv
			h.Getenv = func(k string) string {
				if k == "PATH" {
					return bin + ":" + getenv(k)
				}
				return getenv(k)
			}
		}, wantAsked: 6},
		{name: "a plugin removed", edit: func() {
			if err := os.Remove(random); err != nil {
				t.Fatal(err)
			}
		}, wantAsked: 6, wantMissing: true},
		{name: "a compiler", edit: func() { writeExec(t, random); p.Options = map[string]any{"compiler": "cat Main.yaml"} }, wantAsked: 7},
		{name: "a compiler, again", wantAsked: 8},
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		_ = os.Remove(record)
		var stdout, stderr bytes.Buffer
		err := h.Run(context.Background(), runRequest(p, &stdout, &stderr))
		_, ran := os.Stat(record)
		var mp *runtime.MissingProviderError
		switch {
		case s.wantMissing && (!errors.As(err, &mp) || ran == nil):
			t.Errorf("%s: Run = %v (program ran: %v), want a MissingProviderError before the program runs", s.name, err, ran == nil)
		case !s.wantMissing && (err != nil || ran != nil):
			t.Errorf("%s: Run = %v (program ran: %v), want it run", s.name, err, ran == nil)
		}
		data, _ := os.ReadFile(asked)
		if diff := cmp.Diff(s.wantAsked, strings.Count(string(data), "\n")); diff != "" {
			t.Errorf("%s: GetRequiredPackages calls in all (-want +got):\n%s", s.name, diff)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRequiredPackagesCachedForYAMLOnly: the files the cache sums are
// those pulumi-language-yaml reads, so another runtime whose host loads
// schemas is asked every run.
func TestRequiredPackagesCachedForYAMLOnly(t *testing.T) {
	runtime.LoadsSchemas["fake"] = true
	t.Cleanup(func() { delete(runtime.LoadsSchemas, "fake") })
	h, p, _ := fakeProject(t, "record")
	tmp := filepath.Dir(p.Dir)
	h.PackagesCache = filepath.Join(tmp, "cache")
	writeExec(t, filepath.Join(tmp, "providers", "pulumi-resource-random"))
	writeExec(t, filepath.Join(tmp, "providers", "pulumi-resource-terraform-provider"))
	asked := filepath.Join(tmp, "asked")
	environ := h.Environ
	h.Environ = func() []string { return append(environ(), fakeAsked+"="+asked) }
	writeFile(t, filepath.Join(p.Dir, "Pulumi.yaml"), "name: proj\nruntime: fake\n")
	for range 2 {
		var stdout, stderr bytes.Buffer
		if err := h.Run(context.Background(), runRequest(p, &stdout, &stderr)); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(asked)
	if got := strings.Count(string(data), "\n"); got != 2 {
		t.Errorf("GetRequiredPackages was asked %d times in two runs, want 2", got)
	}
}
