package rawjson

// Strings validated ahead of the scanner.
//
// A reader that must find the end of an object as its bytes arrive (the
// stdin reader) already walks every string to its closing quote. With
// [StringScan] it validates them on that walk, exactly as the scanner
// would, and records where the long ones are; the scanner then steps over
// those instead of reading their bytes again ([MembersSubKnown]). Each
// byte of a long string is thus scanned once.

// StringScan validates the inside of a JSON string that is fed to it
// piece by piece: no control character, and escapes that are one of
// \" \\ \/ \b \f \n \r \t or \u and four hex digits, also when a piece
// ends inside an escape. Invalid UTF-8 is left to the caller, as in the
// scanner. The zero value is a scan just past an opening quote.
type StringScan struct {
	// esc is what the escape under way still needs: 0 none,
	// escBackslash the byte after the backslash, 1 to 4 that many hex
	// digits.
	esc uint8
}

const escBackslash = 5

// StringEnd says where [StringScan.Scan] stopped.
type StringEnd uint8

const (
	StringMore   StringEnd = iota // the piece ended inside the string
	StringClosed                  // at the closing quote
	StringBad                     // at a byte that no valid string holds there
)

// Scan scans p[i:], inside a string, and returns the index of the closing
// quote (StringClosed), of the first byte no valid JSON string can hold
// there (StringBad), or len(p) when p ends first (StringMore; the next
// piece goes on from where this one ended).
func (s *StringScan) Scan(p []byte, i int) (int, StringEnd) {
	for i < len(p) {
		switch {
		case s.esc == escBackslash:
			switch escapeLen[p[i]] {
			case 2:
				s.esc = 0
			case 6:
				s.esc = 4
			default:
				return i, StringBad
			}
			i++
			continue
		case s.esc > 0:
			if !isHex(p[i]) {
				return i, StringBad
			}
			s.esc--
			i++
			continue
		}
		if i = nextStop(p, i, true); i == len(p) {
			break
		}
		switch p[i] {
		case '"':
			return i, StringClosed
		case '\\':
		default: // a control character
			return i, StringBad
		}
		if i+1 < len(p) { // the whole escape, when it is all here
			switch escapeLen[p[i+1]] {
			case 2:
				i += 2
				continue
			case 6:
				if i+6 <= len(p) && isHex(p[i+2]) && isHex(p[i+3]) && isHex(p[i+4]) && isHex(p[i+5]) {
					i += 6
					continue
				}
			default:
				return i + 1, StringBad
			}
		}
		// The escape goes on in the next piece, or has a bad hex digit,
		// which the byte-at-a-time states above find.
		s.esc = escBackslash
		i++
	}
	return len(p), StringMore
}

// StringSpan locates a JSON string in an object, quotes included: at
// raw[Start:End]. The spans given to [MembersSubKnown] are of strings
// already validated as [StringScan] validates them.
type StringSpan struct{ Start, End int }

// LongString is the length, quotes included, from which a reader records
// the span of a string it validated: shorter ones cost less to scan again
// than to look up, and the records stay a small fraction of the input.
const LongString = 512

// MembersSubKnown is [MembersSub] for raw whose strings at the spans
// known, in order of Start, have been validated already: the scanner
// steps over them. A span that does not start where the scanner finds a
// string is ignored, and the string is scanned.
func MembersSubKnown(raw []byte, sub string, max int, known []StringSpan) (ms, subMs []Member, found, compact bool, err error) {
	if i := skipWS(raw, 0); i < len(raw) && raw[i] == '{' {
		if r := scan(raw, true, sub, max, known); r.ok {
			return r.ms, r.subMs, r.subFound, !r.spaced, nil
		}
	}
	return membersSubSlow(raw, sub, max)
}

// scanKnown validates the JSON string that starts with the quote at b[i],
// as scanString does, stepping over it when known begins with its span.
// It returns the index just past the string and the spans not used yet.
func scanKnown(b []byte, i int, known []StringSpan) (int, bool, []StringSpan) {
	for len(known) > 0 && known[0].Start < i {
		known = known[1:] // not expected: the reader saw another string there
	}
	if len(known) > 0 && known[0].Start == i {
		if end := known[0].End; end > i+1 && end <= len(b) && b[end-1] == '"' {
			return end, true, known[1:]
		}
	}
	j, ok := scanString(b, i)
	return j, ok, known
}
