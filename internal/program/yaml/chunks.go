package yaml

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/program"
)

// A large program is parsed in chunks: the entries of its top-level
// resources mapping are cut, at lines that start an entry, into pieces of
// about chunkTarget bytes, which are parsed and converted on every core,
// each piece's YAML tree dropped as soon as it is converted; the rest of
// the file (the resources block blanked, so that lines keep their
// numbers) is parsed as a document of its own. yaml.v3's tree of a whole
// 100,000-resource program was 80-90 MB, held until the last resource was
// converted, and its parse ran on one core.
//
// The result is the whole-document parse's, diagnostics included. The cut
// is checked rather than trusted: any piece that does not parse, whose
// root is not a mapping with exactly one plain key at each line the cut
// took for an entry, or that holds an anchor or an alias, and a rest whose
// resources key is not where the cut found it, send Parse back to the
// whole document, which then reports what it finds. A line at the
// entries' indentation ends every block scalar, plain scalar and nested
// block above it, so a cut can only land inside a quoted scalar or a flow
// collection, and the piece before it then ends unterminated and fails.
// Files that start with a byte-order mark, that break lines other than
// with \n (yaml.v3 also breaks them at CR, NEL, LS and PS), or that have
// a tab in a line's indentation, a line indented less than the entries,
// a directive or document marker at the start of a line, or a line of
// more than maxCutLine bytes are parsed whole from the start.
const (
	chunkMin    = 1 << 20   // programs smaller than this are parsed whole
	chunkTarget = 256 << 10 // bytes per piece
	// maxCutLine is the longest line of a file cut. yaml.v3 refuses a
	// block nesting 10,000 deep (max_indents), and a piece nests one
	// level less than the whole document; each level opens at a column
	// greater than the one before, so no file whose lines are all
	// shorter than this comes near the limit.
	maxCutLine = 8 << 10
)

// cut is where a program's resources block lies and how it is cut.
type cut struct {
	line      int // of "resources:"
	indent    int // of the entries' keys
	bodyStart int // byte offset of the line after "resources:"
	bodyEnd   int // byte offset of the first line after the block
	bodyLines int
	pieces    []piece
}

// piece is a run of whole lines of the resources block.
type piece struct {
	data      []byte
	firstLine int   // the file's line number of data's first line
	keyLines  []int // the file's line numbers of the entries' keys
}

// cutResources finds the top-level resources block of data and cuts it
// into pieces of about target bytes at lines that start an entry. It
// reports false when the file is not one it cuts.
func cutResources(data []byte, target int) (*cut, bool) {
	if len(data) > 0 && data[0] >= 0x80 || hasOtherBreaks(data) {
		return nil, false
	}
	c := &cut{}
	var keyLines, keyOffsets []int
	inBody, line := false, 0
	for off := 0; off < len(data); {
		next := len(data)
		if end := bytes.IndexByte(data[off:], '\n'); end >= 0 {
			next = off + end + 1
		}
		text := data[off:next]
		line++
		if len(text) > maxCutLine {
			return nil, false
		}
		ind, blank, ok := indentation(text)
		switch {
		case !ok || ind == 0 && !blank && isMarker(text):
			return nil, false
		case inBody && ind == 0 && !blank:
			inBody, c.bodyEnd = false, off
		case inBody:
			c.bodyLines++
			if blank {
				break
			}
			if c.indent == 0 {
				c.indent = ind
			}
			if ind < c.indent {
				return nil, false
			}
			if ind == c.indent {
				keyLines, keyOffsets = append(keyLines, line), append(keyOffsets, off)
			}
		}
		if !inBody && c.line == 0 && isResourcesLine(text) {
			inBody, c.line, c.bodyStart, c.bodyEnd = true, line, next, len(data)
		}
		off = next
	}
	if len(keyLines) == 0 || mayHoldAnchors(data[c.bodyStart:c.bodyEnd]) {
		return nil, false
	}
	c.split(data, keyLines, keyOffsets, target)
	return c, true
}

// hasOtherBreaks reports a line break other than \n: yaml.v3 also breaks
// lines at \r, NEL, LS and PS, and counts them, where the cut counts
// only \n.
func hasOtherBreaks(data []byte) bool {
	return bytes.IndexByte(data, '\r') >= 0 || bytes.Contains(data, []byte("\u0085")) ||
		bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029"))
}

