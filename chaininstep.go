package hook

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
)

// This file walks the members of objects the read has validated without
// splitting them into rawjson.Member values (rawjson.TrustedWalk): the
// undo check compares a rewrite's input with the input before the chain
// member by member in step, and most members are the same bytes in both.

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
	bw, bok := rawjson.NewTrustedWalk(base)
	sw, sok := rawjson.NewTrustedWalk(seen)
	uw, uok := rawjson.NewTrustedWalk(upd)
	if !bok || !sok || !uok {
		return false
	}
	var diffs []memberDiff
	for {
		bn, bv, bdone, bbad := bw.Next()
		sn, sv, sdone, sbad := sw.Next()
		switch {
		case bbad || sbad:
			return false
		case bdone:
			for !sdone {
				if !simpleName(sn) {
					return false
				}
				diffs = append(diffs, memberDiff{name: sn, s: sv, added: true})
				if sn, sv, sdone, sbad = sw.Next(); sbad {
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
		un, uv, udone, ubad := uw.Next()
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
