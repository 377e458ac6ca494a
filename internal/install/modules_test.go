package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/install/registrytest"
)

func TestSplitSubdir(t *testing.T) {
	tests := map[string]struct{ pkg, subdir string }{
		"git::file:///r/m.git":                   {"git::file:///r/m.git", ""},
		"git::file:///r/m.git//pet?ref=v1":       {"git::file:///r/m.git?ref=v1", "pet"},
		"git::https://h/m.git//a/b/":             {"git::https://h/m.git", "a/b"},
		"https://h/m.tar.gz//sub?archive=tar.gz": {"https://h/m.tar.gz?archive=tar.gz", "sub"},
		"https://h/x?u=https://other//y":         {"https://h/x?u=https://other//y", ""},
	}
	for in, want := range tests {
		pkg, subdir := splitSubdir(in)
		if diff := cmp.Diff(want, struct{ pkg, subdir string }{pkg, subdir}, cmp.AllowUnexported(want)); diff != "" {
			t.Errorf("splitSubdir(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestParseModuleSource(t *testing.T) {
	tests := map[string]struct {
		recorded string
		wantErr  string
	}{
		"hashicorp/consul/aws":                   {recorded: "registry.terraform.io/hashicorp/consul/aws"},
		"reg.example.com/ns/name/aws//modules/x": {recorded: "reg.example.com/ns/name/aws//modules/x"},
		"git::https://example.com/m.git?ref=v1":  {recorded: "git::https://example.com/m.git?ref=v1"},
		"https://example.com/m.zip":              {recorded: "https://example.com/m.zip"},
		"s3::https://bucket/m.zip":               {wantErr: "plinth installs local paths"},
		"not a source":                           {wantErr: "neither a local path"},
	}
	for in, tc := range tests {
		src, err := parseModuleSource(in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("parseModuleSource(%q) = %v, want an error saying %q", in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseModuleSource(%q): %v", in, err)
			continue
		}
		if got := src.recorded(); got != tc.recorded {
			t.Errorf("parseModuleSource(%q) records %q, want %q", in, got, tc.recorded)
		}
	}
}

// tarGzOf archives headers (a regular file's content is "x").
func tarGzOf(t *testing.T, hdrs ...*tar.Header) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range hdrs {
		if h.Typeflag == tar.TypeReg {
			h.Size, h.Mode = 1, 0o644
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte("x"))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return &buf
}

// TestUntar: a module archive cannot write or link outside the module's
// directory; git archive's pax global header is skipped and links inside
// the module are kept.
func TestUntar(t *testing.T) {
	tests := map[string]struct {
		hdrs    []*tar.Header
		wantErr string
		want    []string // files, links as NAME->TARGET
	}{
		"dot dot":       {hdrs: []*tar.Header{{Name: "../evil.tf", Typeflag: tar.TypeReg}}, wantErr: "outside the module directory"},
		"absolute":      {hdrs: []*tar.Header{{Name: "/abs.tf", Typeflag: tar.TypeReg}}, wantErr: "outside the module directory"},
		"dot dot later": {hdrs: []*tar.Header{{Name: "a/../../evil.tf", Typeflag: tar.TypeReg}}, wantErr: "outside the module directory"},
		"link out":      {hdrs: []*tar.Header{{Name: "a/l", Typeflag: tar.TypeSymlink, Linkname: "../../etc"}}, wantErr: "a link"},
		"absolute link": {hdrs: []*tar.Header{{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}, wantErr: "a link"},
		"hard link":     {hdrs: []*tar.Header{{Name: "h", Typeflag: tar.TypeLink, Linkname: "main.tf"}}, wantErr: "neither a file"},
		"git archive": {hdrs: []*tar.Header{
			{Name: "pax_global_header", Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": "abc"}},
			{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755},
			{Name: "./mod/main.tf", Typeflag: tar.TypeReg},
			{Name: "mod/variables.tf", Typeflag: tar.TypeSymlink, Linkname: "main.tf"},
		}, want: []string{"mod/main.tf", "mod/variables.tf->main.tf"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "m")
			err := untarGz(tarGzOf(t, tc.hdrs...), dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("untarGz: %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				rel, _ := filepath.Rel(dir, p)
				if target, lerr := os.Readlink(p); lerr == nil {
					got = append(got, filepath.ToSlash(rel)+"->"+target)
				} else if err == nil && !info.IsDir() {
					got = append(got, filepath.ToSlash(rel))
				}
				return nil
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("unpacked (-want +got):\n%s", diff)
			}
		})
	}
}

// writeModule writes a configuration file into dir.
func writeModule(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func tfFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tf") {
			out = append(out, e.Name())
		}
	}
	return out, err
}

// TestModuleInstallerFetchesHTTPArchives: an https .tar.gz URL and a
// registry module are unpacked under .terraform/modules and recorded;
// a registry version no longer allowed is fetched again.
func TestModuleInstallerFetchesHTTPArchives(t *testing.T) {
	srv := registrytest.New(t)
	pkg := t.TempDir()
	writeModule(t, filepath.Join(pkg, "sub"), `output "x" { value = 1 }`)
	for _, v := range []string{"1.0.0", "2.0.0"} {
		srv.AddModule(t, registrytest.Module{Namespace: "ns", Name: "m", System: "null", Version: v, Dir: pkg})
	}
	dir := t.TempDir()
	archive := srv.URL + "/files/modules/ns-m-null-1.0.0.tar.gz//sub"
	writeModule(t, dir, `
module "web" { source = "`+archive+`" }
module "reg" {
  source  = "`+srv.Host()+`/ns/m/null//sub"
  version = "< 2.0.0"
}`)
	in := &ModuleInstaller{Dir: dir, Registry: &Registry{HTTP: srv.Client()}, Files: tfFiles}
	if err := in.Install(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := Manifest{Modules: []ManifestEntry{{Key: "", Source: "", Dir: "."},
		{Key: "reg", Source: srv.Host() + "/ns/m/null//sub", Version: "1.0.0", Dir: ".terraform/modules/reg/sub"},
		{Key: "web", Source: archive, Dir: ".terraform/modules/web/sub"}}}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("modules.json (-want +got):\n%s", diff)
	}
	for _, key := range []string{"reg", "web"} {
		if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", key, "sub", "main.tf")); err != nil {
			t.Errorf("module %s was not unpacked: %v", key, err)
		}
	}
	writeModule(t, dir, `
module "reg" {
  source  = "`+srv.Host()+`/ns/m/null//sub"
  version = ">= 2.0.0"
}`)
	if err := in.Install(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadManifest(dir); len(got.Modules) != 2 || got.Modules[1].Version != "2.0.0" {
		t.Errorf("after the constraint changed, modules.json holds %+v, want reg at 2.0.0 only", got.Modules)
	}
}

// bareRepo makes a bare git repository whose main branch has pet/main.tf
// at tag v1 and a second commit, and a branch "next"; it returns its
// file:// URL and the first commit's hash.
func bareRepo(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	work, bare := t.TempDir(), filepath.Join(t.TempDir(), "m.git")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	writeModule(t, filepath.Join(work, "pet"), `output "v" { value = 1 }`)
	git("init", "--quiet")
	git("add", "-A")
	git("commit", "--quiet", "-m", "one")
	first := git("rev-parse", "HEAD")
	git("tag", "v1")
	git("checkout", "--quiet", "-b", "next")
	writeModule(t, filepath.Join(work, "pet"), `output "v" { value = 2 }`)
	git("commit", "--quiet", "-am", "two")
	git("init", "--quiet", "--bare", bare)
	git("push", "--quiet", bare, "main", "next", "v1")
	return "file://" + bare, first
}

// TestModuleInstallerGitRefs: ?ref= checks out a tag, a branch or a
// commit; ?depth= clones shallowly; a ref that does not exist, or a
// version on a git source, installs nothing.
func TestModuleInstallerGitRefs(t *testing.T) {
	repo, first := bareRepo(t)
	tests := map[string]struct {
		source, version string
		want            string // pet/main.tf's output value
		wantErr         string
	}{
		"tag":             {source: "?ref=v1", want: "1"},
		"branch":          {source: "?ref=next", want: "2"},
		"commit":          {source: "?ref=" + first, want: "1"},
		"default branch":  {source: "", want: "1"},
		"shallow tag":     {source: "?ref=next&depth=1", want: "2"},
		"missing ref":     {source: "?ref=v9", wantErr: `has no ref "v9"`},
		"missing shallow": {source: "?ref=v9&depth=1", wantErr: `has no tag or branch "v9"`},
		"option as ref":   {source: "?ref=--upload-pack=x", wantErr: "is not a tag, branch or commit"},
		"version":         {source: "?ref=v1", version: "1.0.0", wantErr: "only registry modules have versions"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			version := ""
			if tc.version != "" {
				version = "\n  version = \"" + tc.version + "\""
			}
			writeModule(t, dir, "module \"m\" {\n  source = \"git::"+repo+"//pet"+tc.source+"\""+version+"\n}\n")
			err := (&ModuleInstaller{Dir: dir, Registry: &Registry{}, Files: tfFiles}).Install(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Install: %v, want an error saying %q", err, tc.wantErr)
				}
				if entries, _ := os.ReadDir(filepath.Join(dir, ".terraform", "modules")); len(entries) != 0 {
					t.Errorf("after the error .terraform/modules holds %v", entries)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "m", "pet", "main.tf"))
			if err != nil {
				t.Fatal(err)
			}
			if want := `output "v" { value = ` + tc.want + ` }`; string(got) != want {
				t.Errorf("installed main.tf = %s, want %s", got, want)
			}
		})
	}
}

// TestModuleInstallerRegistryRefusals: a registry module that does not
// exist, or has no version the constraint allows, installs nothing and
// says what the registry has.
func TestModuleInstallerRegistryRefusals(t *testing.T) {
	srv := registrytest.New(t)
	pkg := t.TempDir()
	writeModule(t, pkg, `output "x" { value = 1 }`)
	srv.AddModule(t, registrytest.Module{Namespace: "ns", Name: "m", System: "null", Version: "1.2.0", Dir: pkg})
	tests := map[string]struct{ source, version, wantErr string }{
		"no such module":  {source: "ns/other/null", wantErr: "has no module ns/other/null"},
		"no such version": {source: "ns/m/null", version: "~> 2.0", wantErr: `no version matches the constraints "~> 2.0" (the registry has 1.2.0)`},
		"bad constraint":  {source: "ns/m/null", version: "soon", wantErr: `invalid version constraint "soon"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeModule(t, dir, "module \"m\" {\n  source = \""+srv.Host()+"/"+tc.source+"\"\n  version = \""+tc.version+"\"\n}\n")
			err := (&ModuleInstaller{Dir: dir, Registry: &Registry{HTTP: srv.Client()}, Files: tfFiles}).Install(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Install: %v, want an error saying %q", err, tc.wantErr)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, ".terraform", "modules")); len(entries) != 0 {
				t.Errorf("after the error .terraform/modules holds %v", entries)
			}
		})
	}
}

// TestModuleInstallerReusesUnlessUpgrading: a second install downloads
// nothing and prints no module line; with Upgrade every remote module is
// fetched again and every module printed, as terraform init -upgrade
// does.
func TestModuleInstallerReusesUnlessUpgrading(t *testing.T) {
	repo, _ := bareRepo(t)
	dir := t.TempDir()
	writeModule(t, dir, "module \"g\" {\n  source = \"git::"+repo+"//pet?ref=v1\"\n}\nmodule \"l\" {\n  source = \"./l\"\n}\n")
	writeModule(t, filepath.Join(dir, "l"), `output "x" { value = 1 }`)
	run := func(upgrade bool) string {
		var out bytes.Buffer
		in := &ModuleInstaller{Dir: dir, Registry: &Registry{}, Files: tfFiles, Out: &out, Upgrade: upgrade}
		if err := in.Install(context.Background()); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	first := "Downloading git::" + repo + "?ref=v1 for g...\n- g in .terraform/modules/g/pet\n- l in l\n"
	for i, tc := range []struct {
		upgrade bool
		want    string
	}{{false, first}, {false, ""}, {true, first}} {
		if diff := cmp.Diff(tc.want, run(tc.upgrade)); diff != "" {
			t.Errorf("install %d (upgrade %v) printed (-want +got):\n%s", i+1, tc.upgrade, diff)
		}
	}
}

// TestLocalSourceAsTerraformRecordsIt: modules.json records a local
// path cleaned, as terraform 1.11 does (found running
// Invicton-Labs/terraform-null-input-provided's tests, whose calls use
// "../" and "../../").
func TestLocalSourceAsTerraformRecordsIt(t *testing.T) {
	got := map[string]string{}
	for _, s := range []string{"./mod", "./mod/", "../", "../../", "./a/../b", "..", "./", `.\win\mod`} {
		got[s] = localSource(s)
	}
	want := map[string]string{"./mod": "./mod", "./mod/": "./mod", "../": "./..", "../../": "../..", "./a/../b": "./b", "..": "./..", "./": "./.", `.\win\mod`: "./win/mod"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
