package hook

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// Merge returns a copy of the JSON object orig in which the top-level
// members of patch are set, and every other member is kept byte for byte.
//
// Merge is the safe way to build a PreToolUse or PermissionRequest
// updatedInput: Claude Code replaces the whole tool input with the answer,
// so a member the answer leaves out is lost. Merge starts from the incoming
// tool_input instead of building a new object.
//
// The rules, in order:
//   - orig must be one JSON object without duplicate names; anything else is
//     an error.
//   - A member of orig that patch names is replaced in place (same position,
//     same name bytes, new value).
//   - Members of patch that orig lacks are appended after the last member of
//     orig, in patch order.
//   - Every other member of orig, name and value, is copied byte for byte and
//     in order; its value is never decoded or re-encoded, so big integers,
//     "2.50", escapes and lone surrogates survive.
//   - Merge is shallow: a nested object named in patch is replaced whole.
//   - Nothing is ever removed: a null in patch sets the member to null. Use
//     [Remove] to drop members.
//
// patch may be a [jsontext.Value] holding an object, a struct (members in
// field order, honoring json tags and omitempty/omitzero), or a map with
// string keys (members in sorted key order). Values inside patch are
// encoded with the library's options, so a jsontext.Value inside a patch is
// written exactly. Whitespace between the members of orig is not kept
// (the result is written {"a":…,"b":…}); whitespace inside a value that is
// kept is, as the rest of its bytes. An answer carries every raw value
// compact, so its updatedInput is the same bytes whether orig was
// pretty-printed or not.
func Merge(orig jsontext.Value, patch any) (jsontext.Value, error) {
	return mergeWith(nil, orig, patch)
}

// mergeWith is the one merge behind [Merge], [PreToolUse.Merge] and
// [PermissionRequest.Merge]. vg is the vouching of the handler's
// invocation (nil outside one, see vouch.go): when orig is the incoming
// tool_input, unchanged, the merge reuses the split the read made of it
// instead of validating it again, and vouches for the result. An input
// that the read did not split (more than wire.MaxSub members) is split
// only when the patch replaces one of its members: a patch of new
// members is appended to its bytes.
func mergeWith(vg *vouching, orig jsontext.Value, patch any) (jsontext.Value, error) {
	if vg.unsplit(orig) && vg.holdsInput(orig) {
		if out, ok, err := mergeUnsplit(vg, orig, patch); ok || err != nil {
			return out, err
		}
	}
	ms, known := vg.splitOf(orig)
	if !known {
		var err error
		if ms, err = rawjson.Members(orig); err != nil {
			return nil, objectError("Merge: the original", err)
		}
	}
	pb, ps, compact, err := splitPatch(patch)
	if err != nil {
		return nil, err
	}
	if known {
		return vg.mergeInput(orig, ms, pb, ps, compact, len(ms)+len(ps) > 0), nil
	}
	return mergeMembers(orig, ms, ps), nil
}

// mergeUnsplit is mergeWith for the vouched incoming tool_input that the
// read left unsplit. It reports false when the input's members cannot be
// known (a handler wrote into its bytes before they were split).
func mergeUnsplit(vg *vouching, orig jsontext.Value, patch any) (jsontext.Value, bool, error) {
	pb, ps, compact, err := splitPatch(patch)
	if err != nil {
		return nil, false, err
	}
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.Key
	}
	if !vg.compact {
		// The input's members are walked once, for the keys and to
		// write them.
		if out, ok := vg.appendInput(orig, pb, ps, keys, compact); ok {
			return out, true, nil
		}
	} else if found, ok := rawjson.HasKey(orig, keys); ok && !found {
		return vg.mergeInput(orig, nil, pb, ps, compact, len(ps) > 0 || len(orig) > 2), true, nil
	}
	ms, ok := vg.inputMembers()
	if !ok {
		return nil, false, nil
	}
	return vg.mergeInput(orig, ms, pb, ps, compact, len(ms)+len(ps) > 0), true, nil
}

// mergeMembers builds the merged object of the members ms of orig and the
// patch members ps.
func mergeMembers(orig []byte, ms, ps []rawjson.Member) jsontext.Value {
	m := mergeOut{out: make(jsontext.Value, 0, len(orig)+patchSize(ps)+2), base: orig}
	m.merge(ms, ps)
	return m.out
}

// mergeOut is where a merge of a base object and a patch writes its
// result: out, and, when sp is set, the same bytes as the pieces of sp
// (ranges of base and bytes of sp's own; see vouchsplice.go).
type mergeOut struct {
	out  jsontext.Value
	base []byte
	sp   *splicedValue
	// changed is set once the result holds a token that base does not
	// have there: a member appended, a value replaced by another.
	changed bool
}

// from appends v, a slice of m.base.
func (m *mergeOut) from(v []byte) {
	m.out = append(m.out, v...)
	if m.sp != nil {
		m.sp.addBase(m.base, v)
	}
}

// own appends v, bytes not taken from m.base.
func (m *mergeOut) own(v ...byte) {
	m.out = append(m.out, v...)
	if m.sp != nil {
		m.sp.addOwn(m.base, v)
	}
}

// merge writes the merged object of m.base's members ms and the patch
// members ps.
func (m *mergeOut) merge(ms, ps []rawjson.Member) {
	used := make([]bool, len(ps))
	m.own('{')
	n := 0
	find := indexMembers(ps)
	for _, mb := range ms {
		if j := find(mb.Key); j >= 0 {
			used[j] = true
			m.changed = m.changed || !rawjson.SameTokens(mb.Value, ps[j].Value)
			m.member(&n, mb.Name, ps[j].Value, false)
			continue
		}
		m.member(&n, mb.Name, mb.Value, true)
	}
	m.patch(n, ps, used)
}

