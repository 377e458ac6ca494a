package state

import (
	"bytes"
	"encoding/json"
	"errors"
)

// parseSnapshotSplit parses a stored snapshot as json.Unmarshal into a
// snapshotHeader would, without the two passes encoding/json makes over
// the whole of it on one goroutine before a resource decodes (checking
// that it is valid JSON, then skipping over the resources list to hand
// it to resourceList): for 100,000 resources they were 0.3 s of a
// no-change preview's CPU, while the other core waited.
//
// It finds the top-level resources array and its elements in one pass,
// decodes the rest (the header, with the array replaced by []) with
// encoding/json, and checks each element on the goroutine that decodes
// it. A JSON text whose header and elements are all valid JSON, joined
// as an array, is valid JSON, and decodes to what this decoded.
//
// ok is false, and nothing is decoded, for anything it does not take:
// invalid JSON anywhere, a header encoding/json refuses, no resources
// array, a member name with an escape or spelled as resources in
// another case (encoding/json matches names regardless of case), two
// resources members. The caller then decodes the whole text with
// encoding/json, which reports what is wrong exactly as before.
func parseSnapshotSplit(data []byte, c Crypter) (doc snapshotHeader, list *resourceList, ok bool) {
	start, end, elems, found := findResources(data)
	if !found {
		return doc, nil, false
	}
	header := make([]byte, 0, len(data)-(end-start)+2)
	header = append(append(append(header, data[:start]...), "[]"...), data[end:]...)
	list = &resourceList{data: data, c: c}
	doc.Resources = list
	if json.Unmarshal(header, &doc) != nil {
		return doc, nil, false
	}
	out, err := decodeElems(data, elems, c, true)
	if errors.Is(err, errElemNotJSON) {
		return doc, nil, false
	}
	list.out, list.err = out, err
	return doc, list, true
}

// findResources finds the value of the member resources of the JSON
// object data holds, an array, and its elements: [start, end) is the
// array, elems slices of data. found is false if data does not look
// like such an object, or names resources in any other way than once
// and plainly.
func findResources(data []byte) (start, end int, elems [][]byte, found bool) {
	p := skipSpace(data, 0)
	if p >= len(data) || data[p] != '{' {
		return 0, 0, nil, false
	}
	for p++; ; p++ {
		p = skipSpace(data, p)
		if p >= len(data) || data[p] != '"' {
			return 0, 0, nil, false
		}
		keyEnd := stringEnd(data, p)
		if keyEnd >= len(data) {
			return 0, 0, nil, false
		}
		key := data[p+1 : keyEnd]
		if p = skipSpace(data, keyEnd+1); p >= len(data) || data[p] != ':' || bytes.IndexByte(key, '\\') >= 0 {
			return 0, 0, nil, false
		}
		p = skipSpace(data, p+1)
		if bytes.EqualFold(key, []byte("resources")) {
			if found || string(key) != "resources" || p >= len(data) || data[p] != '[' {
				return 0, 0, nil, false
			}
			n := 0
			if elems, n, found = splitArrayChecked(data[p:], maxSplitDepth); !found {
				return 0, 0, nil, false
			}
			start, end = p, p+n
			p = end
		} else if p = valueEnd(data, p, maxSplitDepth); p < 0 {
			return 0, 0, nil, false
		}
		if p = skipSpace(data, p); p >= len(data) {
			return 0, 0, nil, false
		}
		switch data[p] {
		case ',':
			continue
		case '}':
			if !found || skipSpace(data, p+1) != len(data) {
				return 0, 0, nil, false
			}
			return start, end, elems, true
		}
		return 0, 0, nil, false
	}
}

// splitArrayChecked returns the elements of the array span starts with
// and the array's length in bytes. It takes any input: the elements it
// returns are what the array holds if each is valid JSON (which it
// leaves to its caller), and ok is false where anything but space, a
// comma or the closing bracket comes between them, or where an element
// nests deeper than maxDepth (noDepthLimit: any depth).
func splitArrayChecked(span []byte, maxDepth int) (elems [][]byte, n int, ok bool) {
	elems = [][]byte{}
	i := skipSpace(span, 1)
	if i < len(span) && span[i] == ']' {
		return elems, i + 1, true
	}
	for {
		end := valueEnd(span, i, maxDepth)
		if end < 0 {
			return nil, 0, false
		}
		elems = append(elems, span[i:end])
		if i = skipSpace(span, end); i >= len(span) {
			return nil, 0, false
		}
		switch span[i] {
		case ',':
			i = skipSpace(span, i+1)
		case ']':
			return elems, i + 1, true
		default:
			return nil, 0, false
		}
	}
}

// maxSplitDepth bounds the nesting of a resource parseSnapshotSplit
// reads. A resource nested deeper is left to encoding/json's decode of
// the whole text, which counts the snapshot's own object and array in
// its limit of 10,000 levels, as json.Valid on the resource alone would
// not.
const maxSplitDepth = 1000

// noDepthLimit lets valueEnd read a value nested to any depth.
const noDepthLimit = -1

// valueEnd returns the index just past the JSON value starting at
// data[i], read as far as needed to find where it ends (strings to their
// closing quote, brackets to the one that closes the first, literals to
// the next delimiter), or -1 if none starts there, it does not end or
// it nests deeper than maxDepth (unless that is noDepthLimit). It does
// not check the value is valid JSON.
func valueEnd(data []byte, i, maxDepth int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		if e := stringEnd(data, i); e < len(data) {
			return e + 1
		}
		return -1
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = stringEnd(data, i)
			case '{', '[':
				if depth++; maxDepth != noDepthLimit && depth > maxDepth {
					return -1
				}
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case '}', ']', ',', ':':
		return -1
	}
	start := i
	for ; i < len(data); i++ {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if i == start {
				return -1
			}
			return i
		}
	}
	return i
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}
