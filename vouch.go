package hook

import (
	"bytes"
	"hash/maphash"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// This file keeps large tool inputs from being validated again and again.
//
// Serve validates every byte of the input once, when it reads it. A
// handler then typically builds its updatedInput with [PreToolUse.Merge]
// from that input and a small patch, and the answer goes through the
// partial-answer check, the encoder and the final "stdout is one valid
// answer" guard, each of which would scan the whole value again (with a
// hash table of its names on a large object). Instead, an invocation
// vouches for the values it has validated or built from validated pieces:
// the incoming tool_input, and what Merge makes of it. A vouched value is
// known by the identity of its bytes (the same first byte and length) and
// a seeded hash of their content taken when it was vouched, so a handler
// that writes into the bytes afterwards loses the vouching and gets the
// full checks.
//
// The answer then carries a vouched updatedInput as a short placeholder
// string: the small answer around it is encoded and validated whole, and
// the vouched bytes are put in the placeholder's place at the end.
// Replacing one JSON value of a valid document by another valid value
// keeps the document valid (the names around it do not change), so the
// guarantee that stdout is one valid JSON object holds as before.

// spliceFrom is the size from which a vouched updatedInput travels
// through the encoder as a placeholder: below it, encoding the value
// itself costs less than splicing it in.
const spliceFrom = 4 << 10

// vouchedValue is one value an invocation vouches for.
type vouchedValue struct {
	v   []byte // the value; its identity is &v[0] and len(v)
	sum uint64 // the seeded hash of v's bytes when vouched
	id  int    // what a placeholder calls it
}

// vouching is the part of an invocation that tracks the incoming
// tool_input and the values vouched for. Its methods may be called on a
// nil *vouching (an Event built outside Serve), which knows no input and
// vouches for nothing.
type vouching struct {
	seed maphash.Seed
	// input is the incoming tool_input object, hashed when Serve read
	// it; hasInput is set when there is one. compact is set when it has
	// no whitespace between tokens: Merge results of it are vouched for.
	input    vouchedValue
	hasInput bool
	compact  bool

	// split are the input's members, read when the input was read or,
	// for an input of very many members, on first use (splitDone): the
	// bytes are then split if they are still those read, and splitOK
	// reports whether they were.
	splitMu   sync.Mutex
	split     []rawjson.Member
	splitDone bool
	splitOK   bool

	mu sync.Mutex
	// merged are the last values Merge built from the vouched input,
	// each holding every member of it; a placeholder names one's id.
	merged []vouchedValue
	// mergedBuf is where merged starts: most handlers merge once.
	mergedBuf [2]vouchedValue
	nextID    int
	// copies are the library's copies of vouched Merge results that
	// answers carry as placeholders: splice writes these, never the
	// bytes a handler holds.
	copies []vouchedValue
	tag    string // the placeholders' random part; "" until one is out
	// noPlaceholders is set when an answer is encoded again without
	// placeholders.
	noPlaceholders atomic.Bool
}

// vouched returns inv's vouching, or nil when inv is nil.
func (inv *invocation) vouched() *vouching {
	if inv == nil {
		return nil
	}
	return &inv.vouching
}

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// holds reports whether vv vouches for v: the same bytes, unchanged.
func (vg *vouching) holds(vv vouchedValue, v []byte) bool {
	return sameBytes(vv.v, v) && vg.sum(v) == vv.sum
}

// sum returns the seeded hash of v's bytes. It hashes them as one string
// (without copying them), which the runtime's hasher takes in one pass,
// three times as fast on large values as maphash.Bytes, which hashes a
// long slice in 128-byte pieces.
func (vg *vouching) sum(v []byte) uint64 {
	if len(v) == 0 {
		return maphash.Comparable(vg.seed, "")
	}
	return maphash.Comparable(vg.seed, unsafe.String(unsafe.SliceData(v), len(v)))
}

// setInput records the incoming tool_input object in, which the read
// validated as part of a valid UTF-8 event (compact when the event was):
// with its members ms when split is set, else to be split on first use.
func (vg *vouching) setInput(in []byte, ms []rawjson.Member, split, compact bool) {
	vg.seed = maphash.MakeSeed()
	vg.input = vouchedValue{v: in, sum: vg.sum(in)}
	vg.hasInput, vg.compact = true, compact
	if split {
		vg.split, vg.splitDone, vg.splitOK = ms, true, true
	}
}

// inputMembers returns the members of the incoming tool_input, and false
// when they cannot be known: the input was split on first use, and by
// then a handler had written into its bytes.
func (vg *vouching) inputMembers() ([]rawjson.Member, bool) {
	vg.splitMu.Lock()
	defer vg.splitMu.Unlock()
	if !vg.splitDone {
		vg.splitDone = true
		if vg.holds(vg.input, vg.input.v) {
			ms, err := rawjson.MembersTrusted(vg.input.v)
			vg.split, vg.splitOK = ms, err == nil
		}
	}
	return vg.split, vg.splitOK
}

// splitOf returns the members of orig when orig is the compact incoming
// tool_input, unchanged.
func (vg *vouching) splitOf(orig []byte) ([]rawjson.Member, bool) {
	if vg == nil || !vg.hasInput || !vg.compact || !vg.holds(vg.input, orig) {
		return nil, false
	}
	return vg.inputMembers()
}

// vouchMerged records v, a compact, valid UTF-8 object that Merge built
// from the vouched tool_input and a validated patch.
func (vg *vouching) vouchMerged(v []byte) {
	vv := vouchedValue{v: v, sum: vg.sum(v)}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	vv.id = vg.nextID
	vg.nextID++
	const keep = 8 // a handler's last few Merge results
	if len(vg.merged) == keep {
		// A placeholder of the one forgotten no longer resolves.
		vg.merged = append(vg.merged[:0:0], vg.merged[1:]...)
	}
	if vg.merged == nil {
		vg.merged = vg.mergedBuf[:0]
	}
	vg.merged = append(vg.merged, vv)
}

// lookup returns the id of the vouched Merge result v, or -1.
func (vg *vouching) lookup(v []byte) int {
	if vg == nil || !vg.hasInput {
		return -1
	}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	for i := len(vg.merged) - 1; i >= 0; i-- {
		if vg.holds(vg.merged[i], v) {
			return vg.merged[i].id
		}
	}
	return -1
}

// vouchedCopy returns a copy of v and its id when v is a vouched Merge
// result and the copy holds exactly the bytes vouched for, else nil and
// -1. The answer carries the copy, which only the library holds: a
// handler goroutine that still writes into v cannot change what was
// checked on its way to stdout (a copy and a hash cost less than a
// single validation).
func (vg *vouching) vouchedCopy(v []byte) ([]byte, int) {
	if vg == nil || !vg.hasInput {
		return nil, -1
	}
	vg.mu.Lock()
	var vv vouchedValue
	found := false
	for i := len(vg.merged) - 1; i >= 0 && !found; i-- {
		vv, found = vg.merged[i], sameBytes(vg.merged[i].v, v)
	}
	vg.mu.Unlock()
	if !found {
		return nil, -1
	}
	cp := append(make([]byte, 0, len(v)), v...)
	if vg.sum(cp) != vv.sum {
		return nil, -1
	}
	return cp, vv.id
}

// placeholderPrefix begins every placeholder: a JSON string that starts
// with an escaped NUL, which no answer field is expected to hold.
const placeholderPrefix = `"\u0000hook-vouched-`

// answerValue returns what an answer being encoded carries for the
// updatedInput upd, the library's copy of the vouched Merge result with
// the given id (see vouchedCopy): a placeholder when upd is large enough,
// else upd itself. The placeholder stands for upd, not for the handler's
// bytes it was copied from.
func (vg *vouching) answerValue(id int, upd jsontext.Value) jsontext.Value {
	if len(upd) < spliceFrom || vg.noPlaceholders.Load() {
		return upd
	}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	if vg.tag == "" {
		vg.tag = strconv.FormatUint(maphash.Bytes(maphash.MakeSeed(), nil), 36)
	}
	const keep = 4 // the copies of the answers being encoded
	if len(vg.copies) == keep {
		vg.copies = append(vg.copies[:0:0], vg.copies[1:]...)
	}
	vg.copies = append(vg.copies, vouchedValue{v: upd, id: id})
	return jsontext.Value(placeholderPrefix + vg.tag + "-" + strconv.Itoa(id) + `"`)
}

// handedOut reports whether a placeholder may be in an answer.
func (vg *vouching) handedOut() bool {
	vg.mu.Lock()
	defer vg.mu.Unlock()
	return vg.tag != ""
}

// splice returns the answer b, encoded and validated with a placeholder,
// as the pieces to write in order, with the placeholder replaced by the
// value it stands for and a newline at the end: b itself and its newline
// when b holds no placeholder. Nothing is copied: the answer is written
// as its prefix, the vouched bytes and its suffix. ok is false when b
// holds a placeholder's text that does not resolve, or more than one; the
// caller then encodes the answer again without placeholders. The value
// is the library's own copy (see answerValue).
func (vg *vouching) splice(b []byte) (head, value, tail []byte, ok bool) {
	i := -1
	if vg != nil && vg.handedOut() {
		i = bytes.Index(b, []byte(placeholderPrefix))
	}
	if i < 0 {
		return append(b, '\n'), nil, nil, true
	}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	prefix := placeholderPrefix + vg.tag + "-"
	if !bytes.HasPrefix(b[i:], []byte(prefix)) {
		return nil, nil, nil, false
	}
	n := bytes.IndexByte(b[i+len(prefix):], '"')
	if n < 0 {
		return nil, nil, nil, false
	}
	id, err := strconv.Atoi(string(b[i+len(prefix) : i+len(prefix)+n]))
	if err != nil {
		return nil, nil, nil, false
	}
	for _, vv := range vg.copies {
		if vv.id == id {
			value = vv.v
		}
	}
	rest := b[i+len(prefix)+n+1:]
	if value == nil || bytes.Contains(rest, []byte(placeholderPrefix)) {
		return nil, nil, nil, false
	}
	return b[:i:i], value, append(rest, '\n'), true
}

// unsplit reports whether orig is the compact incoming tool_input, at
// its place, and the read left it unsplit.
func (vg *vouching) unsplit(orig []byte) bool {
	if vg == nil || !vg.hasInput || !vg.compact || !sameBytes(vg.input.v, orig) {
		return false
	}
	vg.splitMu.Lock()
	defer vg.splitMu.Unlock()
	return !vg.splitDone
}

// splitPatch encodes and splits the patch of a Merge: its bytes, its
// members and whether it is compact.
func splitPatch(patch any) (pb []byte, ps []rawjson.Member, compact bool, err error) {
	if pb, err = patchBytes(patch); err != nil {
		return nil, nil, false, err
	}
	if ps, compact, err = rawjson.MembersCompact(pb); err != nil {
		return nil, nil, false, objectError("Merge: the patch", err)
	}
	return pb, ps, compact, nil
}

// vouchResult vouches for out, a Merge result of the vouched input and the
// validated patch pb, when the patch is compact UTF-8 and out has members.
func (vg *vouching) vouchResult(out, pb []byte, compact, members bool) {
	if compact && members && wire.InvalidUTF8(pb) < 0 {
		vg.vouchMerged(out)
	}
}
