package rawjson

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the two fast scanners behind [Members] and
// [MembersTrusted]. Both touch each byte once and never decode a value:
// strings are skipped eight bytes at a time, looking only for the bytes
// that end a run of plain text ('"', '\\' and, when validating, control
// characters).

// maxDepth is the deepest nesting jsontext accepts; the validating scanner
// refuses deeper input the same way.
const maxDepth = 10000

// largeObject is the number of names from which an object's duplicate
// check switches from a linear search to a hash table.
const largeObject = 32

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stop returns a word with the high bit set in each byte of w that is a
// quote or a backslash, and, when ctl is set, a control character (below
// 0x20). The lowest flagged byte is always exact; bytes above it may be
// flagged falsely.
func stop(w uint64, ctl bool) uint64 {
	q := w ^ (lsb * '"')
	s := w ^ (lsb * '\\')
	m := (q - lsb) &^ q
	m |= (s - lsb) &^ s
	if ctl {
		m |= (w - lsb*0x20) &^ w
	}
	return m & msb
}

// stopValid and stopTrusted flag the bytes that end a run of plain string
// content: a quote, a backslash and, for validation, a control character.
// They are composite literals, laid out by the compiler: no work at start-up.
var (
	stopValid = [256]bool{'"': true, '\\': true,
		0x00: true, 0x01: true, 0x02: true, 0x03: true, 0x04: true, 0x05: true, 0x06: true, 0x07: true,
		0x08: true, 0x09: true, 0x0a: true, 0x0b: true, 0x0c: true, 0x0d: true, 0x0e: true, 0x0f: true,
		0x10: true, 0x11: true, 0x12: true, 0x13: true, 0x14: true, 0x15: true, 0x16: true, 0x17: true,
		0x18: true, 0x19: true, 0x1a: true, 0x1b: true, 0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true}
	stopTrusted = [256]bool{'"': true, '\\': true}
)

// escapeLen gives, for the byte after a backslash, the length of a valid
// escape sequence that starts with it (6 for \u, whose four hex digits are
// checked apart), or 0 when no escape starts with that byte.
var escapeLen = [256]uint8{'"': 2, '\\': 2, '/': 2, 'b': 2, 'f': 2, 'n': 2, 'r': 2, 't': 2, 'u': 6}

// nextStop returns the index of the first byte at or after i that is a
// quote, a backslash or (when ctl is set) a control character, or len(b)
// when there is none. It looks at a few bytes one at a time, since in
// escape-heavy text the next stop is usually close, then at eight bytes
// at a time.
func nextStop(b []byte, i int, ctl bool) int {
	tbl := &stopTrusted
	if ctl {
		tbl = &stopValid
	}
	for end := min(i+8, len(b)); i < end; i++ {
		if tbl[b[i]] {
			return i
		}
	}
	for i+8 <= len(b) {
		if m := stop(binary.LittleEndian.Uint64(b[i:]), ctl); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if tbl[b[i]] {
			return i
		}
	}
	return i
}

// scanString validates the JSON string that starts with the quote at b[i]
// and returns the index just past its closing quote. Invalid UTF-8 and
// lone surrogate escapes are allowed, as with jsontext.AllowInvalidUTF8.
func scanString(b []byte, i int) (int, bool) {
	i++
	for {
		i = nextStop(b, i, true)
		if i >= len(b) {
			return i, false
		}
		c := b[i]
		if c == '"' {
			return i + 1, true
		}
		if c != '\\' || i+1 >= len(b) { // a control character, or a cut escape
			return i, false
		}
		switch escapeLen[b[i+1]] {
		case 2:
			i += 2
		case 6:
			if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
				return i, false
			}
			i += 6
		default:
			return i, false
		}
	}
}

