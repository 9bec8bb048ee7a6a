package hook

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/rawjson"
)

// checkKept refuses the rewrite in out, a handler's answer to view, when
// it undoes what the handlers before it did to ev, the event the
// outermost chain was given. The answer was already checked against
// view, the input it saw (a tool_input rewrite keeps every member of it
// or lists it in Removed); this catches a rewrite built from a copy of
// the input the handler kept from before the chain changed it, which
// that check cannot tell from a change made on purpose. What it refuses
// is listed in keeper. In a rewrite that [Merge], [Edit] or [Update]
// built from the very input the handler was given (see chainown.go),
// every member is the handler's own choice, so only what it puts back
// into an array is refused.
func checkKept(ev, view *Event, out Output) error {
	name, upd := rewrite(out)
	if upd == nil || !rewriteStands(out) {
		return nil
	}
	base, _ := ev.Field(name)
	seen, _ := view.Field(name)
	if !handedIntact(seen) {
		return fmt.Errorf("the handler wrote into the bytes of the %s it was given, so what the handlers before it did to it cannot be checked; build the rewrite with Merge, Edit or Remove, which copy", name)
	}
	if base == nil || seen == nil || bytes.Equal(base, seen) {
		return nil // nothing was changed before this handler
	}
	if wasChecked(ev, upd) {
		return nil // a sub-chain's answer, checked inside it
	}
	var removed []string
	if r, ok := out.(remover); ok {
		removed = r.removedMembers()
	}
	k := newKeeper(removed)
	// A rewrite built by Merge, Edit or Update from what the handler was
	// given holds only that and the handler's own changes: its members
	// are its choice, but not what it puts back into an array.
	k.own = builtFrom(seen, upd)
	objects := jsontext.Value(base).Kind() == '{' && jsontext.Value(seen).Kind() == '{' && jsontext.Value(upd).Kind() == '{'
	switch {
	case objects && k.checkInStep(base, seen, upd, true):
	case objects:
		// The splits the read and the chain made of base and seen.
		bms, berr := membersOf(ev, name, base)
		sms, serr := membersOf(view, name, seen)
		ums, uerr := rawjson.MembersTrusted(upd)
		if berr == nil && serr == nil && uerr == nil {
			k.checkMembers("", bms, sms, ums, true, false)
		}
	default:
		k.check("", base, seen, upd, true, false)
	}
	if len(k.lost) == 0 && len(k.undone) == 0 {
		noteChecked(ev, upd)
		return nil
	}
	var parts []string
	if len(k.lost) > 0 {
		parts = append(parts, fmt.Sprintf("it lacks %s, which an earlier handler set", strings.Join(k.lost, ", ")))
	}
	if len(k.undone) > 0 {
		parts = append(parts, fmt.Sprintf("it puts back what %s held before an earlier handler changed or removed it", strings.Join(k.undone, ", ")))
	}
	return fmt.Errorf("the %s it rewrote undoes the handlers before it: %s. A rewrite built from a copy of the %s kept from before the chain changed it does that; build it from the %s this handler was given (the chain feeds each handler the previous one's rewrite)%s%s",
		name, strings.Join(parts, "; "), name, name, removedHint(out), ownHint(seen))
}

// A remover is an answer whose rewrite may drop members on purpose, when
// it lists them (Removed).
type remover interface {
	removedMembers() []string
}

// rewriteStands reports whether the rewrite in out can reach the
// combined answer: an answer can drop it (a PreToolUse deny or defer).
func rewriteStands(out Output) bool {
	if s, ok := out.(interface{ rewriteStands() bool }); ok {
		return s.rewriteStands()
	}
	return true
}

// removedHint tells how to drop a member on purpose, where the answer can.
func removedHint(out Output) string {
	if _, ok := out.(remover); ok {
		return ", and list in Removed what it drops on purpose"
	}
	return ""
}

// ownHint tells how to set a member back on purpose, where the rewritten
// value is an object (Merge, Edit and Update take objects).
func ownHint(seen []byte) string {
	if jsontext.Value(seen).Kind() != '{' {
		return ""
	}
	return "; to set a member back to its original value on purpose, build the rewrite with Merge, Edit or Update from the value this handler was given: what those set is the handler's own"
}