// member writes the member of the given name (a slice of m.base) and
// value, after a comma unless it is the first (*n counts the members
// written); the value is a slice of m.base when fromBase is set.
func (m *mergeOut) member(n *int, name, value []byte, fromBase bool) {
	if *n > 0 {
		m.own(',')
	}
	*n++
	m.from(name)
	m.own(':')
	if fromBase {
		m.from(value)
	} else {
		m.own(value...)
	}
}

// patch writes the patch members ps that used does not mark (all of them
// when used is nil) after the n members written, and closes the object.
func (m *mergeOut) patch(n int, ps []rawjson.Member, used []bool) {
	for j, p := range ps {
		if used != nil && used[j] {
			continue
		}
		if n > 0 {
			m.own(',')
		}
		n++
		m.changed = true
		m.own(p.Name...)
		m.own(':')
		m.own(p.Value...)
	}
	m.own('}')
	m.done()
}

// done tells the pieces, when they are not the result's bytes (the
// input or the patch had whitespace), whether the result is the base's
// tokens (see unchanged).
func (m *mergeOut) done() {
	if m.sp != nil {
		m.sp.same = !m.changed
	}
}

// append writes m.base, a compact object without the keys of ps, with
// the patch members ps appended.
func (m *mergeOut) append(ps []rawjson.Member) {
	m.from(m.base[:len(m.base)-1])
	m.patch(btoi(len(m.base) > 2), ps, nil) // base has members: it is not {}
}

// appendSpaced is append for a base with whitespace between its tokens:
// it writes base's members as merge does (the result is the same bytes
// whichever way it is built) and returns their number. It reports false,
// having written a part, when base has a member with one of the keys of
// ps or is not an object as expected; keys are those of ps, in order.
// The pieces, when recorded, take base up to its last member as one
// range, whitespace and all, which the writer compacts.
func (m *mergeOut) appendSpaced(ps []rawjson.Member, keys []string) (int, bool) {
	out := append(m.out, '{')
	n, clash, last := 0, false, 1
	ok := rawjson.EachMember(m.base, func(name, value []byte) bool {
		if rawjson.NameIn(name, keys) {
			clash = true
			return false
		}
		if n > 0 {
			out = append(out, ',')
		}
		n++
		out = append(out, name...)
		out = append(out, ':')
		out = append(out, value...)
		if off, ok := offsetIn(m.base, value); ok {
			last = off + len(value)
		}
		return true
	})
	if !ok || clash {
		return 0, false
	}
	m.out = out
	if m.sp != nil {
		m.sp.addBase(m.base, m.base[:last])
	}
	m.patch(n, ps, nil)
	return n, true
}

// btoi returns 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// smallIndex is the member count up to which a linear search beats
// building a map.
const smallIndex = 8

// indexMembers returns a function that finds the index in ms of the member
// with key k (or -1): a linear search for a few members, a map for more,
// so that looking up every member of one object in another stays linear
// in their sizes.
func indexMembers(ms []rawjson.Member) func(k string) int {
	if len(ms) <= smallIndex {
		return func(k string) int {
			for i, m := range ms {
				if m.Key == k {
					return i
				}
			}
			return -1
		}
	}
	idx := make(map[string]int, len(ms))
	for i, m := range ms {
		if _, dup := idx[m.Key]; !dup {
			idx[m.Key] = i
		}
	}
	return func(k string) int {
		if i, ok := idx[k]; ok {
			return i
		}
		return -1
	}
}

// nameSet returns a function that reports whether k is one of names, in
// constant time for many names.
func nameSet(names []string) func(k string) bool {
	if len(names) <= smallIndex {
		return func(k string) bool {
			for _, n := range names {
				if n == k {
					return true
				}
			}
			return false
		}
	}
	set := make(map[string]struct{}, len(names))
	for _, n := range names {
		set[n] = struct{}{}
	}
	return func(k string) bool { _, ok := set[k]; return ok }
}

func patchSize(ps []rawjson.Member) int {
	n := 0
	for _, p := range ps {
		n += len(p.Name) + len(p.Value) + 2
	}
	return n
}

// patchBytes encodes a patch as a JSON object.
func patchBytes(patch any) ([]byte, error) {
	switch p := patch.(type) {
	case nil:
		return nil, fmt.Errorf("hook: Merge: the patch is nil")
	case jsontext.Value:
		return p, nil
	case *jsontext.Value:
		return *p, nil
	}
	b, err := wire.MarshalPatch(patch)
	if err != nil {
		return nil, fmt.Errorf("hook: Merge: encoding the patch: %w", err)
	}
	return b, nil
}

// Remove returns a copy of the JSON object orig without the top-level
// members named in names; every other member is kept byte for byte and in
// order. Names that orig does not hold are ignored. Remove is the only way
// this package drops a member from a tool input: neither [Merge] nor a
// typed edit removes anything by accident. An answer that carries the
// result must list the removed names (see [PreToolUseOutput.Removed]) so
// that validation knows the removal is meant.
func Remove(orig jsontext.Value, names ...string) (jsontext.Value, error) {
	ms, err := rawjson.Members(orig)
	if err != nil {
		return nil, objectError("Remove: the original", err)
	}
	kept := ms[:0]
	drop := nameSet(names)
	for _, m := range ms {
		if !drop(m.Key) {
			kept = append(kept, m)
		}
	}
	return rawjson.AppendObject(make(jsontext.Value, 0, len(orig)), kept), nil
}
