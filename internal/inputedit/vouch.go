package inputedit

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
// handler then typically builds its updatedInput with hook.PreToolUse.Merge
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
// the vouched value is written in the placeholder's place at the end, from
// the pieces Merge recorded of it, never from the handler's bytes (see
// splice.go).
// Replacing one JSON value of a valid document by another valid value
// keeps the document valid (the names around it do not change), so the
// guarantee that stdout is one valid JSON object holds as before.

// SpliceFrom is the size from which a vouched updatedInput travels
// through the encoder as a placeholder: below it, encoding the value
// itself costs less than splicing it in.
const SpliceFrom = 4 << 10

// vouchedValue is one value an invocation vouches for.
type vouchedValue struct {
	v   []byte // the value; its identity is &v[0] and len(v)
	sum uint64 // the seeded hash of v's bytes when vouched
	// sp is, for a Merge result of SpliceFrom bytes or more, the same
	// bytes as ranges of the input and bytes of the library's own,
	// which is what an answer writes (see splice.go).
	sp *Spliced
	// spaced is set when v may hold whitespace between its tokens,
	// which an answer does not carry (the encoder compacts raw values).
	spaced bool
}

// vouching is the part of an invocation that tracks the incoming
// tool_input and the values vouched for. Its methods may be called on a
// nil *Vouching (an Event built outside Serve), which knows no input and
// vouches for nothing.
type Vouching struct {
	seed maphash.Seed
	// input is the incoming tool_input object; hasInput is set when
	// there is one. compact is set when it has no whitespace between
	// tokens. A Merge result of an input with whitespace is vouched for
	// all the same, and compacted as it is written (see splice.go),
	// stepping over the long strings the read validated: known are their
	// spans, in the offsets of the event's bytes, where the input starts
	// at offset inputOff. sums are the seeded
	// hashes of its blocks of inputBlock bytes, taken when Serve read it
	// (sum1 holds the one of an input of one block).
	input    []byte
	hasInput bool
	compact  bool
	known    []rawjson.StringSpan
	inputOff int
	sums     []uint64
	sum1     [1]uint64

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
	// each holding every member of it.
	merged []vouchedValue
	// mergedBuf is where merged starts: most handlers merge once.
	mergedBuf [2]vouchedValue
	nextID    int
	// out are the vouched Merge results that answers carry as
	// placeholders, each by its pieces: splice writes these, never the
	// bytes a handler holds.
	out []*Spliced
	tag string // the placeholders' random part; "" until one is out
	// noPlaceholders is set when an answer is encoded again without
	// placeholders.
	noPlaceholders atomic.Bool

	// base is, for a chain's view whose tool_input is a Merge result
	// that the Serve-level vouching vouched for with its pieces, those
	// pieces: the view's input as ranges of Serve's input and bytes of
	// the library's own (see PiecesOf). A Merge of the view's input then
	// carries to Serve's vouching as pieces of Serve's input (see
	// CarryTo), and the chain's last rewrite is written as a single
	// handler's Merge result is.
	base *Spliced
}

// Vouches reports whether v is a Merge result vg vouches for, unchanged
// since Merge built it.
func (vg *Vouching) Vouches(v []byte) bool {
	vv, found := vg.lookup(v)
	return found && vg.holds(vv, v)
}

// HasInput reports whether vg holds an incoming tool_input object.
func (vg *Vouching) HasInput() bool { return vg != nil && vg.hasInput }

// Compact reports whether the incoming tool_input has no whitespace
// between its tokens.
func (vg *Vouching) Compact() bool { return vg != nil && vg.compact }

// NoPlaceholders makes the answers encoded from now on carry vouched
// values as their bytes: an answer is being encoded again after its
// placeholder could not be resolved (see Splice).
func (vg *Vouching) NoPlaceholders() { vg.noPlaceholders.Store(true) }

// sameBytes reports whether a and b are the same bytes in memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// holds reports whether vv vouches for v: the same bytes, unchanged.
func (vg *Vouching) holds(vv vouchedValue, v []byte) bool {
	return sameBytes(vv.v, v) && vg.sum(v) == vv.sum
}

// holdsInput reports whether v is the incoming tool_input, unchanged.
func (vg *Vouching) holdsInput(v []byte) bool {
	return sameBytes(vg.input, v) && vg.inputIntact()
}

// sum returns the seeded hash of v's bytes. It hashes them as one string
// (without copying them), which the runtime's hasher takes in one pass,
// three times as fast on large values as maphash.Bytes, which hashes a
// long slice in 128-byte pieces.
func (vg *Vouching) sum(v []byte) uint64 {
	if len(v) == 0 {
		return maphash.Comparable(vg.seed, "")
	}
	return maphash.Comparable(vg.seed, unsafe.String(unsafe.SliceData(v), len(v)))
}