// keeper collects what a rewrite lost or undid. It compares three
// values: base, the member as the outermost chain was given it; seen, as
// the handler was given it; upd, as the handler rewrote it. Only where
// seen differs from base (an earlier handler changed it) is there
// anything to keep:
//   - Objects are compared member by member (names are identities). A
//     member seen has and base lacks or holds otherwise (an earlier
//     handler added or changed it) must be in upd, for the rewrites
//     without Removed (updatedToolOutput, an elicitation's content); with
//     Removed, only a listed top-level member may be missing. A member
//     whose value changed is compared again one level down; a member
//     removed before the handler must not be back, at any depth, with
//     what it held.
//   - Arrays are compared by their elements' values, as elements have no
//     names and move: an element of base that seen no longer has (the
//     earlier handler removed or changed it) must not be in upd more
//     times than in seen, wherever it stands (appended, prepended,
//     reordered). An element changed in place (base's and seen's
//     elements that are not each other's, paired in order when there
//     are as many of each, or when they still share a member) is
//     compared one level down with the element of upd that is a version
//     of it (see claim): one that holds a member the earlier handler
//     replaced in it next to one it kept, one that alone shares a kept
//     member with it (an id), or, for an element of which nothing was
//     kept, the one at its place. An element an earlier handler removed
//     must not be back whole, nor with members added.
//   - Any other value (a string, a number, a value that changed kind)
//     must not be base's again after seen changed it.
//
// Values are equal as [rawjson.SameValue] compares them (a re-encoding
// is the same value). Every value is split and hashed once, so the check
// is linear in the size of the three values.
type keeper struct {
	// own is set for a rewrite that Merge, Edit or Update built from the
	// value the handler was given (see chainown.go): only an array
	// element put back is refused then.
	own          bool
	removed      func(string) bool
	lost, undone []string
	h            valueHasher
}

func newKeeper(removed []string) *keeper {
	return &keeper{removed: nameSet(removed), h: newValueHasher()}
}

// check compares, at the JSON pointer path, the value base had before
// the chain, seen as the handler saw it, and upd as it rewrote it. top is
// set for the rewritten member itself; inArray for values inside an
// array element, where nothing is "lost" (elements have no names to
// keep).
func (k *keeper) check(path string, base, seen, upd jsontext.Value, top, inArray bool) {
	bk, sk, uk := base.Kind(), seen.Kind(), upd.Kind()
	switch {
	case bk == '{' && sk == '{' && uk == '{':
		k.checkObject(path, base, seen, upd, top, inArray)
	case bk == '[' && sk == '[' && uk == '[':
		k.checkArray(path, base, seen, upd)
	case (!k.own || inArray) && !k.h.same(base, seen) && k.h.same(base, upd):
		// A whole value changed before the handler, and is back.
		k.undone = append(k.undone, pathName(path))
	}
}

// checkObject is check for three objects.
func (k *keeper) checkObject(path string, base, seen, upd jsontext.Value, top, inArray bool) {
	bms, berr := rawjson.MembersTrusted(base)
	sms, serr := rawjson.MembersTrusted(seen)
	ums, uerr := rawjson.MembersTrusted(upd)
	if berr != nil || serr != nil || uerr != nil {
		return // not what the read validated: the answer check reports it
	}
	k.checkMembers(path, bms, sms, ums, top, inArray)
}

// checkMembers is checkObject with the three objects' members.
func (k *keeper) checkMembers(path string, bms, sms, ums []rawjson.Member, top, inArray bool) {
	inBase, inSeen, inUpd := &memberIndex{ms: bms}, &memberIndex{ms: sms}, &memberIndex{ms: ums}
	kept := 0 // members of base that seen has
	for n, s := range sms {
		i := inBase.find(s.Key, n)
		if i >= 0 {
			kept++
			if bytes.Equal(bms[i].Value, s.Value) {
				continue // not changed before the handler: its own to change
			}
		}
		j := inUpd.find(s.Key, n)
		switch {
		case j < 0:
			if !inArray && (!top || !k.removed(s.Key)) {
				k.lost = append(k.lost, path+"/"+rawjson.PointerToken(s.Key))
			}
		case i >= 0:
			k.check(path+"/"+rawjson.PointerToken(s.Key), bms[i].Value, s.Value, ums[j].Value, false, inArray)
		}
	}
	if kept == len(bms) {
		return // no member was removed before the handler
	}
	for n, b := range bms {
		if inSeen.find(b.Key, n) >= 0 {
			continue
		}
		// Removed before the handler: back with what it held?
		if j := inUpd.find(b.Key, n); j >= 0 && (!k.own || inArray) {
			k.checkGone(path+"/"+rawjson.PointerToken(b.Key), b.Value, ums[j].Value)
		}
	}
}

