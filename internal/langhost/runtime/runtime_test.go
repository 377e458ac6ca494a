package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/langhost"
	"github.com/plinth-iac/plinth/internal/langhost/runtime"
	"github.com/plinth-iac/plinth/internal/plugin"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeMode); mode != "" {
		serveFake(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// installFake puts this test binary into dir as pulumi-language-<rt>.
func installFake(t *testing.T, dir, rt string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, runtime.Binary(rt))
	if err := os.Symlink(self, path); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeExec(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	tests := map[string]struct {
		files []string // relative to a temp dir: project/, home/, path/
		want  string
	}{
		"project plugins first": {
			files: []string{"project/.plinth/plugins/pulumi-language-yaml", "path/pulumi-language-yaml", "home/.pulumi/plugins/language-yaml-v1.0.0/pulumi-language-yaml"},
			want:  "project/.plinth/plugins/pulumi-language-yaml",
		},
		"then PATH": {
			files: []string{"path/pulumi-language-yaml", "home/.pulumi/plugins/language-yaml-v1.0.0/pulumi-language-yaml"},
			want:  "path/pulumi-language-yaml",
		},
		"then the newest in Pulumi's cache": {
			files: []string{"home/.pulumi/plugins/language-yaml-v1.10.0/pulumi-language-yaml", "home/.pulumi/plugins/language-yaml-v1.9.0/pulumi-language-yaml",
				"home/.pulumi/plugins/language-python-v3.0.0/pulumi-language-python"},
			want: "home/.pulumi/plugins/language-yaml-v1.10.0/pulumi-language-yaml",
		},
		"a provider of the same name is not a language host": {
			files: []string{"project/.plinth/plugins/pulumi-resource-yaml", "path/pulumi-language-yaml"},
			want:  "path/pulumi-language-yaml",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			for _, f := range tt.files {
				writeExec(t, filepath.Join(tmp, f))
			}
			f := runtime.Finder{Env: envIn(tmp)}
			got, err := f.Find("yaml")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(filepath.Join(tmp, tt.want), got); diff != "" {
				t.Errorf("Find (-want +got):\n%s", diff)
			}
		})
	}
}

// envIn is a plugin environment of a project, home and PATH under tmp.
func envIn(tmp string) plugin.Env {
	vars := map[string]string{"PATH": filepath.Join(tmp, "path")}
	return plugin.Env{ProjectDir: filepath.Join(tmp, "project"), Home: filepath.Join(tmp, "home"), Getenv: func(k string) string { return vars[k] }}
}

func TestMissingHostSaysWhereAndWhat(t *testing.T) {
	tmp := t.TempDir()
	_, err := runtime.Finder{Env: envIn(tmp)}.Find("python")
	var missing *runtime.MissingHostError
	if !errors.As(err, &missing) {
		t.Fatalf("Find = %v, want a MissingHostError", err)
	}
	msg := err.Error()
	for _, want := range []string{`runtime "python"`, "pulumi-language-python", filepath.Join(tmp, "project", ".plinth", "plugins"),
		filepath.Join(tmp, "home", ".pulumi", "plugins"), "PATH", "ships with the Pulumi CLI"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not mention %q:\n%s", want, msg)
		}
	}
}

// fakeProject is a project whose runtime is "fake", with the fake host
// in its .plinth/plugins and a Pulumi provider beside it.
func fakeProject(t *testing.T, mode string) (*runtime.Host, *langhost.Project, string) {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "project")
	installFake(t, filepath.Join(dir, ".plinth", "plugins"), "fake")
	writeExec(t, filepath.Join(tmp, "providers", "pulumi-resource-echo"))
	record := filepath.Join(tmp, "record.json")
	vars := map[string]string{"PATH": "/usr/bin", "PLINTH_PLUGIN_PATH": filepath.Join(tmp, "providers"),
		"PLINTH_PLUGIN_HANDSHAKE_TIMEOUT": "2s"}
	h := &runtime.Host{Runtime: "fake", Home: filepath.Join(tmp, "home"),
		Getenv:  func(k string) string { return vars[k] },
		Environ: func() []string { return []string{fakeMode + "=" + mode, fakeRecord + "=" + record, "PATH=/bin"} }}
	p := &langhost.Project{Name: "proj", Runtime: "fake", Dir: dir, File: filepath.Join(dir, "Pulumi.yaml"),
		Options: map[string]any{"toolchain": "pip", "n": 2.0}}
	return h, p, record
}