// SetInput records the incoming tool_input object in, which the read
// validated as part of a valid UTF-8 event (compact when the event was):
// with its members ms when split is set, else to be split on first use.
// See SetKnown for the strings the read validated.
func (vg *Vouching) SetInput(in []byte, ms []rawjson.Member, split, compact bool) {
	vg.seed = maphash.MakeSeed()
	vg.input, vg.hasInput, vg.compact = in, true, compact
	vg.sums = vg.sum1[:0]
	for k := 0; k < len(in) || k == 0; k += inputBlock {
		vg.sums = append(vg.sums, vg.sum(in[k:min(k+inputBlock, len(in))]))
	}
	if split {
		vg.split, vg.splitDone, vg.splitOK = ms, true, true
	}
}

// SetKnown records known, the spans of the long strings the read
// validated in event, the bytes of the event that holds the input: the
// answer's writer steps over them when it compacts a Merge result of an
// input with whitespace.
func (vg *Vouching) SetKnown(event []byte, known []rawjson.StringSpan) {
	if off, ok := offsetIn(event, vg.input); ok {
		vg.known, vg.inputOff = known, off
	}
}

// inputIntact reports whether the input's bytes are those read.
func (vg *Vouching) inputIntact() bool {
	for i, sum := range vg.sums {
		k := i * inputBlock
		if vg.sum(vg.input[k:min(k+inputBlock, len(vg.input))]) != sum {
			return false
		}
	}
	return true
}

// inputMembers returns the members of the incoming tool_input, and false
// when they cannot be known: the input was split on first use, and by
// then a handler had written into its bytes.
func (vg *Vouching) inputMembers() ([]rawjson.Member, bool) {
	vg.splitMu.Lock()
	defer vg.splitMu.Unlock()
	if !vg.splitDone {
		vg.splitDone = true
		if vg.holdsInput(vg.input) {
			ms, err := rawjson.MembersTrusted(vg.input)
			vg.split, vg.splitOK = ms, err == nil
		}
	}
	return vg.split, vg.splitOK
}

// SplitOf returns the members of orig when orig is the incoming
// tool_input, unchanged.
func (vg *Vouching) SplitOf(orig []byte) ([]rawjson.Member, bool) {
	if vg == nil || !vg.hasInput || !vg.holdsInput(orig) {
		return nil, false
	}
	return vg.inputMembers()
}

// vouchMerged records v, a valid UTF-8 object that Merge built from the
// vouched tool_input and a validated patch, with its pieces sp when it
// is SpliceFrom bytes or more; spaced is set when v may hold whitespace
// between its tokens.
func (vg *Vouching) vouchMerged(v []byte, sp *Spliced, spaced bool) {
	vg.vouchSum(v, vg.sum(v), sp, spaced)
}

// vouchSum is vouchMerged for v, whose bytes hash to sum (see sum).
func (vg *Vouching) vouchSum(v []byte, sum uint64, sp *Spliced, spaced bool) {
	vv := vouchedValue{v: v, sum: sum, sp: sp, spaced: spaced}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	if sp != nil {
		sp.id = vg.nextID
		vg.nextID++
	}
	const keep = 8 // a handler's last few Merge results
	if len(vg.merged) == keep {
		vg.merged = append(vg.merged[:0:0], vg.merged[1:]...)
	}
	if vg.merged == nil {
		vg.merged = vg.mergedBuf[:0]
	}
	vg.merged = append(vg.merged, vv)
}

// CarryTo vouches for upd in root, a vouching whose incoming tool_input
// upd holds every member of (a chain's Serve-level invocation), when upd
// is a Merge result vg vouched for and is unchanged since: the chain's
// last rewrite then takes the one-pass path of a single handler's. When
// vg's input is known as pieces of root's (see SetBase) and upd was
// recorded as pieces of vg's input, root vouches for upd with its pieces
// in root's input, and an answer carries it as a placeholder, written
// from those pieces, as it carries a Merge result of root's own input;
// else root vouches for upd alone, and an answer carries a copy of it.
// It reports whether it vouched; root must have a compact tool_input.
func (vg *Vouching) CarryTo(root *Vouching, upd []byte) bool {
	vv, ok := vg.lookup(upd)
	if !ok || !root.HasInput() || !root.Compact() {
		return false
	}
	// Hashed for root before the bytes are found unchanged, so that what
	// root vouches for is what vg vouched for (and its pieces hold).
	sum := root.sum(upd)
	if !vg.holds(vv, upd) {
		return false
	}
	var sp *Spliced
	if vv.sp != nil && vv.sp.vg == vg && vg.base != nil && vg.base.vg == root {
		sp = vg.base.compose(vv.sp)
	}
	root.vouchSum(upd, sum, sp, vv.spaced)
	return true
}

// lookup returns the vouched Merge result that is v's bytes, if any. It
// does not tell whether they are unchanged.
func (vg *Vouching) lookup(v []byte) (vouchedValue, bool) {
	if vg == nil || !vg.hasInput {
		return vouchedValue{}, false
	}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	for i := len(vg.merged) - 1; i >= 0; i-- {
		if sameBytes(vg.merged[i].v, v) {
			return vg.merged[i], true
		}
	}
	return vouchedValue{}, false
}