// skipString returns the index just past the closing quote of the valid
// JSON string that starts with the quote at b[i], or len(b) when it is
// not closed.
func skipString(b []byte, i int) int {
	i++
	for {
		i = nextStop(b, i, false)
		if i >= len(b) {
			return len(b)
		}
		if b[i] == '"' {
			return i + 1
		}
		// A backslash and the escape it starts; past the end on bad input.
		if i+1 < len(b) && b[i+1] == 'u' {
			i += 6
		} else {
			i += 2
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// scanNumber validates the JSON number that starts at b[i] and returns the
// index just past it.
func scanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return i, false
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, false
		}
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	return i, true
}

// scanLiteral checks that b[i:] starts with lit and returns the index just
// past it.
func scanLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// IsSimple reports whether the content of a valid JSON string is its own
// unquoted form: no escapes and only ASCII.
func IsSimple(content []byte) bool {
	for _, c := range content {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// appendKey appends the unquoted form of the valid JSON string name to
// dst, as JavaScript's JSON.parse reads it: names are compared as
// sequences of UTF-16 code units, so an escaped lone surrogate such as
// \ud800 stays itself (encoded as WTF-8, the three bytes that UTF-8
// would give the code point) and never equals "\ufffd". Raw bytes that
// are not UTF-8 become U+FFFD, as Claude Code's UTF-8 decoding of its
// input makes them.
func appendKey(dst, name []byte) []byte {
	if len(dst)+len(name) > cap(dst) {
		dst = grown(dst, len(name))
	}
	if content := name[1 : len(name)-1]; IsSimple(content) {
		return append(dst, content...)
	}
	return AppendExactUnquote(dst, name)
}

// grown returns s with room for n more elements, doubling its capacity
// (append grows a large slice by a quarter at a time, which on an object
// of millions of names leaves four times the final size behind as
// garbage, all of it counted in the peak until the collector runs).
func grown[T any](s []T, n int) []T {
	c := max(2*cap(s), len(s)+n, 64)
	return append(make([]T, 0, c), s...)
}

// AppendExactUnquote appends the unquoted form of the valid JSON string
// quoted to dst, keeping escaped lone surrogates as WTF-8 (see
// [Member].Key), and returns dst unchanged when quoted is not a valid
// JSON string.
func AppendExactUnquote(dst, quoted []byte) []byte {
	if len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return dst
	}
	start := len(dst)
	b := quoted[1 : len(quoted)-1]
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\':
			if i+1 >= len(b) {
				return dst[:start]
			}
			e := b[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				dst = append(dst, e)
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r, ok := hex4(b, i)
				if !ok {
					return dst[:start]
				}
				i += 4
				if utf16.IsSurrogate(r) && r < 0xdc00 && i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if r2, ok := hex4(b, i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
						dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				dst = appendWTF8(dst, r)
			default:
				return dst[:start]
			}
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, "\uFFFD"...)
			} else {
				dst = append(dst, b[i:i+n]...)
			}
			i += n
		}
	}
	return dst
}