// memberIndex finds the members of an object by name: at the place the
// caller expects first (a rewrite keeps the places of the members it
// keeps, and appends new ones), else through a map made on first need.
// Finding every member costs linear time either way.
type memberIndex struct {
	ms  []rawjson.Member
	idx func(string) int
}

// find returns the index of the member k, trying place first; -1 when
// there is none.
func (x *memberIndex) find(k string, place int) int {
	if place >= 0 && place < len(x.ms) && x.ms[place].Key == k {
		return place
	}
	if x.idx == nil {
		x.idx = inputedit.IndexMembers(x.ms)
	}
	return x.idx(k)
}

// checkGone compares, at path, a value an earlier handler removed with
// what the rewrite has there: none of it may be back, at any depth.
func (k *keeper) checkGone(path string, gone, upd jsontext.Value) {
	if k.h.same(gone, upd) {
		k.undone = append(k.undone, pathName(path))
		return
	}
	switch {
	case gone.Kind() == '{' && upd.Kind() == '{':
		gms, gerr := rawjson.MembersTrusted(gone)
		ums, uerr := rawjson.MembersTrusted(upd)
		if gerr != nil || uerr != nil {
			return
		}
		inUpd := inputedit.IndexMembers(ums)
		for _, g := range gms {
			if j := inUpd(g.Key); j >= 0 {
				k.checkGone(path+"/"+rawjson.PointerToken(g.Key), g.Value, ums[j].Value)
			}
		}
	case gone.Kind() == '[' && upd.Kind() == '[':
		// Every element is gone: none may be back.
		k.checkArray(path, gone, jsontext.Value("[]"), upd)
	}
}

// element is one element of an array, with its place and hash.
type element struct {
	v jsontext.Value
	i int
	h uint64
}

// elements splits the array v into its elements, hashed.
func (k *keeper) elements(v jsontext.Value) ([]element, bool) {
	raw, ok := rawjson.ElementsTrusted(v)
	if !ok {
		return nil, false
	}
	es := make([]element, len(raw))
	for i, e := range raw {
		es[i] = element{v: e, i: i, h: k.h.hash(e)}
	}
	return es, true
}

