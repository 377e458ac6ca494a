package plan

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/state"
)

// FormatVersion is the version of the plan file's format.
const FormatVersion = 1

// Plan is a saved plan: its header says what it was made against, Steps
// what it will do.
type Plan struct {
	Format  int           `json:"format"`
	Plinth  string        `json:"plinth"`
	Project string        `json:"project"`
	Stack   string        `json:"stack"`
	Created time.Time     `json:"created"`
	State   state.Version `json:"state"`
	// Program is the keyed digest of the program files, the stack config
	// and the variables given on the command line (see ProgramDigest).
	Program  string   `json:"program"`
	Targets  []string `json:"targets,omitempty"`
	Excludes []string `json:"excludes,omitempty"`
	// Replaces are the --replace arguments the plan was made with.
	Replaces []string       `json:"replaces,omitempty"`
	Summary  map[string]int `json:"summary"`
	// Key is the digest key, sealed by the stack's secrets provider.
	Key   string `json:"key"`
	Steps []Step `json:"steps"`
	// MAC is the keyed digest of the file with MAC empty.
	MAC string `json:"mac"`

	key []byte
	mu  sync.Mutex
}

// Step is one planned step.
type Step struct {
	URN string `json:"urn"`
	Op  string `json:"op"`
	// ID is the keyed digest of the recorded resource's ID, if any.
	ID string `json:"id,omitempty"`
	// Inputs are the keyed digests of the inputs' top-level properties;
	// Unknown for one the preview did not know yet.
	Inputs map[string]string `json:"inputs,omitempty"`
}

// Unknown stands for a property the preview did not know: the update
// may send any value.
const Unknown = "unknown"

// Header is what a plan is made against.
type Header struct {
	Plinth, Project, Stack string
	State                  state.Version
	Targets, Excludes      []string
	Replaces               []string
}

// New starts a plan with a fresh digest key sealed by c.
func New(h Header, c state.Crypter, now time.Time) (*Plan, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("making the plan's digest key: %w", err)
	}
	sealed, err := c.Seal(key)
	if err != nil {
		return nil, fmt.Errorf("sealing the plan's digest key with the stack's secrets key: %w", err)
	}
	return &Plan{
		Format: FormatVersion, Plinth: h.Plinth, Project: h.Project, Stack: h.Stack, Created: now.UTC(),
		State: h.State, Targets: h.Targets, Excludes: h.Excludes, Replaces: h.Replaces, Key: sealed, key: key, Steps: []Step{},
	}, nil
}

// Record adds a step; it is engine.Options.CheckStep for the preview.
func (p *Plan) Record(s engine.PlannedStep) error {
	st := p.step(s)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Steps = append(p.Steps, st)
	return nil
}

// Write saves the plan to path, readable by its owner only.
func (p *Plan) Write(path string) error {
	p.mu.Lock()
	sort.Slice(p.Steps, func(i, j int) bool { return p.Steps[i].key() < p.Steps[j].key() })
	p.mu.Unlock()
	p.MAC = ""
	body, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	p.MAC = p.digest(body)
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}

// ErrTampered reports a plan file whose contents do not match its MAC.
var ErrTampered = errors.New("the plan file was changed after plinth wrote it")

// Read loads the plan at path for stack, opening its key with the
// stack's secrets c and checking its MAC.
func Read(path, stack string, c state.Crypter) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the plan: %w", err)
	}
	var p Plan
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("the plan file %s is not a plinth plan (%v); make one with `plinth preview --save-plan %s`", path, err, path)
	}
	if p.Format != FormatVersion {
		return nil, fmt.Errorf("the plan file %s has format %d, and this plinth reads format %d; make the plan again with this plinth", path, p.Format, FormatVersion)
	}
	if p.Stack != stack {
		return nil, fmt.Errorf("the plan %s was made for stack %s, and this is stack %s. Nothing was changed; select stack %s, or make a plan for %s with `plinth preview --save-plan FILE`", path, p.Stack, stack, p.Stack, stack)
	}
	if p.key, err = c.Open(p.Key); err != nil {
		return nil, fmt.Errorf("the plan file %s: its key cannot be opened with stack %s's secrets key (%v): it was made for another stack, or was changed", path, p.Stack, err)
	}
	return &p, p.checkMAC(path)
}

func (p *Plan) checkMAC(path string) error {
	mac := p.MAC
	p.MAC = ""
	body, err := json.Marshal(p)
	p.MAC = mac
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	if !hmac.Equal([]byte(p.digest(body)), []byte(mac)) {
		return fmt.Errorf("%w: %s does not match the digest plinth sealed into it. Nothing was changed; make the plan again with `plinth preview --save-plan %s`", ErrTampered, path, path)
	}
	return nil
}

// digest is the hex keyed digest of data.
func (p *Plan) digest(data []byte) string {
	m := hmac.New(sha256.New, p.key)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil))
}

func (s Step) key() string { return s.URN + "\x00" + s.Op + "\x00" + s.ID }

// Total is how many steps the preview counted, for progress.
func (p *Plan) Total() int {
	n := 0
	for _, c := range p.Summary {
		n += c
	}
	return n
}
