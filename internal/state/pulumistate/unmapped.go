package pulumistate

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Unmapped are the fields of apitype.ResourceV3 plinth's state has no
// place for. Adoption never drops one silently: a field that changes what
// the next run does to the resource is refused (refusedFields), one the
// program gives again on every run or that is history is dropped with a
// note (notedFields).
type Unmapped struct {
	PendingReplacement  bool            `json:"pendingReplacement,omitempty"`
	ReplaceWith         []string        `json:"replaceWith,omitempty"`
	ViewOf              string          `json:"viewOf,omitempty"`
	ReplacementTrigger  json.RawMessage `json:"replacementTrigger,omitempty"`
	ImportID            string          `json:"importID,omitempty"`
	Aliases             []string        `json:"aliases,omitempty"`
	HideDiff            json.RawMessage `json:"hideDiff,omitempty"`
	RefreshBeforeUpdate bool            `json:"refreshBeforeUpdate,omitempty"`
	SourcePosition      string          `json:"sourcePosition,omitempty"`
	StackTrace          json.RawMessage `json:"stackTrace,omitempty"`
	SnippetID           string          `json:"snippetID,omitempty"`
	ExtensionRef        json.RawMessage `json:"extensionRef,omitempty"`
}

// refusedFields change what plinth would do to the resource; each says
// why and how to get a deployment without it.
var refusedFields = map[string]string{
	"pendingReplacement": "it was deleted by a replacement that has not finished; run `pulumi up` to finish it",
	"replaceWith":        "plinth would not replace it with the resources it names",
	"viewOf":             "it is a view of another resource, which plinth does not model",
	"replacementTrigger": "plinth would not compare the next run's replacement trigger with it",
}

// notedFields are given again by the program on every run, or are
// history; plinth drops them and says so.
var notedFields = []string{"importID", "aliases", "hideDiff", "refreshBeforeUpdate",
	"sourcePosition", "stackTrace", "snippetID", "extensionRef"}

// set lists the JSON names of the fields that are set.
func (u Unmapped) set() []string {
	raw, _ := json.Marshal(u)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	names := make([]string, 0, len(m))
	for k, v := range m {
		if string(v) != "null" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// unmapped refuses a resource with a field plinth cannot honour, and
// counts the fields it drops, by name.
func unmapped(r Resource, dropped map[string]int) error {
	for _, name := range r.Unmapped.set() {
		if why, ok := refusedFields[name]; ok {
			return fmt.Errorf("resource %s has %s set, which plinth's state cannot hold: %s. Remove the %s option from the program, run `pulumi up`, and export again",
				r.URN, name, why, name)
		}
		dropped[name]++
	}
	return nil
}

// droppedNotes says which fields adoption left out, and on how many
// resources.
func droppedNotes(dropped map[string]int) []string {
	var notes []string
	for _, name := range notedFields {
		if n := dropped[name]; n > 0 {
			noun := "resources"
			if n == 1 {
				noun = "resource"
			}
			notes = append(notes, fmt.Sprintf("%s (on %d %s) is left out: plinth's state has no place for it (it is history, or the program gives it again on every run)", name, n, noun))
		}
	}
	return notes
}