// hex4 decodes the four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendWTF8 appends r as UTF-8 would encode it, surrogates included
// (utf8.AppendRune would write U+FFFD for those).
func appendWTF8(dst []byte, r rune) []byte {
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r)
	}
	return append(dst, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

// frame is one open object or array of the validating scanner.
type frame struct {
	obj   bool
	large bool // whether the object's names are also in a set
	first int  // index in ends of the object's first name
}

// Sizes of the inline arrays the scanners start their slices on, so that
// small input, such as a hook event or answer, is scanned without
// allocating: beyond them, append moves a slice to the heap as usual. A
// hook is a short-lived process, where each allocation in a new size
// class costs fresh pages. On 64-bit platforms the validator's arrays take
// 1 KB of stack, membersTrusted's 736 bytes.
const (
	inlineFrames = 12  // nesting depth
	inlineNames  = 256 // bytes of unquoted names in the open objects
	inlineEnds   = 24  // names in the open objects
	inlineSpans  = 12  // top-level members
)

// validator is the validating scanner's state: its stack of open objects
// and arrays, the names of the open objects and, when splitting, where the
// top-level members are. Its slices start on its own arrays, so that
// small input needs no allocation. It lives in scan's frame, and escape
// analysis keeps it there only as long as nothing that points into it can
// reach the heap: so no function that appends to its slices takes a
// pointer to it (they take and return the slices), and its slices hold no
// pointers (the sets of large objects are kept apart).
type validator struct {
	frames []frame
	names  []byte // the unquoted names of the open objects, one after another
	ends   []int  // the end offset in names of each name
	spans  []span // the top-level members read so far, when splitting

	frameBuf [inlineFrames]frame
	nameBuf  [inlineNames]byte
	endBuf   [inlineEnds]int
	spanBuf  [inlineSpans]span
}

// nameSet is the set of the names of one large object: a hash table of
// their indexes in the validator's ends, so that adding a name allocates
// nothing per name (the names themselves stay in the validator's names).
// The hash is seeded per set: input cannot be built to make its names
// collide.
type nameSet = *hashedNames

// hashedNames is an open-addressing hash table with linear probing. Slot
// i holds a name's index in ends, less base, plus one, in slots[i], and
// eight bits of the name's hash in tags[i] (never 0; 0 is an empty slot),
// so that a probe reads one byte per slot and compares a name's bytes
// only when its tag matches. At most three quarters of the slots are in
// use; the tags of a probe's slots are mostly in one cache line. A slot
// takes five bytes:
// on an object of millions of names the table is the largest thing the
// validator keeps.
type hashedNames struct {
	seed  maphash.Seed
	base  int      // the index in ends of the object's first name
	slots []uint32 // a power of two of them
	tags  []uint8
	n     int // slots in use

	// byRef is set when the set keeps its object's names itself, by
	// reference (namerefs.go): the table's indexes are then into refs,
	// and side holds the names that are not their own unquoted form.
	byRef bool
	refs  []uint32
	side  []byte
}

// newNameSet returns an empty set for an object whose first name is at
// index base of ends, with room for about n names.
func newNameSet(base, n int) *hashedNames {
	size := 64
	for 3*size < 4*n {
		size *= 2
	}
	return &hashedNames{seed: maphash.MakeSeed(), base: base, slots: make([]uint32, size), tags: make([]uint8, size)}
}

// nameAt returns the i-th name of names, whose ends are in ends.
func nameAt(names []byte, ends []int, i int) []byte {
	from := 0
	if i > 0 {
		from = ends[i-1]
	}
	return names[from:ends[i]]
}

// slotOf returns the first slot to probe for a name with hash h, and its
// tag.
func (s *hashedNames) slotOf(h uint64) (int, uint8) {
	tag := uint8(h >> 56)
	if tag == 0 {
		tag = 1
	}
	return int(h & uint64(len(s.slots)-1)), tag
}

// add records key as the name at index i of ends, and reports false when
// the set already holds key.
func (s *hashedNames) add(names []byte, ends []int, i int, key []byte) bool {
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow(names, ends)
	}
	mask := len(s.slots) - 1
	pos, tag := s.slotOf(maphash.Bytes(s.seed, key))
	for ; ; pos = (pos + 1) & mask {
		switch s.tags[pos] {
		case 0:
			s.slots[pos], s.tags[pos] = uint32(i-s.base+1), tag
			s.n++
			return true
		case tag:
			if string(nameAt(names, ends, int(s.slots[pos])-1+s.base)) == string(key) {
				return false
			}
		}
	}
}

// grow doubles the table and adds every name again, in the order of
// ends, which reads the names one after another.
func (s *hashedNames) grow(names []byte, ends []int) {
	n := s.n
	s.slots, s.tags = make([]uint32, 2*len(s.slots)), make([]uint8, 2*len(s.tags))
	mask := len(s.slots) - 1
	for j := range n {
		pos, tag := s.slotOf(maphash.Bytes(s.seed, nameAt(names, ends, s.base+j)))
		for s.tags[pos] != 0 {
			pos = (pos + 1) & mask
		}
		s.slots[pos], s.tags[pos] = uint32(j+1), tag
	}
}

