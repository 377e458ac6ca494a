package terraform

import (
	"testing"
)

// TestDataSource reads a file through the local_file data source
// (fn::invoke) and feeds its content to a local_file resource; when the
// file read changes, the next preview replaces the copy.
func TestDataSource(t *testing.T) {
	t.Parallel()
	p := realProject(t, "datasource")
	source := "read through the local_file data source\n"
	p.must("up", "--yes")
	if got, want := p.read("out/copy.txt"), "copied: "+source; got != want {
		t.Errorf("out/copy.txt = %q, want %q", got, want)
	}
	if got, want := p.output("sourceSha1"), sha1Hex(source); got != want {
		t.Errorf("the data source's content_sha1 = %q, want %q", got, want)
	}
	p.noChanges("after the first up")

	p.write("in/source.txt", "changed\n")
	p.expectPreview("after the file read changed", "+- replace copy (local:index:local_file) [diff: ~content, ~content_base64sha256, ~content_base64sha512, ~content_md5, ~content_sha1, ~content_sha256, ~content_sha512, ~id] [forces replacement: content]")
	p.must("up", "--yes")
	if got, want := p.read("out/copy.txt"), "copied: changed\n"; got != want {
		t.Errorf("out/copy.txt after the change = %q, want %q", got, want)
	}
	if got, want := p.output("copyId"), sha1Hex("copied: changed\n"); got != want {
		t.Errorf("copyId = %q, want %q", got, want)
	}

	p.must("destroy", "--yes")
	p.destroyed("out/copy.txt")
	if !p.exists("in/source.txt") {
		t.Errorf("destroy deleted the file the data source read")
	}
}
