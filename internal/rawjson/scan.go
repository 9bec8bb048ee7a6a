package rawjson

import (
	"encoding/binary"
	"math/bits"

	"github.com/go-json-experiment/json/jsontext"
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
// check switches from a linear search to a map.
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

// isSimple reports whether the content of a valid JSON string is its own
// unquoted form: no escapes and only ASCII.
func isSimple(content []byte) bool {
	for _, c := range content {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// appendKey appends the unquoted form of the valid JSON string name to
// dst, the way jsontext compares names and returns them: invalid UTF-8
// and lone surrogates become U+FFFD.
func appendKey(dst, name []byte) []byte {
	if content := name[1 : len(name)-1]; isSimple(content) {
		return append(dst, content...)
	}
	dst, _ = jsontext.AppendUnquote(dst, name)
	return dst
}

// frame is one open object or array of the validating scanner.
type frame struct {
	obj   bool
	first int                 // index in names.ends of the object's first name
	set   map[string]struct{} // the object's names once it is large
}

// validator is the validating scanner's state, reused across the values
// of one call.
type validator struct {
	frames []frame
	names  []byte // the unquoted names of the open objects, one after another
	ends   []int  // the end offset in names of each name
	spaced bool   // whether whitespace was seen between tokens
}

// scanner states.
const (
	wantFirstName  = iota // after '{': a name or '}'
	wantName              // after ',' in an object
	wantFirstValue        // after '[': a value or ']'
	wantValue             // after ':' or ',' in an array
	wantEnd               // after a value: ',' or the closing bracket
)

// push opens an object or array; it fails when that would nest deeper
// than jsontext allows.
func (v *validator) push(obj bool) bool {
	if len(v.frames) >= maxDepth {
		return false
	}
	v.frames = append(v.frames, frame{obj: obj, first: len(v.ends)})
	return true
}

// pop closes the innermost object or array, forgetting its names.
func (v *validator) pop() {
	f := v.frames[len(v.frames)-1]
	v.frames = v.frames[:len(v.frames)-1]
	if f.obj {
		v.ends = v.ends[:f.first]
		if f.first == 0 {
			v.names = v.names[:0]
		} else {
			v.names = v.names[:v.ends[f.first-1]]
		}
	}
}

// insert adds the valid JSON string name to the innermost object's names,
// and returns its unquoted form (valid until the next insert or pop), or
// false when the object already has that name.
func (v *validator) insert(name []byte) ([]byte, bool) {
	f := &v.frames[len(v.frames)-1]
	start := len(v.names)
	v.names = appendKey(v.names, name)
	key := v.names[start:]
	switch {
	case f.set != nil:
		if _, dup := f.set[string(key)]; dup {
			v.names = v.names[:start]
			return nil, false
		}
		f.set[string(key)] = struct{}{}
	default:
		prev := 0
		if f.first > 0 {
			prev = v.ends[f.first-1]
		}
		for _, end := range v.ends[f.first:] {
			if string(v.names[prev:end]) == string(key) {
				v.names = v.names[:start]
				return nil, false
			}
			prev = end
		}
		if len(v.ends)-f.first+1 >= largeObject {
			f.set = make(map[string]struct{}, 2*largeObject)
			prev := 0
			if f.first > 0 {
				prev = v.ends[f.first-1]
			}
			for _, end := range v.ends[f.first:] {
				f.set[string(v.names[prev:end])] = struct{}{}
				prev = end
			}
			f.set[string(key)] = struct{}{}
		}
	}
	v.ends = append(v.ends, len(v.names))
	return key, true
}

// membersFast is the validating splitter behind [Members]: in one pass
// over raw it checks that raw is exactly one JSON object that jsontext
// (with invalid UTF-8 allowed) would accept, and splits it into its
// top-level members. It returns false for anything else, without saying
// why.
func membersFast(raw []byte) ([]Member, bool) {
	if i := skipWS(raw, 0); i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	var v validator
	return v.scan(raw, true)
}

// validValue reports whether raw is one JSON value, with optional
// whitespace around it, that jsontext (with invalid UTF-8 allowed) would
// accept, and whether it is compact: no whitespace between its tokens.
func validValue(raw []byte) (valid, compact bool) {
	var v validator
	_, valid = v.scan(raw, false)
	return valid, valid && !v.spaced
}

// scan checks in one pass over raw that raw is exactly one JSON value
// that jsontext (with invalid UTF-8 allowed) would accept: valid syntax,
// no name twice in any object at any depth, no nesting deeper than
// jsontext allows, only whitespace around it. When split is set and raw
// is an object, it also returns its top-level members. It records in
// v.spaced whether there was whitespace between tokens.
func (v *validator) scan(raw []byte, split bool) ([]Member, bool) {
	b := raw
	var (
		ms       []Member
		cur      Member // the top-level member being read
		valStart int
		ok       bool
		i        int
	)
	split = split && skipWS(b, 0) < len(b) && b[skipWS(b, 0)] == '{'
	st := wantValue
	for {
		if j := skipWS(b, i); j != i {
			v.spaced = v.spaced || len(v.frames) > 0
			i = j
		}
		if i >= len(b) {
			return nil, false
		}
		c := b[i]
		ended := false // whether a value ended at i
		switch st {
		case wantFirstName, wantName:
			if c != '"' {
				if c == '}' && st == wantFirstName {
					v.pop()
					i++
					ended = true
					break
				}
				return nil, false
			}
			start := i
			if i, ok = scanString(b, i); !ok {
				return nil, false
			}
			key, ok := v.insert(b[start:i])
			if !ok {
				return nil, false
			}
			if split && len(v.frames) == 1 {
				cur = Member{Key: string(key), Name: b[start:i]}
			}
			if j := skipWS(b, i); j != i {
				v.spaced = true
				i = j
			}
			if i >= len(b) || b[i] != ':' {
				return nil, false
			}
			i++
			st = wantValue
		case wantFirstValue, wantValue:
			if c == ']' && st == wantFirstValue {
				v.pop()
				i++
				ended = true
				break
			}
			if len(v.frames) == 1 {
				valStart = i
			}
			switch c {
			case '"':
				i, ok = scanString(b, i)
				ended = true
			case '{':
				ok = v.push(true)
				i++
				st = wantFirstName
			case '[':
				ok = v.push(false)
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
				return nil, false
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
				v.pop()
				i++
				ended = true
			default:
				return nil, false
			}
		}
		if ended {
			st = wantEnd
			switch len(v.frames) {
			case 0: // the top-level value is complete
				if skipWS(b, i) != len(b) {
					return nil, false
				}
				return ms, true
			case 1:
				if split {
					cur.Value = b[valStart:i]
					ms = append(ms, cur)
				}
			}
		}
	}
}

// membersTrusted is the splitter behind [MembersTrusted]: it finds the
// top-level members of raw, which must be a valid JSON object, without
// checking anything it does not need to find them. On invalid input it
// returns a wrong result or false, and never panics.
func membersTrusted(raw []byte) ([]Member, bool) {
	b := raw
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipWS(b, i+1)
	var ms []Member
	if i < len(b) && b[i] == '}' {
		return ms, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		start := i
		i = skipString(b, i)
		if i >= len(b) {
			return nil, false
		}
		name := b[start:i]
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipWS(b, i+1)
		vs := i
		if i = skipValue(b, i); i <= vs || i > len(b) {
			return nil, false
		}
		ms = append(ms, Member{Key: string(appendKey(nil, name)), Name: name, Value: b[vs:i]})
		i = skipWS(b, i)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return ms, true
		default:
			return nil, false
		}
	}
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
