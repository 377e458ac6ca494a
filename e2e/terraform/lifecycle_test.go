package terraform

import (
	"regexp"
	"testing"
)

// petName is random_pet's ID with length 2 and the default separator.
var petName = regexp.MustCompile(`^[a-z]+-[a-z]+$`)

// TestLifecycle creates real resources from a program, updates one in
// place (time_offset's offset_days), replaces others (random_pet's
// keepers, and what depends on the pet), and destroys them all.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	p := realProject(t, "lifecycle")
	pet, stamp := lifecycleCreate(t, p)
	lifecycleUpdate(t, p, pet, stamp)
	lifecycleReplace(t, p, pet)
	p.must("destroy", "--yes")
	p.destroyed("out/note.txt")
}

// lifecycleCreate makes the stack and returns its pet and stamp.
func lifecycleCreate(t *testing.T, p *project) (pet, stamp string) {
	p.up("the first up",
		"+ created offset (time:index:time_offset)", "+ created pet (random:index:random_pet)",
		"+ created stamp (time:index:time_static)", "+ created note (local:index:local_file)",
		"+ created local (pulumi:providers:local)", "+ created random (pulumi:providers:random)",
		"+ created time (pulumi:providers:time)",
	)
	pet = p.output("petName")
	if !petName.MatchString(pet) {
		t.Fatalf("petName = %q, want two words joined by a hyphen", pet)
	}
	checkNote(t, p, "hello from "+pet+"\n")
	p.wantOutputs("after the first up", map[string]string{
		"offset": "2024-01-02T00:00:00Z",
		// A big number from a provider interpolates with all its digits.
		"offsetText": "unix 1704153600",
	})
	p.noChanges("after the first up")
	return pet, p.output("stamp")
}

// lifecycleUpdate changes time_offset's offset_days: an update in place
// that leaves the rest alone.
func lifecycleUpdate(t *testing.T, p *project, pet, stamp string) {
	p.edit("offset_days: 1", "offset_days: 2")
	p.expectPreview("offset_days 1 -> 2", "~ update offset (time:index:time_offset) [diff: ~day, ~offset_days, ~rfc3339, ~unix]")
	p.up("offset_days 1 -> 2", "~ updated offset (time:index:time_offset)")
	p.wantOutputs("after the update", map[string]string{"offset": "2024-01-03T00:00:00Z", "petName": pet, "stamp": stamp})
	p.noChanges("after the update")
}

// lifecycleReplace changes the pet's keepers: the pet is replaced, and so
// are the file that names it and the stamp it triggers.
func lifecycleReplace(t *testing.T, p *project, pet string) {
	p.must("config", "set", "round", "two")
	p.expectPreview("keepers.round one -> two",
		"+- replace pet (random:index:random_pet) [diff: ~id, ~keepers.round] [forces replacement: keepers.round]",
		// The pet is replaced delete-first, as Terraform does, and so are
		// its dependents: they are deleted first and made again.
		"+- replace stamp (time:index:time_static) [diff: +triggers]",
		"+- replace note (local:index:local_file) [diff: +content, +filename]",
	)
	p.up("keepers.round one -> two",
		"+- replaced note (local:index:local_file)", "+- replaced pet (random:index:random_pet)", "+- replaced stamp (time:index:time_static)",
		"-- deleted original note (local:index:local_file)", "-- deleted original pet (random:index:random_pet)", "-- deleted original stamp (time:index:time_static)",
	)
	newPet := p.output("petName")
	if newPet == pet || !petName.MatchString(newPet) {
		t.Errorf("petName after the replacement = %q (before: %q), want a new pet", newPet, pet)
	}
	checkNote(t, p, "hello from "+newPet+"\n")
	p.noChanges("after the replacement")
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