// span locates one top-level member for the splitters: its name is
// raw[name:nameEnd] and its value raw[val:end].
type span struct {
	name, nameEnd, val, end int
}

// members returns the members that spans locate in raw, in a slice of
// exactly their number, or nil when there are none. keys holds their
// unquoted keys one after another, the one of spans[i] ending at
// keyEnds[i]; they become one string, which each Key is a part of.
func members(raw []byte, spans []span, keys []byte, keyEnds []int) []Member {
	return membersFrom(raw, spans, keys, keyEnds, 0)
}

// membersFrom is members for keys that start at keys[from].
func membersFrom(raw []byte, spans []span, keys []byte, keyEnds []int, from int) []Member {
	if len(spans) == 0 {
		return nil
	}
	ms := make([]Member, len(spans))
	all := string(keys[from:keyEnds[len(spans)-1]])
	prev := from
	for i, s := range spans {
		ms[i] = Member{Key: all[prev-from : keyEnds[i]-from], Name: raw[s.name:s.nameEnd:s.nameEnd], Value: raw[s.val:s.end:s.end]}
		prev = keyEnds[i]
	}
	return ms
}

// scanner states.
const (
	wantFirstName  = iota // after '{': a name or '}'
	wantName              // after ',' in an object
	wantFirstValue        // after '[': a value or ']'
	wantValue             // after ':' or ',' in an array
	wantEnd               // after a value: ',' or the closing bracket
)

// push opens an object or array on frames, where the open objects have
// nNames names; it fails when that would nest deeper than jsontext allows.
func push(frames []frame, nNames int, obj bool) ([]frame, bool) {
	if len(frames) >= maxDepth {
		return frames, false
	}
	return append(frames, frame{obj: obj, first: nNames}), true
}

// truncate forgets the names of the open objects from index first of
// v.ends on.
func (v *validator) truncate(first int) {
	v.ends = v.ends[:first]
	if first == 0 {
		v.names = v.names[:0]
	} else {
		v.names = v.names[:v.ends[first-1]]
	}
}

// pop closes the innermost object or array, forgetting its names, and
// reports whether it was a large object, whose set the caller drops. It
// only shortens the slices: the bytes of the names stay in place.
func (v *validator) pop() (large bool) {
	f := v.frames[len(v.frames)-1]
	v.frames = v.frames[:len(v.frames)-1]
	if f.obj {
		v.truncate(f.first)
	}
	return f.large
}

// insert adds the valid JSON string name to the names of f, the innermost
// open object: it appends the name's unquoted form to names, whose ends
// are in ends, or returns false when f already has that name. sets holds
// the name sets of the open large objects, innermost last; insert adds
// f's when f becomes large. The caller appends the name's end to ends.
func insert(f *frame, names []byte, ends []int, sets []nameSet, name []byte) ([]byte, []nameSet, bool) {
	start := len(names)
	names = appendKey(names, name)
	key := names[start:]
	if f.large {
		if !sets[len(sets)-1].add(names, ends, len(ends), key) {
			return names[:start], sets, false
		}
		return names, sets, true
	}
	first := 0 // where f's names start in names
	if f.first > 0 {
		first = ends[f.first-1]
	}
	prev := first
	for _, end := range ends[f.first:] {
		if string(names[prev:end]) == string(key) {
			return names[:start], sets, false
		}
		prev = end
	}
	if len(ends)-f.first+1 >= largeObject {
		set := newNameSet(f.first, 4*largeObject)
		for i := f.first; i < len(ends); i++ {
			set.add(names, ends, i, nameAt(names, ends, i))
		}
		set.add(names, ends, len(ends), key)
		f.large = true
		sets = append(sets, set)
	}
	return names, sets, true
}

