package modbuild

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestCached: the first call builds the module's command into the cache
// directory and the calls made beside it wait and find it; a later call
// finds it without building; a module that does not compile is an error
// naming the command and quoting the compiler, and leaves no binary.
func TestCached(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go build")
	}
	good := Spec{
		Name: "the hello command", Version: "v1", Dir: t.TempDir(), Binary: "hello", Package: ".",
		Module: map[string][]byte{
			"go.mod":  []byte("module example.com/hello\n\ngo 1.21\n"),
			"main.go": []byte("package main\n\nfunc main() { println(\"hello\") }\n"),
		},
	}
	var wg sync.WaitGroup
	bins, errs := make([]string, 3), make([]error, 3)
	for i := range bins {
		wg.Add(1)
		go func() { defer wg.Done(); bins[i], errs[i] = Cached(context.Background(), good) }()
	}
	wg.Wait()
	want := filepath.Join(good.Dir, "hello")
	for i := range bins {
		if errs[i] != nil || bins[i] != want {
			t.Fatalf("Cached = %q, %v; want %q", bins[i], errs[i], want)
		}
	}
	info, err := os.Stat(want)
	if err != nil {
		t.Fatal(err)
	}
	// Found, not built again: a module that cannot build is not looked at.
	again := good
	again.Module = map[string][]byte{"go.mod": []byte("not a go.mod")}
	if bin, err := Cached(context.Background(), again); err != nil || bin != want {
		t.Fatalf("second Cached = %q, %v; want %q found", bin, err, want)
	}
	if later, _ := os.Stat(want); !later.ModTime().Equal(info.ModTime()) {
		t.Error("the binary was built again")
	}

	bad := good
	bad.Dir = t.TempDir()
	bad.Module = map[string][]byte{
		"go.mod":  good.Module["go.mod"],
		"main.go": []byte("package main\n\nfunc main() { undefinedThing() }\n"),
	}
	_, err = Cached(context.Background(), bad)
	if err == nil || !strings.Contains(err.Error(), "the hello command v1 could not be built") || !strings.Contains(err.Error(), "undefinedThing") {
		t.Errorf("a module that does not compile: %v", err)
	}
	if IsFile(filepath.Join(bad.Dir, "hello")) {
		t.Error("a failed build left a binary")
	}
}
