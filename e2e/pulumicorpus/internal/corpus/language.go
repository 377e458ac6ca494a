//go:build unix

package corpus

import (
	"os"
	"strings"
	"testing"
)

// A language says how the harness runs the programs of one language: the
// prefix of their directory names ("yaml", "js", "ts", "go") picks it.
// Each language registers itself from a file of its own (lang_<name>.go)
// with register, so that adding one touches no other language's file.
type language struct {
	// prepare readies a fresh copy of a program in dir (installs its
	// dependencies), or skips the test saying what is missing. May be nil.
	prepare func(t *testing.T, dir string)
	// path returns directories put first on PATH for plinth and for pulumi
	// (the language host), or skips the test saying what is missing.
	path func(t *testing.T) []string
	// env returns variables both tools see besides the harness's own (a Go
	// cache, npm's home). May be nil.
	env func(t *testing.T) map[string]string
	// live is true when the pulumi CLI can run the language's programs in
	// CI: each test then runs pulumi up beside plinth and checks the
	// expectations against it too. Programs of other languages are
	// recorded (-record) with the language hosts of $PLINTH_CORPUS_HOSTS
	// first on pulumi's PATH.
	live bool
}

// languages maps a directory prefix to its language; filled by register
// from the languages' init functions, read only after.
var languages = map[string]language{}

// register adds a language under its directory prefix.
func register(prefix string, l language) {
	if _, dup := languages[prefix]; dup {
		panic("pulumicorpus: language " + prefix + " registered twice")
	}
	languages[prefix] = l
}

// languageOf returns the language of a program directory name
// ("yaml-protect" is a "yaml" program), failing the test if none is
// registered.
func languageOf(t *testing.T, program string) language {
	t.Helper()
	prefix, _, _ := strings.Cut(program, "-")
	l, ok := languages[prefix]
	if !ok {
		t.Fatalf("testdata/%s: no language registered for prefix %q (register one in e2e/pulumicorpus/internal/corpus/lang_%s.go)", program, prefix, prefix)
	}
	return l
}

// recordHosts is $PLINTH_CORPUS_HOSTS, the directory of locally built
// language hosts pulumi records with, or skips the test when it is unset.
func recordHosts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(hostsEnv)
	if dir == "" {
		t.Skip("-record of a program pulumi cannot run in CI needs " + hostsEnv + ": a directory holding the language host (pulumi-language-nodejs, pulumi-language-go) built from pulumi's source")
	}
	return dir
}