// membersFast is the validating splitter behind [Members]: in one pass
// over raw it checks that raw is exactly one JSON object that jsontext
// (with invalid UTF-8 allowed) would accept, and splits it into its
// top-level members. It returns false for anything else, without saying
// why, and whether there was whitespace between tokens. On a small
// object it allocates only the members and one string for all their keys.
func membersFast(raw []byte) (ms []Member, spaced, ok bool) {
	if i := skipWS(raw, 0); i >= len(raw) || raw[i] != '{' {
		return nil, false, false
	}
	r := scan(raw, true, "", 0, nil)
	return r.ms, r.spaced, r.ok
}

// validValue reports whether raw is one JSON value, with optional
// whitespace around it, that jsontext (with invalid UTF-8 allowed) would
// accept, and whether it is compact: no whitespace between its tokens.
// On small input it does not allocate.
func validValue(raw []byte) (valid, compact bool) {
	r := scan(raw, false, "", 0, nil)
	return r.ok, r.ok && !r.spaced
}

// scanResult is what scan found.
type scanResult struct {
	ms       []Member // the top-level members, when splitting
	subMs    []Member // the members of the sub object, when found
	subFound bool     // whether the top-level object has the sub object
	spaced   bool     // whether there was whitespace between tokens
	ok       bool     // whether raw is valid
}

