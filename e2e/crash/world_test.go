package crash_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// world is the ledger read back: what the test plugin really made.
type world struct {
	// live maps the ID of every object that exists to its URN.
	live map[string]string
	// x is the value of x each object that exists was last written with,
	// for ledgers that say (`create URN ID X`, `update ID X`: the
	// dynamic provider's, dynamic_test.go).
	x map[string]string
	// lines is the whole ledger, for failure messages.
	lines []string
}

func readWorld(path string) (world, error) {
	w := world{live: map[string]string{}, x: map[string]string{}}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return w, nil
	}
	if err != nil {
		return w, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w.lines = append(w.lines, sc.Text())
		switch parts := strings.Fields(sc.Text()); {
		case len(parts) >= 3 && parts[0] == "create":
			w.live[parts[2]] = parts[1]
			if len(parts) == 4 {
				w.x[parts[2]] = parts[3]
			}
		case len(parts) == 3 && parts[0] == "update":
			w.x[parts[1]] = parts[2]
		case len(parts) == 2 && parts[0] == "delete":
			delete(w.live, parts[1])
			delete(w.x, parts[1])
		}
	}
	return w, sc.Err()
}

// liveOf lists the IDs of the objects that exist for urn, sorted.
func (w world) liveOf(urn string) []string {
	var ids []string
	for id, u := range w.live {
		if u == urn {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// describe is the ledger for a failure message: the objects that exist,
// then the last lines written.
func (w world) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ledger: %d objects exist:\n", len(w.live))
	ids := make([]string, 0, len(w.live))
	for id := range w.live {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if w.live[ids[i]] != w.live[ids[j]] {
			return w.live[ids[i]] < w.live[ids[j]]
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		fmt.Fprintf(&b, "  %s %s\n", id, w.live[id])
	}
	tail := w.lines[max(0, len(w.lines)-40):]
	fmt.Fprintf(&b, "ledger: the last %d of %d lines:\n  %s\n", len(tail), len(w.lines), strings.Join(tail, "\n  "))
	return b.String()
}

// recorded is the state as `plinth state export` writes it: the fields
// the harness compares with the ledger.
type recorded struct {
	// thing is the type of the objects the ledger holds (the harness's
	// thing).
	thing     string
	Resources []recordedResource `json:"resources"`
	Pending   []struct {
		Op       string           `json:"op"`
		Resource recordedResource `json:"resource"`
	} `json:"pending"`
}

type recordedResource struct {
	URN    string `json:"urn"`
	Type   string `json:"type"`
	Custom bool   `json:"custom"`
	ID     string `json:"id"`
	Delete bool   `json:"delete"`
	// Tainted and Inputs are read only for the commands' programs
	// (children_test.go).
	Tainted bool           `json:"tainted"`
	Inputs  map[string]any `json:"inputs"`
}

// things are the recorded resources of the ledger's type: what the
// ledger must agree with.
func (s recorded) things() []recordedResource {
	var out []recordedResource
	for _, r := range s.Resources {
		if r.Type == s.thing {
			out = append(out, r)
		}
	}
	return out
}

// pendingOn lists the ops pending on urn.
func (s recorded) pendingOn(urn string) []string {
	var ops []string
	for _, p := range s.Pending {
		if p.Resource.URN == urn {
			ops = append(ops, p.Op)
		}
	}
	return ops
}

// deletePending reports whether a delete of the object id is pending.
func (s recorded) deletePending(id string) bool {
	for _, p := range s.Pending {
		if p.Op == "delete" && p.Resource.ID == id {
			return true
		}
	}
	return false
}

// isCreate reports whether a pending op may have made a new object: a
// create, or the create of a replacement.
func isCreate(op string) bool { return op == "create" || op == "replace" }

func parseRecorded(export string) (recorded, error) {
	var s recorded
	if err := json.Unmarshal([]byte(export), &s); err != nil {
		return s, fmt.Errorf("reading `plinth state export`: %w\n%s", err, export)
	}
	return s, nil
}
