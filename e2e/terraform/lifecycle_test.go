package terraform

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// petName is random_pet's ID with length 2 and the default separator.
var petName = regexp.MustCompile(`^[a-z]+-[a-z]+$`)

// TestLifecycle creates real resources from a program, updates one in
// place (time_offset's offset_days), replaces others (random_pet's
// keepers, and what depends on the pet), and destroys them all.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	p := realProject(t, "lifecycle")
	up := p.must("up", "--yes")
	wantCreated := []string{
		"+ created offset (time:index:time_offset)", "+ created pet (random:index:random_pet)",
		"+ created stamp (time:index:time_static)", "+ created note (local:index:local_file)",
		"+ created local (pulumi:providers:local)", "+ created random (pulumi:providers:random)",
		"+ created time (pulumi:providers:time)",
	}
	if diff := cmp.Diff(wantCreated, doneLines(up.Stdout), sorted); diff != "" {
		t.Errorf("up (-want +got):\n%s\n%s", diff, up.Stdout)
	}
	pet := p.output("petName")
	if !petName.MatchString(pet) {
		t.Fatalf("petName = %q, want two words joined by a hyphen", pet)
	}
	checkNote(t, p, "hello from "+pet+"\n")
	if got, want := p.output("offset"), "2024-01-02T00:00:00Z"; got != want {
		t.Errorf("offset = %q, want %q", got, want)
	}
	// A big number from a provider interpolates with all its digits.
	if got, want := p.output("offsetText"), "unix 1704153600"; got != want {
		t.Errorf("offsetText = %q, want %q", got, want)
	}
	stamp := p.output("stamp")
	p.noChanges("after the first up")

	p.edit("offset_days: 1", "offset_days: 2")
	p.expectPreview("offset_days 1 -> 2", "~ update offset (time:index:time_offset) [diff: ~day, ~offset_days, ~rfc3339, ~unix]")
	up = p.must("up", "--yes")
	if diff := cmp.Diff([]string{"~ updated offset (time:index:time_offset)"}, doneLines(up.Stdout)); diff != "" {
		t.Errorf("up after offset_days 1 -> 2 (-want +got):\n%s\n%s", diff, up.Stdout)
	}
	if got, want := p.output("offset"), "2024-01-03T00:00:00Z"; got != want {
		t.Errorf("offset after the update = %q, want %q", got, want)
	}
	if got := p.output("petName"); got != pet {
		t.Errorf("the pet changed from %q to %q though its inputs did not", pet, got)
	}
	if got := p.output("stamp"); got != stamp {
		t.Errorf("the stamp changed from %q to %q though its triggers did not", stamp, got)
	}
	p.noChanges("after the update")

	p.must("config", "set", "round", "two")
	p.expectPreview("keepers.round one -> two",
		"+- replace pet (random:index:random_pet) [diff: ~keepers.round] [forces replacement: keepers.round]",
		// The pet is replaced delete-first, as Terraform does, and so are
		// its dependents: they are deleted first and made again.
		"+- replace stamp (time:index:time_static) [diff: +triggers]",
		"+- replace note (local:index:local_file) [diff: +content, +filename]",
	)
	up = p.must("up", "--yes")
	wantReplaced := []string{
		"+- replaced note (local:index:local_file)", "+- replaced pet (random:index:random_pet)", "+- replaced stamp (time:index:time_static)",
		"-- deleted original note (local:index:local_file)", "-- deleted original pet (random:index:random_pet)", "-- deleted original stamp (time:index:time_static)",
	}
	if diff := cmp.Diff(wantReplaced, doneLines(up.Stdout), sorted); diff != "" {
		t.Errorf("up after keepers.round one -> two (-want +got):\n%s\n%s", diff, up.Stdout)
	}
	newPet := p.output("petName")
	if newPet == pet || !petName.MatchString(newPet) {
		t.Errorf("petName after the replacement = %q (before: %q), want a new pet", newPet, pet)
	}
	checkNote(t, p, "hello from "+newPet+"\n")
	p.noChanges("after the replacement")

	p.must("destroy", "--yes")
	p.destroyed("out/note.txt")
}

// checkNote checks the note's file and that its ID is the SHA-1 of its
// content, as the local provider makes it.
func checkNote(t *testing.T, p *project, want string) {
	t.Helper()
	if got := p.read("out/note.txt"); got != want {
		t.Errorf("out/note.txt = %q, want %q", got, want)
	}
	if got, want := p.output("noteId"), sha1Hex(want); got != want {
		t.Errorf("noteId = %q, want the SHA-1 of the content, %q", got, want)
	}
}