// mayHoldAnchors reports an & or * that could start an anchor or an
// alias: where a node starts (at a line's start, or after spaces that
// follow a :, -, ?, [, { or ,) and before a character an anchor's name
// may start with. A piece holding one is refused after it is parsed;
// finding it first spares a program that uses anchors parsing its pieces
// before the whole. It may report one inside a quoted string, and miss
// one after a tag (the pieces are then parsed, refused, and the program
// parsed whole).
func mayHoldAnchors(body []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexAny(body[i:], "&*")
		if j < 0 || i+j+1 == len(body) {
			return false
		}
		i += j
		if nodeStart(body[:i]) && strings.IndexByte(" \t\n[]{},", body[i+1]) < 0 {
			return true
		}
	}
}

// nodeStart reports whether a node may start after before: at a line's
// start, or after spaces that follow an indicator.
func nodeStart(before []byte) bool {
	k := len(before)
	for k > 0 && (before[k-1] == ' ' || before[k-1] == '\t') {
		k--
	}
	return k == 0 || strings.IndexByte("\n:-?[{,", before[k-1]) >= 0
}

// split cuts the body into pieces of about target bytes, each starting at
// a key line (the first at the body's start, with any comments before the
// first key).
func (c *cut) split(data []byte, keyLines, keyOffsets []int, target int) {
	start, first, from := c.bodyStart, c.line+1, 0
	for i := 1; i <= len(keyOffsets); i++ {
		if i < len(keyOffsets) && keyOffsets[i]-start < target {
			continue
		}
		end := c.bodyEnd
		if i < len(keyOffsets) {
			end = keyOffsets[i]
		}
		c.pieces = append(c.pieces, piece{data: data[start:end], firstLine: first, keyLines: keyLines[from:i]})
		if i < len(keyOffsets) {
			start, first, from = end, keyLines[i], i
		}
	}
}

// indentation returns a line's count of leading spaces and whether the
// line is blank or only a comment; ok is false when its indentation holds
// a tab.
func indentation(text []byte) (ind int, blank, ok bool) {
	for ind < len(text) && text[ind] == ' ' {
		ind++
	}
	rest := text[ind:]
	if len(rest) > 0 && rest[0] == '\t' {
		return ind, false, false
	}
	blank = len(rest) == 0 || rest[0] == '\n' || rest[0] == '#'
	return ind, blank, true
}

// isMarker reports a directive or a document marker.
func isMarker(text []byte) bool {
	return text[0] == '%' || bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("..."))
}

// isResourcesLine reports a line that is the plain key resources with no
// value on its line (a comment may follow).
func isResourcesLine(text []byte) bool {
	rest, ok := bytes.CutPrefix(text, []byte("resources:"))
	if !ok {
		return false
	}
	if len(rest) == 0 || rest[0] == '\n' {
		return true
	}
	comment := bytes.TrimLeft(rest, " ")
	return len(comment) == 0 || comment[0] == '\n' || comment[0] == '#' && len(comment) < len(rest)
}

// rest is data with the resources block's lines left empty, so that every
// other line keeps its number.
func (c *cut) rest(data []byte) []byte {
	out := make([]byte, 0, c.bodyStart+c.bodyLines+len(data)-c.bodyEnd)
	out = append(out, data[:c.bodyStart]...)
	out = append(out, bytes.Repeat([]byte{'\n'}, c.bodyLines)...)
	return append(out, data[c.bodyEnd:]...)
}

// parsedEntry is one entry of the resources mapping, converted, with the
// diagnostics its conversion reported.
type parsedEntry struct {
	key   string
	at    pos
	decl  *resourceDecl
	diags program.Diagnostics
}

// chunked is the resources block's entries, piece by piece, in order.
type chunked struct {
	line    int // of the resources key they replace
	pieces  [][]parsedEntry
	entries int
	visited int
}