// unmatched returns the elements of a that b does not have, counted as a
// multiset, in order.
func unmatched(a, b []element) []element {
	count := make(map[uint64]int, len(b))
	for _, e := range b {
		count[e.h]++
	}
	var out []element
	for _, e := range a {
		if count[e.h] > 0 {
			count[e.h]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// changedPair is an element of base that an earlier handler changed in
// place, and what it made of it.
type changedPair struct {
	b, s element
	// kept are the member keys b and s share: what identifies the
	// element.
	kept   []uint64
	claims int
}

// maxClaims bounds how many elements of a rewrite are compared with one
// changed element (a stale copy has it once), and maxShared how many
// changed elements one kept member may name before it is too common to
// tell them apart: both keep the check linear.
const (
	maxClaims = 4
	maxShared = 4
)

// checkArray is check for base and seen arrays.
func (k *keeper) checkArray(path string, base, seen, upd jsontext.Value) {
	bes, bok := k.elements(base)
	ses, sok := k.elements(seen)
	ues, uok := k.elements(upd)
	if !bok || !sok || !uok {
		return
	}
	// Elements of base that seen lacks: removed or changed before the
	// handler. None may be in upd more times than in seen.
	gone := unmatched(bes, ses)
	if len(gone) == 0 {
		return // only additions and moves: nothing to put back
	}
	inSeen := make(map[uint64]int, len(ses))
	for _, e := range ses {
		inSeen[e.h]++
	}
	goneSet := make(map[uint64]bool, len(gone))
	for _, e := range gone {
		goneSet[e.h] = true
	}
	var fresh []element // elements of upd that are not seen's
	for _, u := range ues {
		if inSeen[u.h] > 0 {
			inSeen[u.h]--
			continue
		}
		if goneSet[u.h] {
			k.undone = append(k.undone, path+"/"+strconv.Itoa(u.i))
			continue
		}
		fresh = append(fresh, u)
	}
	if len(fresh) == 0 {
		return
	}
	// Elements changed in place: a gone element of base and a new one of
	// seen, paired in order when there are as many of each, else only
	// when they share a member. Each fresh element of upd is compared
	// with the pair it is a version of.
	added := unmatched(ses, bes)
	pairs := k.pairs(gone, added)
	fresh = k.checkRemoved(path, gone, pairs, fresh)
	if len(pairs) == 0 {
		return
	}
	ix := pairIndex{
		byKept:      make(map[uint64][]*changedPair),
		byRetracted: make(map[uint64][]*changedPair),
		byPlace:     make(map[int]*changedPair),
	}
	for _, p := range pairs {
		var retracted []uint64
		p.kept, retracted = k.keptKeys(p.b.v, p.s.v)
		if len(p.kept) == 0 {
			ix.byPlace[p.s.i] = p
		}
		for _, key := range p.kept {
			if l := ix.byKept[key]; len(l) <= maxShared {
				ix.byKept[key] = append(l, p)
			}
		}
		for _, key := range retracted {
			if l := ix.byRetracted[key]; len(l) <= maxShared {
				ix.byRetracted[key] = append(l, p)
			}
		}
	}
	for _, u := range fresh {
		p := k.claim(u, &ix)
		if p == nil {
			continue
		}
		k.check(path+"/"+strconv.Itoa(u.i), p.b.v, p.s.v, u.v, false, true)
	}
}

// checkRemoved finds, among fresh, the elements of upd that are an
// element an earlier handler removed (one of gone that no pair holds)
// with members or elements added: every member of the removed element is
// in it. It reports them and returns the others.
func (k *keeper) checkRemoved(path string, gone []element, pairs []*changedPair, fresh []element) []element {
	paired := make(map[int]bool, len(pairs))
	for _, p := range pairs {
		paired[p.b.i] = true
	}
	type removedElem struct{ keys int }
	var removed []removedElem
	byKey := make(map[uint64][]int)
	for _, g := range gone {
		if paired[g.i] {
			continue
		}
		keys := distinct(k.memberKeys(g.v))
		if len(keys) == 0 {
			continue
		}
		for _, key := range keys {
			if l := byKey[key]; len(l) <= maxShared {
				byKey[key] = append(l, len(removed))
			}
		}
		removed = append(removed, removedElem{keys: len(keys)})
	}
	if len(removed) == 0 {
		return fresh
	}
	out := fresh[:0:0]
	for _, u := range fresh {
		hits := make(map[int]int)
		back := false
		for _, key := range distinct(k.memberKeys(u.v)) {
			l := byKey[key]
			if len(l) > maxShared {
				continue
			}
			for _, r := range l {
				hits[r]++
				if hits[r] == removed[r].keys {
					back = true
				}
			}
		}
		if back {
			k.undone = append(k.undone, path+"/"+strconv.Itoa(u.i))
			continue
		}
		out = append(out, u)
	}
	return out
}

// distinct returns keys without repeats, in order.
func distinct(keys []uint64) []uint64 {
	if len(keys) < 2 {
		return keys
	}
	seen := make(map[uint64]bool, len(keys))
	out := keys[:0]
	for _, key := range keys {
		if !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	return out
}

// pairs pairs the gone elements of base with the added ones of seen: in
// order when there are as many of each, else each gone element with the
// first added one of its kind that shares a member with it.
func (k *keeper) pairs(gone, added []element) []*changedPair {
	var out []*changedPair
	if len(gone) == len(added) {
		for i := range gone {
			if gone[i].v.Kind() == added[i].v.Kind() {
				out = append(out, &changedPair{b: gone[i], s: added[i]})
			}
		}
		return out
	}
	byKey := make(map[uint64][]int)
	for i, a := range added {
		for _, key := range k.memberKeys(a.v) {
			if l := byKey[key]; len(l) <= maxShared {
				byKey[key] = append(l, i)
			}
		}
	}
	taken := make([]bool, len(added))
	for _, g := range gone {
	next:
		for _, key := range k.memberKeys(g.v) {
			l := byKey[key]
			if len(l) > maxShared {
				continue
			}
			for _, i := range l {
				if !taken[i] && added[i].v.Kind() == g.v.Kind() {
					taken[i] = true
					out = append(out, &changedPair{b: g, s: added[i]})
					break next
				}
			}
		}
	}
	return out
}

// pairIndex finds the changed pairs an element of a rewrite may be a
// version of: by a member they kept, by a member the earlier handler
// replaced in them, and, for pairs that kept nothing, by seen's place.
type pairIndex struct {
	byKept, byRetracted map[uint64][]*changedPair
	byPlace             map[int]*changedPair
}

// claim returns the changed pair that u, a new element of the rewrite,
// is a version of; nil when there is none. In order: a pair whose
// replaced member u holds again, when u also has a member the pair kept
// (a {"type":"text"} block with its old text back) or the pair kept
// nothing; the pair with which u alone shares a kept member (an id); the
// pair that kept nothing at u's place. A new element that
// only shares a common value with a changed one (another todo
// "pending" next to one marked done) is none of these.
func (k *keeper) claim(u element, ix *pairIndex) *changedPair {
	keys := k.memberKeys(u.v)
	take := func(p *changedPair) bool {
		if p.claims >= maxClaims {
			return false
		}
		p.claims++
		return true
	}
	var has map[uint64]bool
	for _, key := range keys {
		l := ix.byRetracted[key]
		if len(l) == 0 || len(l) > maxShared {
			continue
		}
		if has == nil {
			has = make(map[uint64]bool, len(keys))
			for _, k := range keys {
				has[k] = true
			}
		}
		for _, p := range l {
			if sharesAny(has, p.kept) && take(p) {
				return p
			}
		}
	}
	for _, key := range keys {
		if l := ix.byKept[key]; len(l) == 1 && take(l[0]) {
			return l[0]
		}
	}
	if p := ix.byPlace[u.i]; p != nil && take(p) {
		return p
	}
	return nil
}

// sharesAny reports whether has holds one of keys, or keys is empty.
func sharesAny(has map[uint64]bool, keys []uint64) bool {
	if len(keys) == 0 {
		return true
	}
	for _, key := range keys {
		if has[key] {
			return true
		}
	}
	return false
}

// memberKeys returns the hashes of the members of the object v (name and
// value), or of the elements of the array v; nil for any other value.
func (k *keeper) memberKeys(v jsontext.Value) []uint64 {
	switch v.Kind() {
	case '{':
		ms, err := rawjson.MembersTrusted(v)
		if err != nil {
			return nil
		}
		keys := make([]uint64, len(ms))
		for i, m := range ms {
			keys[i] = k.h.member(m.Key, m.Value)
		}
		return keys
	case '[':
		es, ok := rawjson.ElementsTrusted(v)
		if !ok {
			return nil
		}
		keys := make([]uint64, len(es))
		for i, e := range es {
			keys[i] = k.h.hash(e)
		}
		return keys
	}
	return nil
}

// keptKeys returns the member keys that b and s share (what identifies
// an element an earlier handler changed in place) and those of b that s
// lacks (what the earlier handler replaced or removed in it).
func (k *keeper) keptKeys(b, s jsontext.Value) (kept, retracted []uint64) {
	sk := k.memberKeys(s)
	in := make(map[uint64]bool, len(sk))
	for _, key := range sk {
		in[key] = true
	}
	for _, key := range k.memberKeys(b) {
		if in[key] {
			kept = append(kept, key)
		} else {
			retracted = append(retracted, key)
		}
	}
	return kept, retracted
}

// pathName names the value at the JSON pointer path in a message.
func pathName(path string) string {
	if path == "" {
		return "the whole value"
	}
	return path
}