func runRequest(p *langhost.Project, stdout, stderr *bytes.Buffer) langhost.RunRequest {
	return langhost.RunRequest{Project: p, Stack: "dev", Organization: "organization",
		MonitorAddr: "127.0.0.1:1111", EngineAddr: "127.0.0.1:2222",
		Config: map[string]string{"proj:name": "x", "proj:token": "s3cret"}, SecretKeys: []string{"proj:token"},
		DryRun: true, Parallel: 8, Stdout: stdout, Stderr: stderr}
}

func TestRunPassesTheRequest(t *testing.T) {
	h, p, record := fakeProject(t, "record")
	var stdout, stderr bytes.Buffer
	if err := h.Run(context.Background(), runRequest(p, &stdout, &stderr)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var got recorded
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Dir(p.Dir)
	want := recorded{Args: []string{"127.0.0.1:2222"}, Path: filepath.Join(tmp, "providers") + ":/usr/bin",
		Handshake: handshake{Engine: "127.0.0.1:2222", Root: p.Dir, Program: p.Dir},
		Monitor:   "127.0.0.1:1111", Project: "proj", Stack: "dev", Organization: "organization",
		Config: map[string]string{"proj:name": "x", "proj:token": "s3cret"}, SecretKeys: []string{"proj:token"},
		DryRun: true, Parallel: 8, Root: p.Dir, ProgramDir: p.Dir, EntryPoint: ".",
		Options: map[string]any{"toolchain": "pip", "n": 2.0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the request the host got (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("hello from the program\n", stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("a warning from the program\n", stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}

func TestInfoFollowsMain(t *testing.T) {
	dir := t.TempDir()
	writeExec(t, filepath.Join(dir, "src", "main.py"))
	tests := map[string]struct {
		main string
		want runtime.ProgramInfo
	}{
		"none":      {"", runtime.ProgramInfo{RootDir: dir, ProgramDir: dir, EntryPoint: "."}},
		"directory": {"src", runtime.ProgramInfo{RootDir: dir, ProgramDir: filepath.Join(dir, "src"), EntryPoint: "."}},
		"file":      {"src/main.py", runtime.ProgramInfo{RootDir: dir, ProgramDir: filepath.Join(dir, "src"), EntryPoint: "main.py"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := runtime.Info(&langhost.Project{Dir: dir, Main: tt.main})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Info (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunFailures(t *testing.T) {
	tests := map[string]struct {
		mode string
		want []string // each in the error
		is   error
	}{
		"a program error":                   {mode: "error", want: []string{"the fake program in", "failed: index.py line 3: boom"}},
		"a program that reported its error": {mode: "bail", is: runtime.ErrBail},
		"a host that crashes during Run":    {mode: "crash", want: []string{"fake language host", "crashed during Run", "exit status 2", "panic: fake crash in Run"}},
		"a host that exits at start":        {mode: "exit", want: []string{"did not start", "exited (exit status 3)", "fake: cannot start, no interpreter"}},
		"a host that never prints a port":   {mode: "silent", want: []string{"did not print its port within 2s", "fake: thinking"}},
		"a host that never answers":         {mode: "mute", want: []string{"did not answer Handshake within 2s", "fake: waiting for something"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h, p, _ := fakeProject(t, tt.mode)
			var stdout, stderr bytes.Buffer
			err := h.Run(context.Background(), runRequest(p, &stdout, &stderr))
			if err == nil {
				t.Fatal("Run succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Run = %v, want %v", err, tt.is)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestRunInterrupted(t *testing.T) {
	h, p, _ := fakeProject(t, "hang")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	err := h.Run(ctx, runRequest(p, &stdout, &stderr))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	// The host ignores the cancellation: Close must end it (SIGTERM) in
	// well under its minute of sleep.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %s to end after the interrupt", d)
	}
}

func TestRequiredPackagesAndInstall(t *testing.T) {
	tests := map[string]struct {
		mode string
		want []runtime.Package
	}{
		"GetRequiredPackages": {mode: "record", want: []runtime.Package{{Name: "random", Version: "4.16.0"},
			{Name: "vault", Version: "4.6.0", Parameterized: true, Base: "terraform-provider"}}},
		"GetRequiredPlugins for an older host": {mode: "old", want: []runtime.Package{{Name: "random", Version: "4.16.0", Server: "https://example.invalid"}}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h, p, _ := fakeProject(t, tt.mode)
			ctx := context.Background()
			c, err := h.Start(ctx, p, "127.0.0.1:2222", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got, err := c.RequiredPackages(ctx, runtime.Info(p))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RequiredPackages (-want +got):\n%s", diff)
			}
			var stdout, stderr bytes.Buffer
			if err := c.InstallDependencies(ctx, runtime.Info(p), &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("installing in "+p.Dir+"\n", stdout.String()); diff != "" {
				t.Errorf("InstallDependencies stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff("a warning\n", stderr.String()); diff != "" {
				t.Errorf("InstallDependencies stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// TestYAMLHostNeedsProviderPlugins: for a runtime whose host loads
// schemas itself, a package the program uses whose plugin the host would
// not find fails the run before the program starts, naming the packages
// and the fix; a plugin plinth finds, or one the project file names, is
// enough.
func TestYAMLHostNeedsProviderPlugins(t *testing.T) {
	tests := map[string]struct {
		random  bool   // pulumi-resource-random among plinth's plugins
		named   string // a provider plugin named in Pulumi.yaml
		missing string // "" if the program must run
	}{
		"none":        {missing: `package "random" and package "terraform-provider" (pulumi-resource-random, pulumi-resource-terraform-provider)`},
		"one":         {random: true, missing: `package "terraform-provider" (pulumi-resource-terraform-provider)`},
		"in the file": {random: true, named: "terraform-provider"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			h, p, record := fakeProject(t, "record")
			tmp := filepath.Dir(p.Dir)
			h.Runtime, p.Runtime = "yaml", "yaml"
			installFake(t, filepath.Join(p.Dir, ".plinth", "plugins"), "yaml")
			if tt.random {
				writeExec(t, filepath.Join(tmp, "providers", "pulumi-resource-random"))
			}
			if tt.named != "" {
				p.ProviderPlugins = map[string]string{tt.named: filepath.Join(tmp, "elsewhere")}
			}
			var stdout, stderr bytes.Buffer
			err := h.Run(context.Background(), runRequest(p, &stdout, &stderr))
			_, ran := os.Stat(record)
			if tt.missing == "" {
				if err != nil || ran != nil {
					t.Fatalf("Run = %v (program ran: %v), want it run", err, ran == nil)
				}
				return
			}
			var mp *runtime.MissingProviderError
			if !errors.As(err, &mp) {
				t.Fatalf("Run = %v, want a MissingProviderError", err)
			}
			for _, want := range []string{tt.missing, filepath.Join(p.Dir, ".plinth", "plugins"), "PLINTH_PLUGIN_PATH", "plugins: providers:"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q:\n%v", want, err)
				}
			}
			if ran == nil {
				t.Error("the program ran")
			}
		})
	}
}

// TestAnErrorIsNotACrash: a host that answers a call with an error is
// alive: the error says what it answered, at once, without waiting to
// see whether it exits.
func TestAnErrorIsNotACrash(t *testing.T) {
	h, p, _ := fakeProject(t, "refuse")
	ctx := context.Background()
	c, err := h.Start(ctx, p, "127.0.0.1:2222", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.RequiredPackages(ctx, runtime.Info(p))
	if err == nil || !strings.Contains(err.Error(), "GetRequiredPackages failed: Pulumi.yaml:3: the program is not valid") {
		t.Errorf("RequiredPackages = %v, want the host's answer", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the error took %s", d)
	}
}