// parsePieces parses and converts the pieces on every core. It reports
// false when any piece fails the checks in this file's comment.
func (c *cut) parsePieces(file string, budget int) (*chunked, bool) {
	out := &chunked{line: c.line, pieces: make([][]parsedEntry, len(c.pieces))}
	visited := make([]int, len(c.pieces))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(c.pieces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(c.pieces) && !failed.Load(); i = int(next.Add(1) - 1) {
				var ok bool
				out.pieces[i], visited[i], ok = c.parsePiece(file, budget, c.pieces[i])
				if !ok {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() {
		return nil, false
	}
	for i, es := range out.pieces {
		out.entries += len(es)
		out.visited += visited[i]
	}
	return out, true
}

// parsePiece parses one piece and converts its entries.
func (c *cut) parsePiece(file string, budget int, pc piece) ([]parsedEntry, int, bool) {
	var doc yaml.Node
	if yaml.Unmarshal(pc.data, &doc) != nil || len(doc.Content) != 1 {
		return nil, 0, false
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode || root.Anchor != "" || len(root.Content) != 2*len(pc.keyLines) {
		return nil, 0, false
	}
	if !shiftLines(root, pc.firstLine-1) {
		return nil, 0, false
	}
	r := &reader{diags: &diags{file: file}, budget: budget}
	out := make([]parsedEntry, len(pc.keyLines))
	for i := range pc.keyLines {
		k := root.Content[2*i]
		if k.Kind != yaml.ScalarNode || k.Line != pc.keyLines[i] || k.Column != c.indent+1 {
			return nil, 0, false
		}
		mark := len(r.list)
		en := entry{key: k.Value, at: at(k), value: root.Content[2*i+1]}
		root.Content[2*i+1] = nil // let the entry's nodes go once it is converted
		out[i] = parsedEntry{key: en.key, at: en.at, decl: parseResource(r, en)}
		out[i].diags = r.list[mark:len(r.list):len(r.list)]
	}
	if r.over {
		return nil, 0, false
	}
	return out, r.visited + len(pc.keyLines), true
}

// shiftLines adds offset to the line of every node under n, reporting
// false if it meets an anchor or an alias.
func shiftLines(n *yaml.Node, offset int) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return false
	}
	n.Line += offset
	for _, c := range n.Content {
		if !shiftLines(c, offset) {
			return false
		}
	}
	return true
}

// parseChunked parses data with its resources block in pieces of about
// target bytes. It reports false when the file is not one it parses so,
// and the caller then parses the whole document.
func parseChunked(file, dir string, data []byte, target int) (*Project, error, bool) {
	c, ok := cutResources(data, target)
	if !ok {
		return nil, nil, false
	}
	r := &reader{diags: &diags{file: file}, budget: len(data) + aliasAllowance}
	var ch *chunked
	done := make(chan bool)
	go func() {
		var ok bool
		ch, ok = c.parsePieces(file, r.budget)
		done <- ok
	}()
	var doc yaml.Node
	err := yaml.Unmarshal(c.rest(data), &doc)
	if !<-done || err != nil || !c.placeholderAt(&doc) {
		return nil, nil, false
	}
	if r.visited += ch.visited; r.visited > r.budget {
		return nil, nil, false
	}
	r.chunked = ch
	p, err := parseDoc(r, file, dir, &doc)
	return p, err, true
}

// placeholderAt reports whether the rest's root mapping has the plain key
// resources at the cut's line, first column, with an empty value.
func (c *cut) placeholderAt(doc *yaml.Node) bool {
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Line == c.line && k.Column == 1 {
			return k.Kind == yaml.ScalarNode && k.Style == 0 && k.Value == "resources" && k.Anchor == "" &&
				v.Kind == yaml.ScalarNode && v.Value == "" && v.ShortTag() == "!!null" && v.Anchor == ""
		}
	}
	return false
}

// addChunked takes the resources read from pieces as parseResources
// would have read them: duplicate keys reported first and dropped with
// what their conversion reported, then each entry's diagnostics and
// resource in order.
func (p *Project) addChunked(r *reader, ch *chunked) {
	seen := make(map[string]pos, ch.entries)
	dup := make([]bool, 0, ch.entries)
	for _, es := range ch.pieces {
		for _, en := range es {
			first, again := seen[en.key]
			if again {
				r.duplicate(en.at, "resources", en.key, first, "resources")
			} else {
				seen[en.key] = en.at
			}
			dup = append(dup, again)
		}
	}
	i := 0
	for _, es := range ch.pieces {
		for _, en := range es {
			if !dup[i] {
				r.list = append(r.list, en.diags...)
				if en.decl != nil {
					p.resources = append(p.resources, en.decl)
				}
			}
			i++
		}
	}
}
