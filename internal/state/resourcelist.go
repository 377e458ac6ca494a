package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// decodeChunk is how many resources a decoding goroutine takes at a time.
const decodeChunk = 256

// decodeResources decodes a snapshot's resources list, the span of data
// that is its JSON array (already checked to be valid JSON), each
// element straight into a Resource. The elements decode on as many
// goroutines as Go runs at once: decoding is most of the cost of loading
// a large stack (1.1 s of CPU for 100,000 resources, before any other
// work can start), and each resource decodes alone. The strings every
// resource of a stack repeats (type, provider, parent) are shared.
func decodeResources(data, span []byte, c Crypter) ([]*Resource, error) {
	if len(span) == 0 {
		return []*Resource{}, nil
	}
	switch span[0] {
	case 'n':
		return []*Resource{}, nil
	case '[':
	default:
		return nil, DescribeJSONError(data, &json.UnmarshalTypeError{Value: jsonKind(span[0]), Type: reflect.TypeFor[[]*resourceJSON](),
			Offset: int64(cap(data) - cap(span)), Field: "resources"})
	}
	return decodeElems(data, splitArray(span), c, false)
}

// errElemNotJSON: an element decodeElems was asked to validate is not
// valid JSON.
var errElemNotJSON = errors.New("a resource is not valid JSON")

// decodeElems decodes a snapshot's resources, elems (slices of data),
// as decodeResources describes. With validate, each element is first
// checked to be valid JSON on the goroutine that decodes it, and
// errElemNotJSON is returned if one is not.
func decodeElems(data []byte, elems [][]byte, c Crypter, validate bool) ([]*Resource, error) {
	out := make([]*Resource, len(elems))
	errs := make([]error, len(elems))
	if c != nil {
		c = &lockedCrypter{c: c}
	}
	var next atomic.Int64
	var invalid atomic.Bool
	work := func() {
		shared := map[string]string{} // until the pass below, one copy a goroutine
		inputs := inputsCache{}
		for {
			from := int(next.Add(decodeChunk)) - decodeChunk
			if from >= len(elems) {
				return
			}
			for i := from; i < min(from+decodeChunk, len(elems)); i++ {
				if validate && !json.Valid(elems[i]) {
					invalid.Store(true)
					continue
				}
				if out[i], errs[i] = decodeResource(data, elems[i], i, c, inputs); out[i] != nil {
					shareStrings(shared, out[i])
				}
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (len(elems)+decodeChunk-1)/decodeChunk) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if invalid.Load() {
		return nil, errElemNotJSON
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	shared := map[string]string{}
	for _, r := range out {
		shareStrings(shared, r)
	}
	return out, nil
}

// decodeResource decodes the i'th resource of a snapshot, elem, a slice
// of data. Its inputs are those of an earlier resource stored alike, if
// inputs holds one.
func decodeResource(data, elem []byte, i int, c Crypter, inputs inputsCache) (*Resource, error) {
	rj, fast := fastResourceJSON(elem)
	if !fast {
		rj = resourceJSON{}
		if err := json.Unmarshal(elem, &rj); err != nil {
			return nil, DescribeJSONError(data, atSpan(data, elem, err))
		}
	}
	raw := rj.Inputs
	same, found := inputs.get(raw)
	if found {
		rj.Inputs = nil
	}
	r, err := rj.decode(c)
	if err != nil {
		return nil, fmt.Errorf("resource %d: %w", i, err)
	}
	if found {
		r.Inputs = same
	} else {
		inputs.put(raw, r.Inputs)
	}
	return r, nil
}

// inputsCache maps the stored JSON of small input objects to the object
// decoded from it, so that resources stored with the same inputs share
// one: a stack's resources are often alike (one module or one count
// made them), and every property map costs a few hundred bytes however
// few its properties (100,000 alike resources: 46 MB of inputs decoded
// in a no-change preview). Objects are never modified in place (every
// writer copies first: Resource.Clone, the engine's sealed, the
// display), so sharing one is safe; empty ones are not shared, for a
// writer that would fill one.
type inputsCache map[string]resource.Object

// Bounds on what inputsCache holds: it stops learning when full, so
// a stack of all different inputs costs it little.
const (
	maxCachedInputs    = 1024
	maxCachedInputsLen = 512
)

func (ic inputsCache) get(raw []byte) (resource.Object, bool) {
	if len(raw) > maxCachedInputsLen {
		return nil, false
	}
	o, ok := ic[string(raw)]
	return o, ok
}

func (ic inputsCache) put(raw []byte, o resource.Object) {
	if len(o) > 0 && len(raw) <= maxCachedInputsLen && len(ic) < maxCachedInputs {
		ic[string(raw)] = o
	}
}

// shareStrings makes r's type, provider and parent the copies shared
// holds, adding them if it has none.
func shareStrings(shared map[string]string, r *Resource) {
	r.Type, r.Provider = share(shared, r.Type), share(shared, r.Provider)
	r.Parent = resource.URN(share(shared, string(r.Parent)))
}

// splitArray returns the elements of a valid JSON array, each a slice of
// span without the whitespace around it.
func splitArray(span []byte) [][]byte {
	elems, _, _ := splitArrayChecked(span, noDepthLimit)
	return elems
}

// stringEnd returns the index of the quote that closes the JSON string
// opening at span[i].
func stringEnd(span []byte, i int) int {
	for i++; i < len(span); i++ {
		switch span[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(span)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// lockedCrypter serialises a Crypter's calls: the Crypter interface does
// not promise that its implementations may be called at once, and
// resources decode on several goroutines. Secrets are few; waiting for
// the lock costs nothing measurable.
type lockedCrypter struct {
	mu sync.Mutex
	c  Crypter
}

func (l *lockedCrypter) Seal(plaintext []byte) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.Seal(plaintext)
}

func (l *lockedCrypter) Open(ciphertext string) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.Open(ciphertext)
}
