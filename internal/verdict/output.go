package verdict

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// A tool's result (a PostToolUse payload's tool_response) is replaced as a
// whole by an answer's updatedToolOutput or updatedMCPToolOutput, as a
// tool input is by updatedInput; but a result need not be an object: a
// built-in tool's is one, an MCP tool's is an array of content blocks (or
// an object, or a string), and a shell command's under Codex is a string.
// The functions below judge such a value whatever its root, down to every
// member and every array element.

// maxElements is how many elements of an array [Slots] lists in full;
// of a longer array it lists the first maxElements-1 and the last, which
// are where a hook that keeps "the first block" or "all but the last line"
// shows.
const maxElements = 4

// Slot is one place of a value that a property run puts tricky values in.
type Slot struct {
	// Pointer is its JSON pointer in the value ("" for the root, "/stdout",
	// "/0/text").
	Pointer string
	// Value is what it holds, a scalar (or the root string).
	Value []byte
}

// Slots returns the places of v, a tool's result, that a property run
// puts tricky values in: every scalar at every depth (object members and
// array elements, of arrays longer than maxElements only the first
// maxElements-1 and the last), in document order; or, when v itself is a
// scalar (a shell command's output under Codex is a string), v as a
// whole. Empty containers have no slot: [WithOddMembers] and an added
// member reach them.
func Slots(v []byte) []Slot {
	var out []Slot
	var walk func(ptr string, v []byte)
	walk = func(ptr string, v []byte) {
		switch jsontext.Value(v).Kind() {
		case '{':
			ms, err := rawjson.Members(v)
			if err != nil {
				return
			}
			for _, m := range ms {
				walk(ptr+"/"+rawjson.PointerToken(m.Key), m.Value)
			}
		case '[':
			es := elements(v)
			for i, e := range es {
				if len(es) > maxElements && i >= maxElements-1 && i < len(es)-1 {
					continue
				}
				walk(ptr+"/"+strconv.Itoa(i), e)
			}
		default:
			out = append(out, Slot{Pointer: ptr, Value: v})
		}
	}
	walk("", v)
	return out
}

// SetAt returns a copy of v with the value at the JSON pointer ptr
// replaced by value ("" replaces v as a whole), every other byte kept. It
// reports false when ptr points to nothing in v.
func SetAt(v []byte, ptr string, value []byte) ([]byte, bool) {
	if ptr == "" {
		return slices.Clone(value), true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	tok, rest, deeper := strings.Cut(ptr[1:], "/")
	if deeper {
		rest = "/" + rest
	}
	name := strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
	switch jsontext.Value(v).Kind() {
	case '{':
		ms, err := rawjson.Members(v)
		if err != nil {
			return nil, false
		}
		for i, m := range ms {
			if m.Key != name {
				continue
			}
			nv, ok := SetAt(m.Value, rest, value)
			if !ok {
				return nil, false
			}
			ms = slices.Clone(ms)
			ms[i].Value = nv
			return rawjson.AppendObject(nil, ms), true
		}
	case '[':
		i, err := strconv.Atoi(name)
		es := elements(v)
		if err != nil || i < 0 || i >= len(es) || strconv.Itoa(i) != name {
			return nil, false
		}
		nv, ok := SetAt(es[i], rest, value)
		if !ok {
			return nil, false
		}
		es = slices.Clone(es)
		es[i] = nv
		return appendArray(nil, es), true
	}
	return nil, false
}

// appendArray appends the JSON array of the elements es to dst.
func appendArray(dst []byte, es [][]byte) []byte {
	dst = append(dst, '[')
	for i, e := range es {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e...)
	}
	return append(dst, ']')
}

// WithOddMembers returns a copy of v with the members of [OddMembers]
// added to every object in it, at every depth (the root, an MCP content
// block, a nested file record), and whether v held an object at all. The
// other bytes are kept.
func WithOddMembers(v []byte) ([]byte, bool) {
	found := false
	var walk func(v []byte) []byte
	walk = func(v []byte) []byte {
		switch jsontext.Value(v).Kind() {
		case '{':
			ms, err := rawjson.Members(v)
			if err != nil {
				return v
			}
			found = true
			names := make([]string, len(ms))
			ms = slices.Clone(ms)
			for i := range ms {
				names[i] = ms[i].Key
				ms[i].Value = walk(ms[i].Value)
			}
			return rawjson.AppendObject(nil, append(ms, OddMembers(names)...))
		case '[':
			es := elements(v)
			for i := range es {
				es[i] = walk(es[i])
			}
			return appendArray(nil, es)
		}
		return v
	}
	out := walk(v)
	return out, found
}

// CompareOutput compares out, an updatedToolOutput (or
// updatedMCPToolOutput), with in, the tool_response the hook received, as
// Claude Code reads both, whatever their roots. Members of out that in
// lacks, and array elements out adds, are the hook's additions and are not
// reported. Where both sides are objects, or arrays, the difference is
// located at the deepest member or element that differs; an array that
// lost elements reports each lost element ([Lost] at its index in in),
// the kept ones matched in order. A Diff at or below a pointer of removed
// is not reported; nor is one at or below a pointer of changed, except the
// loss of that very member (a member changed on purpose must still be
// there). Diffs come in the order of in.
func CompareOutput(in, out []byte, changed, removed []string) []Diff {
	ds := diffValue(nil, "", in, out, true)
	kept := ds[:0]
	for _, d := range ds {
		skip := slices.ContainsFunc(removed, func(p string) bool { return Within(d.Pointer, p) }) ||
			slices.ContainsFunc(changed, func(p string) bool {
				return Within(d.Pointer, p) && !(d.Problem == Lost && d.Pointer == p)
			})
		if !skip {
			kept = append(kept, d)
		}
	}
	return kept
}

// OutputPointer returns the JSON pointer in a tool's result that a
// declared change names: s itself when it starts with "/" (or is ""), the
// top-level member s otherwise ("stdout" is "/stdout").
func OutputPointer(s string) string {
	if s == "" || strings.HasPrefix(s, "/") {
		return s
	}
	return "/" + rawjson.PointerToken(s)
}

// diffAligned appends the differences between the elements ae and be of
// two arrays of other lengths at ptr, and reports whether an element of
// ae was lost: each element of ae is matched, in order, to the next
// element of be that holds the same value; between two matched elements
// the others pair up in order and are compared in place, and the
// elements of ae left over are lost.
func diffAligned(ds []Diff, ptr string, ae, be [][]byte) ([]Diff, bool) {
	var pairs [][2]int // anchors, in order
	j := 0
	for i := range ae {
		for k := j; k < len(be); k++ {
			if SameValue(ae[i], be[k]) {
				pairs = append(pairs, [2]int{i, k})
				j = k + 1
				break
			}
		}
	}
	pairs = append(pairs, [2]int{len(ae), len(be)})
	lost := false
	pi, pk := 0, 0
	for _, p := range pairs {
		for i, k := pi, pk; i < p[0]; i, k = i+1, k+1 {
			at := fmt.Sprintf("%s/%d", ptr, i)
			if k < p[1] {
				ds = diffValue(ds, at, ae[i], be[k], true)
				continue
			}
			lost = true
			ds = append(ds, Diff{Pointer: at, Problem: Lost, In: ae[i]})
		}
		pi, pk = p[0]+1, p[1]+1
	}
	return ds, lost
}