// scan checks in one pass over raw that raw is exactly one JSON value
// that jsontext (with invalid UTF-8 allowed) would accept: valid syntax,
// no name twice in any object at any depth, no nesting deeper than
// jsontext allows, only whitespace around it. When split is set and raw
// is an object, it also returns its top-level members, in a slice of
// their number, with keys that share one string (nil when there are
// none), and, when sub is not empty and the object has a member with key
// sub whose value is an object of at most maxSub members, that object's
// members the same way.
// spaced reports whether there was whitespace between tokens. The
// strings at the spans known (see [MembersSubKnown]) are not scanned
// again.
func scan(raw []byte, split bool, sub string, maxSub int, known []StringSpan) (r scanResult) {
	b := raw
	var v validator
	v.frames, v.names, v.ends, v.spans = v.frameBuf[:0], v.nameBuf[:0], v.endBuf[:0], v.spanBuf[:0]
	var (
		sets []nameSet // the name sets of the open large objects
		i    int
		ok   bool
		// The sub object: subNext is set while the value of the
		// top-level member named sub is due, subOpen while that value,
		// an object, is the second frame; subSpans are its members.
		subNext, subOpen bool
		subSpans         []span
	)
	split = split && skipWS(b, 0) < len(b) && b[skipWS(b, 0)] == '{'
	if !split {
		sub = ""
	}
	spaced := false
	st := wantValue
	for {
		if j := skipWS(b, i); j != i {
			spaced = spaced || len(v.frames) > 0
			i = j
		}
		if i >= len(b) {
			return scanResult{}
		}
		c := b[i]
		ended := false // whether a value ended at i
		switch st {
		case wantFirstName, wantName:
			if c != '"' {
				if c == '}' && st == wantFirstName {
					if subOpen && len(v.frames) == 2 {
						r.subFound, subOpen = true, false // an empty object
					}
					if v.pop() {
						sets = sets[:len(sets)-1]
					}
					i++
					ended = true
					break
				}
				return scanResult{}
			}
			start := i
			if i, ok, known = scanKnown(b, i, known); !ok {
				return scanResult{}
			}
			f := &v.frames[len(v.frames)-1]
			// Unless the object is split, a large object's names are
			// needed only for the duplicate check, and its set holds
			// them by reference (namerefs.go).
			keepNames := (split && len(v.frames) == 1) || (subOpen && len(v.frames) == 2) || uint64(len(raw)) >= maxRefInput
			if f.large && !keepNames && sets[len(sets)-1].byRef {
				if !sets[len(sets)-1].addRef(b, start, i) {
					return scanResult{}
				}
			} else {
				before := len(v.names)
				if v.names, sets, ok = insert(f, v.names, v.ends, sets, b[start:i]); !ok {
					return scanResult{}
				}
				if len(v.ends) == cap(v.ends) {
					v.ends = grown(v.ends, 1)
				}
				v.ends = append(v.ends, len(v.names))
				if f.large && !keepNames {
					sets[len(sets)-1].toRefs(v.names, v.ends)
					v.truncate(f.first)
				}
				switch {
				case split && len(v.frames) == 1:
					v.spans = append(v.spans, span{name: start, nameEnd: i})
					subNext = sub != "" && string(v.names[before:]) == sub
				case subOpen && len(v.frames) == 2:
					if len(subSpans) == maxSub {
						// Too many to keep: the caller splits the object
						// itself if it needs to.
						subOpen, subSpans = false, nil
						break
					}
					subSpans = append(subSpans, span{name: start, nameEnd: i})
				}
			}
			if j := skipWS(b, i); j != i {
				spaced = true
				i = j
			}
			if i >= len(b) || b[i] != ':' {
				return scanResult{}
			}
			i++
			st = wantValue
		case wantFirstValue, wantValue:
			if c == ']' && st == wantFirstValue {
				if v.pop() {
					sets = sets[:len(sets)-1]
				}
				i++
				ended = true
				break
			}
			switch {
			case split && len(v.frames) == 1:
				v.spans[len(v.spans)-1].val = i
				subOpen, subNext = subNext && c == '{', false
			case subOpen && len(v.frames) == 2:
				subSpans[len(subSpans)-1].val = i
			}
			switch c {
			case '"':
				i, ok, known = scanKnown(b, i, known)
				ended = true
			case '{':
				v.frames, ok = push(v.frames, len(v.ends), true)
				i++
				st = wantFirstName
			case '[':
				v.frames, ok = push(v.frames, len(v.ends), false)
				i++
				st = wantFirstValue
			case 't':
				i, ok = scanLiteral(b, i, "true")
				ended = true
			case 'f':
				i, ok = scanLiteral(b, i, "false")
				ended = true
			case 'n':
				i, ok = scanLiteral(b, i, "null")
				ended = true
			default:
				i, ok = scanNumber(b, i)
				ended = true
			}
			if !ok {
				return scanResult{}
			}
		case wantEnd:
			f := v.frames[len(v.frames)-1]
			switch {
			case c == ',' && f.obj:
				i++
				st = wantName
			case c == ',':
				i++
				st = wantValue
			case c == '}' && f.obj, c == ']' && !f.obj:
				if subOpen && len(v.frames) == 2 {
					// The sub object's names, and only those, are
					// the last ones in v.names, their ends from f.first
					// on in v.ends.
					from := 0
					if f.first > 0 {
						from = v.ends[f.first-1]
					}
					r.subMs = membersFrom(raw, subSpans, v.names, v.ends[f.first:], from)
					r.subFound, subOpen = true, false
				}
				if v.pop() {
					sets = sets[:len(sets)-1]
				}
				i++
				ended = true
			default:
				return scanResult{}
			}
		}
		if ended {
			st = wantEnd
			switch len(v.frames) {
			case 0: // the top-level value is complete
				if skipWS(b, i) != len(b) {
					return scanResult{}
				}
				if split {
					// Closing the top-level object left its names,
					// and only those, in place at the start of
					// v.names, and their ends at the start of v.ends.
					r.ms = members(raw, v.spans, v.names[:cap(v.names)], v.ends[:len(v.spans)])
				}
				r.spaced, r.ok = spaced, true
				return r
			case 1:
				if split {
					v.spans[len(v.spans)-1].end = i
				}
			case 2:
				if subOpen {
					subSpans[len(subSpans)-1].end = i
				}
			}
		}
	}
}

