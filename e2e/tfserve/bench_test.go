package tfserve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plinth-iac/plinth/internal/tfproviders"
)

// BenchmarkTerraformApply1000 measures terraform applying 1,000 resources
// of plinth's provider (plinth_random_pet, served by tfserve) against
// 1,000 of hashicorp/random's random_pet (built by internal/tfproviders),
// each a full `terraform apply` in a fresh directory. Run it with
//
//	go test -run '^$' -bench TerraformApply1000 -benchtime 1x ./e2e/tfserve
func BenchmarkTerraformApply1000(b *testing.B) {
	if bins.err != nil || bins.plinth == "" {
		b.Skipf("the provider binaries were not built: %v", bins.err)
	}
	random := buildRandom(b)
	for _, tc := range []struct{ name, source, typ string }{
		{"plinth_random_pet", "plinth-iac/plinth", "plinth_random_pet"},
		{"hashicorp_random_pet", "hashicorp/random", "random_pet"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				dir := b.TempDir()
				w := benchTF(b, dir, random)
				w.write("main.tf", thousand(tc.source, tc.typ))
				start := time.Now()
				w.must("apply", "-auto-approve", "-parallelism=10")
				b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/apply")
			}
		})
	}
}

func thousand(source, typ string) string {
	local := strings.SplitN(typ, "_", 2)[0]
	var sb strings.Builder
	fmt.Fprintf(&sb, "terraform {\n  required_providers {\n    %s = { source = %q }\n  }\n}\n", local, source)
	fmt.Fprintf(&sb, "resource %q \"p\" {\n  count  = 1000\n  length = 2\n}\n", typ)
	return sb.String()
}

// buildRandom builds (or finds cached) hashicorp/random and returns the
// directory dev_overrides should name.
func buildRandom(b *testing.B) string {
	cache, err := tfproviders.DefaultDir()
	if err != nil {
		b.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	dir := filepath.Join(bins.root, "random")
	links, err := tfproviders.LinkInto(ctx, cache, dir, "random")
	if err != nil {
		b.Skipf("building hashicorp/random: %v", err)
	}
	target, err := filepath.EvalSymlinks(links["random"])
	if err != nil {
		b.Fatal(err)
	}
	alias := filepath.Join(bins.root, "random-override")
	_ = os.MkdirAll(alias, 0o755)
	_ = os.Symlink(target, filepath.Join(alias, "terraform-provider-random"))
	return alias
}

// benchTF is a terraform directory with both providers overridden.
func benchTF(b *testing.B, dir, random string) *tf {
	w := &tf{t: b, dir: dir}
	var err error
	if w.bin, err = lookTerraform(); err != nil {
		b.Skip("terraform is not on PATH")
	}
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n    %q = %q\n  }\n  direct {}\n}\n",
		"plinth-iac/plinth", bins.plinth, "hashicorp/random", random)
	path := filepath.Join(dir, "terraformrc")
	if err := os.WriteFile(path, []byte(rc), 0o644); err != nil {
		b.Fatal(err)
	}
	w.env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+path, "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	return w
}
