package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/install/registrytest"
	"github.com/plinth-iac/plinth/internal/plugin"
)

// fakePlugin writes an executable standing in for a plugin binary.
func fakePlugin(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho fake\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPluginInstallLayout: the tarball from the server is unpacked into
// Pulumi's cache as resource-NAME-vVERSION with its .lock file beside it
// and no .partial marker, the plugin finder finds it there, and a second
// install downloads nothing.
func TestPluginInstallLayout(t *testing.T) {
	for name, checksums := range map[string]bool{"with checksums": true, "without": false} {
		t.Run(name, func(t *testing.T) {
			srv := registrytest.NewPluginServer(t, "echo", "1.2.3", fakePlugin(t))
			srv.Checksums = checksums
			home := t.TempDir()
			cache := filepath.Join(home, "plugins")
			var out strings.Builder
			in := &PluginInstaller{Dir: cache, Registry: &Registry{}, Out: &out}
			spec := PluginSpec{Kind: "resource", Name: "echo", Version: "v1.2.3", Server: srv.URL}
			dir, err := in.Install(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"resource-echo-v1.2.3", "resource-echo-v1.2.3.lock"}, entries(t, cache)); diff != "" {
				t.Errorf("cache (-want +got):\n%s", diff)
			}
			wantCheck := map[bool]string{true: "(checksum verified)", false: "(no checksums published)"}[checksums]
			if !strings.Contains(out.String(), wantCheck) {
				t.Errorf("output does not say %q:\n%s", wantCheck, out.String())
			}
			p, err := (&plugin.Finder{Env: plugin.Env{Getenv: func(k string) string {
				return map[string]string{"PULUMI_HOME": home}[k]
			}}}).Find(context.Background(), plugin.Request{Name: "echo", Version: "1.2.3"})
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, "pulumi-resource-echo"); p.Path != want || p.Version != "1.2.3" || p.Origin != plugin.OriginPulumi {
				t.Errorf("the finder found %s v%s (%s), want %s v1.2.3 in Pulumi's cache", p.Path, p.Version, p.Origin, want)
			}
			before := len(srv.Requests())
			if _, err := in.Install(context.Background(), spec); err != nil {
				t.Fatal(err)
			}
			if len(srv.Requests()) != before {
				t.Errorf("a second install asked the server again: %v", srv.Requests()[before:])
			}
		})
	}
}

func entries(t *testing.T, dir string) []string {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestPluginInstallRefusals: each bad spec or bad release is refused
// saying what is wrong, and nothing is installed.
func TestPluginInstallRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		spec   func(url string) PluginSpec
		break_ func(s *registrytest.PluginServer)
		want   []string
		is     error
	}{
		"kind":            {spec: func(u string) PluginSpec { return PluginSpec{"language", "echo", "1.2.3", u} }, want: []string{`plugin kind "language": plinth installs resource plugins`}},
		"name":            {spec: func(u string) PluginSpec { return PluginSpec{"resource", "../echo", "1.2.3", u} }, want: []string{`plugin name "../echo"`}},
		"range":           {spec: func(u string) PluginSpec { return PluginSpec{"resource", "echo", ">= 1.0", u} }, want: []string{`give an exact version`}},
		"server":          {spec: func(string) PluginSpec { return PluginSpec{"resource", "echo", "1.2.3", "ftp://x"} }, want: []string{`give an http:// or https:// URL`}},
		"no such version": {spec: func(u string) PluginSpec { return PluginSpec{"resource", "echo", "9.9.9", u} }, want: []string{"pulumi-resource-echo-v9.9.9-", "404", "nothing was installed"}},
		"bad checksum": {break_: func(s *registrytest.PluginServer) { s.Checksums, s.BadChecksum = true, true },
			want: []string{"but http://", "lists 0000", "changed or corrupted"}},
		"no binary":   {break_: func(s *registrytest.PluginServer) { s.NoBinary = true }, want: []string{"holds no executable pulumi-resource-echo"}},
		"unreachable": {break_: func(s *registrytest.PluginServer) { s.Close() }, want: []string{"could not reach 127.0.0.1:", "--server"}, is: ErrUnreachable},
	} {
		t.Run(name, func(t *testing.T) {
			srv := registrytest.NewPluginServer(t, "echo", "1.2.3", fakePlugin(t))
			spec := PluginSpec{"resource", "echo", "1.2.3", srv.URL}
			if tc.spec != nil {
				spec = tc.spec(srv.URL)
			}
			if tc.break_ != nil {
				tc.break_(srv)
			}
			cache := filepath.Join(t.TempDir(), "plugins")
			in := &PluginInstaller{Dir: cache, Registry: &Registry{Offline: PulumiOffline}}
			_, err := in.Install(context.Background(), spec)
			if err == nil {
				t.Fatal("installed; want a refusal")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if _, err := os.Stat(filepath.Join(cache, spec.DirName())); err == nil {
				t.Errorf("the plugin directory was made")
			}
			if files := filesUnder(t, cache); len(files) > 1 {
				t.Errorf("left behind %v", files)
			}
		})
	}
}