// membersTrusted is the splitter behind [MembersTrusted]: it finds the
// top-level members of raw, which must be a valid JSON object, without
// checking anything it does not need to find them. On invalid input it
// returns a wrong result or false, and never panics. On a small object it
// allocates only the members and one string for all their keys.
func membersTrusted(raw []byte) ([]Member, bool) {
	var (
		spanBuf [inlineSpans]span
		keyBuf  [inlineNames]byte
		endBuf  [inlineSpans]int
	)
	spans, keys, keyEnds := spanBuf[:0], keyBuf[:0], endBuf[:0]
	ok := eachTrusted(raw, func(s span) bool {
		keys = appendKey(keys, raw[s.name:s.nameEnd])
		spans = append(spans, s)
		keyEnds = append(keyEnds, len(keys))
		return true
	})
	if !ok {
		return nil, false
	}
	return members(raw, spans, keys, keyEnds), true
}

// eachTrusted calls f with the span of each top-level member of raw,
// which must be a valid JSON object, in order, until f returns false,
// checking nothing it does not need to find them. It reports false when
// raw is not an object as expected; on invalid input it may also walk
// wrongly, and never panics.
func eachTrusted(raw []byte, f func(span) bool) bool {
	w, ok := NewTrustedWalk(raw)
	if !ok {
		return false
	}
	for {
		s, done, bad := w.next()
		switch {
		case bad:
			return false
		case done:
			return true
		case !f(s):
			return true
		}
	}
}

// TrustedWalk steps through the top-level members of a JSON object that
// has been validated (see [MembersTrusted]), without splitting it: two
// walks can go through two objects in step. It checks nothing it does
// not need to find the members; on invalid input it may walk wrongly,
// and never panics.
type TrustedWalk struct {
	b     []byte
	i     int  // where the next member, or the end, is looked for
	after bool // a member was read: a ',' or the '}' comes next
	done  bool // the '}' was read
}

// NewTrustedWalk starts a walk of the object raw; ok is false when raw
// is not shaped like an object.
func NewTrustedWalk(raw []byte) (w TrustedWalk, ok bool) {
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return TrustedWalk{}, false
	}
	return TrustedWalk{b: raw, i: i + 1}, true
}

// Next returns the next member's name, quotes included, and its value;
// done is set after the last member (and at every call after that), bad
// when the bytes are not shaped like an object.
func (w *TrustedWalk) Next() (name, value []byte, done, bad bool) {
	s, done, bad := w.next()
	if done || bad {
		return nil, nil, done, bad
	}
	return w.b[s.name:s.nameEnd:s.nameEnd], w.b[s.val:s.end:s.end], false, false
}

// next is Next with the member as its span.
func (w *TrustedWalk) next() (s span, done, bad bool) {
	if w.done {
		return span{}, true, false
	}
	b := w.b
	i := skipWS(b, w.i)
	switch {
	case i >= len(b):
		return span{}, false, true
	case b[i] == '}':
		w.done = true
		return span{}, true, false
	case w.after && b[i] != ',':
		return span{}, false, true
	case w.after:
		i = skipWS(b, i+1)
	}
	if i >= len(b) || b[i] != '"' {
		return span{}, false, true
	}
	s.name = i
	if i = skipString(b, i); i >= len(b) {
		return span{}, false, true
	}
	s.nameEnd = i
	if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
		return span{}, false, true
	}
	i = skipWS(b, i+1)
	s.val = i
	if i = skipValue(b, i); i <= s.val || i > len(b) {
		return span{}, false, true
	}
	s.end, w.i, w.after = i, i, true
	return s, false, false
}

// skipValue returns the index just past the valid JSON value that starts
// at b[i]; on invalid input it returns some index in (i, len(b)], or i
// when no value starts there.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
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
		return i
	case ',', '}', ']', ':', ' ', '\t', '\r', '\n':
		return i
	}
	// A number or a literal: runs until a delimiter.
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}
