package hook

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
)

// This file walks the members of objects the read has validated without
// splitting them into rawjson.Member values: the undo check compares a
// rewrite's input with the input before the chain member by member in
// step, and most members are the same bytes in both.

// isJSONSpace reports whether c is JSON whitespace.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipJSONSpace returns the index of the first byte at or after i of b
// that is not JSON whitespace.
func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}

// skipJSONString returns the index just past the string that starts at
// b[i] (a '"'), or len(b)+1 when it does not end.
func skipJSONString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b) + 1
}

// skipJSONValue returns the index just past the valid JSON value that
// starts at b[i], or len(b)+1 when it does not end.
func skipJSONValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b) + 1
	}
	switch b[i] {
	case '"':
		return skipJSONString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipJSONString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b) + 1
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isJSONSpace(b[i]) {
		i++
	}
	return i
}

// memberWalk steps through the members of a validated JSON object.
type memberWalk struct {
	b []byte
	i int
}

// newMemberWalk starts a walk of obj; ok is false when obj is not shaped
// like an object.
func newMemberWalk(obj []byte) (w memberWalk, ok bool) {
	i := skipJSONSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return memberWalk{}, false
	}
	return memberWalk{b: obj, i: i + 1}, true
}

// next returns the next member's quoted name and value; done is set after
// the last one, bad when the bytes are not shaped like an object.
func (w *memberWalk) next() (name, value []byte, done, bad bool) {
	b := w.b
	i := skipJSONSpace(b, w.i)
	if i < len(b) && b[i] == ',' {
		i = skipJSONSpace(b, i+1)
	}
	if i < len(b) && b[i] == '}' {
		w.i = i + 1
		return nil, nil, true, false
	}
	if i >= len(b) || b[i] != '"' {
		return nil, nil, false, true
	}
	end := skipJSONString(b, i)
	if end > len(b) {
		return nil, nil, false, true
	}
	name = b[i:end]
	i = skipJSONSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return nil, nil, false, true
	}
	i = skipJSONSpace(b, i+1)
	end = skipJSONValue(b, i)
	if end > len(b) {
		return nil, nil, false, true
	}
	w.i = end
	return name, b[i:end], false, false
}

// simpleName reports whether the quoted name q has no escapes, so that
// its bytes are its identity.
func simpleName(q []byte) bool {
	return bytes.IndexByte(q, '\\') < 0
}

// memberDiff is a member of seen that is not the same bytes in base: a
// changed member (b set) or an added one.
type memberDiff struct {
	name, b, s []byte
	added      bool
}

// checkInStep is the undo check of the objects base, seen and upd (see
// keeper) when seen has base's members in base's order, perhaps with
// other values, and then perhaps more: what a rewrite built by Merge
// gives. It walks them in step without splitting them, and reports false,
// having found nothing, when they are not so (a member removed or moved,
// an escaped name): the caller then splits them.
func (k *keeper) checkInStep(base, seen, upd []byte, top bool) bool {
	bw, bok := newMemberWalk(base)
	sw, sok := newMemberWalk(seen)
	uw, uok := newMemberWalk(upd)
	if !bok || !sok || !uok {
		return false
	}
	var diffs []memberDiff
	for {
		bn, bv, bdone, bbad := bw.next()
		sn, sv, sdone, sbad := sw.next()
		switch {
		case bbad || sbad:
			return false
		case bdone:
			for !sdone {
				if !simpleName(sn) {
					return false
				}
				diffs = append(diffs, memberDiff{name: sn, s: sv, added: true})
				if sn, sv, sdone, sbad = sw.next(); sbad {
					return false
				}
			}
		case sdone, !bytes.Equal(bn, sn):
			return false // a member removed or moved before the handler
		case bytes.Equal(bv, sv):
			continue
		default:
			if !simpleName(sn) {
				return false
			}
			diffs = append(diffs, memberDiff{name: sn, b: bv, s: sv})
		}
		if bdone {
			break
		}
	}
	if len(diffs) == 0 {
		return true // the same members, written otherwise
	}
	// The names are the view's bytes, which no one writes while the
	// check runs (checkKept made sure the handler had not): the map
	// keys need no copies.
	want := make(map[string]int, len(diffs))
	for i, d := range diffs {
		want[unsafe.String(unsafe.SliceData(d.name), len(d.name))] = i
	}
	found := make([][]byte, len(diffs))
	for {
		un, uv, udone, ubad := uw.next()
		if ubad || (!udone && !simpleName(un)) {
			return false
		}
		if udone {
			break
		}
		if i, ok := want[string(un)]; ok {
			if found[i] != nil {
				return false
			}
			found[i] = uv
		}
	}
	for _, d := range diffs {
		if !utf8.Valid(d.name) {
			return false
		}
	}
	path := func(d memberDiff) string { return "/" + rawjson.PointerToken(string(d.name[1:len(d.name)-1])) }
	for i, d := range diffs {
		switch {
		case found[i] == nil:
			if !top || !k.removed(string(d.name[1:len(d.name)-1])) {
				k.lost = append(k.lost, path(d))
			}
		case d.added:
		case scalar(d.b) && scalar(d.s) && scalar(found[i]):
			// check for three scalars, without a path unless it fails.
			if !k.own && !k.h.same(d.b, d.s) && k.h.same(d.b, found[i]) {
				k.undone = append(k.undone, path(d))
			}
		default:
			k.check(path(d), d.b, d.s, found[i], false, false)
		}
	}
	return true
}

// scalar reports whether the JSON value v is neither an object nor an
// array.
func scalar(v []byte) bool {
	return len(v) > 0 && v[0] != '{' && v[0] != '['
}
