package inputedit

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// Merge is the one merge behind hook.Merge, hook.PreToolUse.Merge and
// hook.PermissionRequest.Merge. vg is the vouching of the handler's
// invocation (nil outside one, see vouch.go): when orig is the incoming
// tool_input, unchanged, the merge reuses the split the read made of it
// instead of validating it again, and vouches for the result. An input
// that the read did not split (more than wire.MaxSub members) is split
// only when the patch replaces one of its members: a patch of new
// members is appended to its bytes.
func Merge(vg *Vouching, orig jsontext.Value, patch any) (jsontext.Value, error) {
	if vg.unsplit(orig) && vg.holdsInput(orig) {
		if out, ok, err := mergeUnsplit(vg, orig, patch); ok || err != nil {
			return out, err
		}
	}
	ms, known := vg.SplitOf(orig)
	if !known {
		var err error
		if ms, err = rawjson.Members(orig); err != nil {
			return nil, ObjectError("Merge: the original", err)
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

// mergeUnsplit is Merge for the vouched incoming tool_input that the
// read left unsplit. It reports false when the input's members cannot be
// known (a handler wrote into its bytes before they were split).
func mergeUnsplit(vg *Vouching, orig jsontext.Value, patch any) (jsontext.Value, bool, error) {
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
// (ranges of base and bytes of sp's own; see splice.go).
type mergeOut struct {
	out  jsontext.Value
	base []byte
	sp   *Spliced
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
	find := IndexMembers(ps)
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
// tokens (see Vouching.Answer).
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

// IndexMembers returns a function that finds the index in ms of the member
// with key k (or -1): a linear search for a few members, a map for more,
// so that looking up every member of one object in another stays linear
// in their sizes.
func IndexMembers(ms []rawjson.Member) func(k string) int {
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

// NameSet returns a function that reports whether k is one of names, in
// constant time for many names.
func NameSet(names []string) func(k string) bool {
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

// mergeInput returns the Merge result of orig, the vouched input, with
// the validated patch pb of members ps: orig's members ms with ps set,
// or, when ms is nil, orig with ps appended (orig has none of their
// keys). It vouches for the result when the patch is UTF-8 and the
// result has members, and then, when the result may be SpliceFrom bytes
// or more, records its pieces too. compact tells whether the patch has
// no whitespace between its tokens: a result that may have some (from
// the input or the patch) is vouched for too, and compacted when it is
// written, as the encoder would write it.
func (vg *Vouching) mergeInput(orig []byte, ms []rawjson.Member, pb []byte, ps []rawjson.Member, compact, members bool) jsontext.Value {
	m, spaced := vg.startMerge(orig, pb, ps, compact)
	if ms == nil {
		m.append(ps)
	} else {
		m.merge(ms, ps)
	}
	return vg.endMerge(m, pb, members, spaced)
}

// appendInput is mergeInput for orig, the vouched input with whitespace
// between its tokens, and a patch ps of the given keys: it walks orig's
// members once, to find whether one has a key of the patch and to write
// them, without splitting orig. It reports false when one has.
func (vg *Vouching) appendInput(orig, pb []byte, ps []rawjson.Member, keys []string, compact bool) (jsontext.Value, bool) {
	m, spaced := vg.startMerge(orig, pb, ps, compact)
	n, ok := m.appendSpaced(ps, keys)
	if !ok {
		return nil, false
	}
	return vg.endMerge(m, pb, n+len(ps) > 0, spaced), true
}

// startMerge returns where a Merge of orig, the vouched input, and the
// patch pb of members ps writes its result, and whether the result may
// have whitespace between its tokens (compact tells whether the patch
// has none). It records the result's pieces too when the result may be
// vouched for (the patch is UTF-8) and may be SpliceFrom bytes or more.
func (vg *Vouching) startMerge(orig, pb []byte, ps []rawjson.Member, compact bool) (mergeOut, bool) {
	m := mergeOut{out: make(jsontext.Value, 0, len(orig)+patchSize(ps)+2), base: orig}
	spaced := !compact || !vg.compact
	if cap(m.out) >= SpliceFrom && wire.InvalidUTF8(pb) < 0 {
		m.sp = &Spliced{vg: vg, spaced: !vg.compact, ownSpaced: !compact}
	}
	return m, spaced
}

// endMerge vouches for the result of m when the patch pb is UTF-8 and
// the result has members, and returns it.
func (vg *Vouching) endMerge(m mergeOut, pb []byte, members, spaced bool) jsontext.Value {
	if members && wire.InvalidUTF8(pb) < 0 {
		vg.vouchMerged(m.out, m.sp, spaced)
	}
	return m.out
}

// splitPatch encodes and splits the patch of a Merge: its bytes, its
// members and whether it is compact. A raw patch is copied first: what is
// validated is what the result is built from, even if a goroutine of the
// handler still writes into the handler's bytes.
func splitPatch(patch any) (pb []byte, ps []rawjson.Member, compact bool, err error) {
	if pb, err = patchBytes(patch); err != nil {
		return nil, nil, false, err
	}
	switch patch.(type) {
	case jsontext.Value, *jsontext.Value:
		pb = bytes.Clone(pb)
	}
	if ps, compact, err = rawjson.MembersCompact(pb); err != nil {
		return nil, nil, false, ObjectError("Merge: the patch", err)
	}
	return pb, ps, compact, nil
}