// vouchedAnswer returns what an answer carries for its updatedInput upd when
// upd is a vouched Merge result, unchanged since Merge built it, and
// reports whether it is. The answer never carries the bytes the
// handler holds, which a goroutine of the handler may still write into:
// it carries a copy whose hash matches what was vouched, or, for a value
// of SpliceFrom bytes or more, a placeholder for its pieces (see
// answerValue); nil when unchanged reports that upd's bytes are the
// incoming tool_input as the client has it. err is set when the handler
// wrote into the tool_input the value was built from.
func (vg *Vouching) vouchedAnswer(upd []byte, unchanged func([]byte) bool) (v jsontext.Value, ok bool, err error) {
	vv, found := vg.lookup(upd)
	if !found {
		return nil, false, nil
	}
	if vv.sp == nil {
		// A copy and a hash cost less than a single validation.
		cp := append(make([]byte, 0, len(upd)), upd...)
		if vg.sum(cp) != vv.sum {
			return nil, false, nil
		}
		if unchanged(cp) {
			return nil, true, nil
		}
		if vv.spaced {
			// As the encoder would write it.
			var c rawjson.Compactor
			cp = cp[:c.Compact(cp, 0)]
		}
		return cp, true, nil
	}
	if !vg.holds(vv, upd) {
		return nil, false, nil
	}
	if vv.sp.sameAsInput() {
		return nil, true, nil
	}
	v, err = vg.answerValue(vv.sp)
	return v, err == nil, err
}

// PlaceholderPrefix begins every placeholder: a JSON string that starts
// with an escaped NUL, which no answer field is expected to hold.
const PlaceholderPrefix = `"\u0000hook-vouched-`

// answerValue returns what an answer being encoded carries for the
// vouched Merge result sp: a placeholder when it is large enough, else
// its bytes.
func (vg *Vouching) answerValue(sp *Spliced) (jsontext.Value, error) {
	if sp.n < SpliceFrom || vg.noPlaceholders.Load() {
		return sp.bytes()
	}
	vg.mu.Lock()
	defer vg.mu.Unlock()
	if vg.tag == "" {
		vg.tag = strconv.FormatUint(maphash.Bytes(maphash.MakeSeed(), nil), 36)
	}
	const keep = 4 // the values of the answers being encoded
	if len(vg.out) == keep {
		vg.out = append(vg.out[:0:0], vg.out[1:]...)
	}
	vg.out = append(vg.out, sp)
	return jsontext.Value(vg.placeholder(sp.id)), nil
}

// placeholder returns the placeholder of the value with the given id.
func (vg *Vouching) placeholder(id int) string {
	return PlaceholderPrefix + vg.tag + "-" + strconv.Itoa(id) + `"`
}

// handedOut reports whether a placeholder may be in an answer.
func (vg *Vouching) handedOut() bool {
	vg.mu.Lock()
	defer vg.mu.Unlock()
	return vg.tag != ""
}

// splice returns the answer b, encoded and validated with a placeholder,
// as the pieces to write in order: b's bytes before the placeholder, the
// value it stands for, and the bytes after it with a newline at the end;
// b itself and its newline when b holds no placeholder. Nothing is
// copied. ok is false when b holds a placeholder's text that does not
// resolve, or more than one; the caller then encodes the answer again
// without placeholders. err is set when the value's input is no longer
// the one read: a handler wrote into it.
func (vg *Vouching) Splice(b []byte) (head []byte, value *Spliced, tail []byte, ok bool, err error) {
	if vg == nil || !vg.handedOut() || !bytes.Contains(b, []byte(PlaceholderPrefix)) {
		return append(b, '\n'), nil, nil, true, nil
	}
	vg.mu.Lock()
	out, tagged := vg.out, PlaceholderPrefix+vg.tag+"-"
	vg.mu.Unlock()
	for _, sp := range out {
		before, after, found := wire.Cut(b, vg.placeholder(sp.id))
		if !found {
			continue
		}
		if bytes.Contains(before, []byte(tagged)) || bytes.Contains(after, []byte(tagged)) {
			return nil, nil, nil, false, nil
		}
		if !vg.inputIntact() {
			return nil, nil, nil, false, errInputWritten
		}
		return before, sp, append(after, '\n'), true, nil
	}
	return nil, nil, nil, false, nil
}

// unsplit reports whether orig is the incoming tool_input, at its place,
// and the read left it unsplit.
func (vg *Vouching) unsplit(orig []byte) bool {
	if vg == nil || !vg.hasInput || !sameBytes(vg.input, orig) {
		return false
	}
	vg.splitMu.Lock()
	defer vg.splitMu.Unlock()
	return !vg.splitDone
}
