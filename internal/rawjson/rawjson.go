// Package rawjson splits JSON objects into their top-level members as
// slices of the object's own bytes, without decoding or re-encoding any
// value. It is shared by hook and hooktest so that both read objects the
// same way.
//
// [Members] validates and splits untrusted input in one pass; it accepts
// exactly what jsontext accepts with invalid UTF-8 allowed and duplicate
// names refused. [MembersTrusted] only splits, for input that has already
// been validated that way.
package rawjson

import (
	"bytes"
	"errors"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// Member is one top-level member of a JSON object: Name is the quoted name
// exactly as written, Key its unquoted form, Value the value exactly as
// written.
//
// Key is the name as JavaScript's JSON.parse reads it, so that two keys
// are equal exactly when Claude Code takes them for the same name: an
// escaped lone surrogate such as \ud800 is kept as its WTF-8 bytes (never
// U+FFFD, so "\ud800" and "\ufffd" differ), and raw bytes that are not
// UTF-8 read as U+FFFD. Name and Value are slices of the object's bytes
// whose capacity ends with them: appending to one copies it instead of
// overwriting the bytes that follow.
type Member struct {
	Key   string
	Name  []byte
	Value []byte
}

// ErrNotObject reports a value that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// errTrusted reports input given to MembersTrusted that is not even
// shaped like an object.
var errTrusted = errors.New("rawjson: MembersTrusted: not a valid JSON object")

// Members splits the JSON object raw into its top-level members, in
// order. It fails when raw is not one valid JSON object (invalid UTF-8,
// such as a lone surrogate escape, is allowed) or when a name occurs twice
// at any depth. Surrounding whitespace is allowed.
//
// Members validates and splits in a single pass over raw, touching each
// byte once; a value is never decoded. Only when that pass refuses raw is
// raw read again, to report the reason. On a small object, such as a hook
// event, it allocates only the returned slice and one string that all
// the keys are part of.
func Members(raw []byte) ([]Member, error) {
	ms, _, err := MembersCompact(raw)
	return ms, err
}

// MembersSub is [MembersCompact] that also splits, in the same pass, the
// value of raw's member with key sub when it is an object of at most max
// members: subMs are its members as [Members] would return them, and
// found reports whether raw has such a member. An empty sub names no
// member. On an error, only err is set.
func MembersSub(raw []byte, sub string, max int) (ms, subMs []Member, found, compact bool, err error) {
	return MembersSubKnown(raw, sub, max, nil)
}

// membersSubSlow is MembersSub for what the scanner refused: it words the
// error, or (not expected for valid input; the tests check it) splits
// what the scanner refused.
func membersSubSlow(raw []byte, sub string, max int) (ms, subMs []Member, found, compact bool, err error) {
	if ms, err = membersReference(raw); err != nil {
		return nil, nil, false, false, err
	}
	if m, ok := Find(ms, sub); ok && KindName(m.Value) == "object" {
		if subMs, err = Members(m.Value); err != nil || len(subMs) > max {
			return ms, nil, false, false, err
		}
		return ms, subMs, true, false, nil
	}
	return ms, nil, false, false, nil
}

// MembersCompact is [Members] that also reports whether raw is compact:
// no whitespace between its tokens at any depth (whitespace around the
// object does not count). It is the same single pass.
func MembersCompact(raw []byte) (ms []Member, compact bool, err error) {
	if ms, spaced, ok := membersFast(raw); ok {
		return ms, !spaced, nil
	}
	ms, err = membersReference(raw)
	return ms, false, err
}

// HasKey reports whether the top-level object raw, which must have been
// validated as one JSON object (see [MembersTrusted]), has a member whose
// key is one of keys, comparing keys as [Member].Key holds them. It
// splits nothing and allocates nothing for names of up to 64 bytes. ok
// is false when raw is not an object as expected.
func HasKey(raw []byte, keys []string) (found, ok bool) {
	var buf [64]byte
	ok = eachTrusted(raw, func(s span) bool {
		key := appendKey(buf[:0], raw[s.name:s.nameEnd])
		for _, k := range keys {
			found = found || string(key) == k
		}
		return !found
	})
	return found, ok
}

// EachMember calls f with the name (quoted, as written) and the value of
// each top-level member of raw, which must have been validated as one
// JSON object (see [MembersTrusted]), in order, until f returns false. It
// splits nothing and allocates nothing. ok is false when raw is not an
// object as expected.
func EachMember(raw []byte, f func(name, value []byte) bool) (ok bool) {
	return eachTrusted(raw, func(s span) bool {
		return f(raw[s.name:s.nameEnd:s.nameEnd], raw[s.val:s.end:s.end])
	})
}

// NameIn reports whether the valid JSON string name, unquoted as
// [Member].Key holds it, is one of keys. It allocates nothing for names
// of up to 64 bytes.
func NameIn(name []byte, keys []string) bool {
	var buf [64]byte
	key := appendKey(buf[:0], name)
	for _, k := range keys {
		if string(key) == k {
			return true
		}
	}
	return false
}

// MembersTrusted splits the JSON object raw into its top-level members, in
// order, like [Members], but without validating raw: it is for input that
// has already been validated as one JSON object, with invalid UTF-8
// allowed and duplicate names refused (as jsontext.Decoder does with
// jsontext.AllowInvalidUTF8). It only finds where members start and end,
// and is several times faster than Members.
//
// On a small object it allocates only the returned slice and one string
// that all the keys are part of. On input that was not validated, the
// result is unspecified: it may be an error or a wrong split, but
// MembersTrusted never panics.
func MembersTrusted(raw []byte) ([]Member, error) {
	if ms, ok := membersTrusted(raw); ok {
		return ms, nil
	}
	return nil, errTrusted
}

// Valid reports whether raw is one JSON value (of any kind, with
// optional whitespace around it) that jsontext accepts with invalid UTF-8
// allowed and duplicate names refused, in a single pass like [Members].
// compact reports whether raw also has no whitespace between its tokens,
// so that a jsontext.Encoder with jsontext.AllowInvalidUTF8 and
// jsontext.PreserveRawStrings would write it unchanged (less any
// whitespace around it). On small input, such as a hook's answer, it does
// not allocate.
func Valid(raw []byte) (valid, compact bool) {
	return validValue(raw)
}

// Find returns the member with key k, and whether there is one.
func Find(ms []Member, k string) (Member, bool) {
	for _, m := range ms {
		if m.Key == k {
			return m, true
		}
	}
	return Member{}, false
}

// AppendObject appends the members ms to dst as one compact JSON object.
func AppendObject(dst []byte, ms []Member) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, m.Name...)
		dst = append(dst, ':')
		dst = append(dst, m.Value...)
	}
	return append(dst, '}')
}

// KindName names the JSON type of the value v: "object", "array",
// "string", "number", "boolean" or "null", and "value" for anything else
// (such as empty or invalid input). Only the first byte is looked at.
func KindName(v []byte) string {
	switch jsontext.Value(v).Kind() {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "value"
}

// PointerToken escapes a member name for use in a JSON pointer (RFC 6901):
// "~" becomes "~0" and "/" becomes "~1".
func PointerToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// SameValue reports whether a and b hold the same JSON value, perhaps
// written differently: once numbers are read as IEEE doubles, escapes are
// resolved (a lone surrogate reads as U+FFFD, as a re-encoding makes it),
// whitespace is dropped and object members are sorted. These are the marks
// of a value decoded and encoded again rather than changed on purpose.
// Identical bytes are always the same value; input that is not JSON is
// the same value only as identical bytes.
func SameValue(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	ca := append(jsontext.Value(nil), a...)
	cb := append(jsontext.Value(nil), b...)
	opt := jsonopts.Lenient()
	if ca.Canonicalize(opt) != nil || cb.Canonicalize(opt) != nil {
		return false
	}
	return bytes.Equal(ca, cb)
}

// SameTokens reports whether the valid JSON texts a and b are the same
// tokens, byte for byte, whatever whitespace is between them: whether
// they compact to the same bytes. It allocates nothing, and steps over
// strings eight bytes at a time. On input that is not valid JSON the
// result is unspecified, but SameTokens never panics.
func SameTokens(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	i, j := 0, 0
	for {
		i, j = skipWS(a, i), skipWS(b, j)
		if i >= len(a) || j >= len(b) {
			return i >= len(a) && j >= len(b)
		}
		if a[i] != b[j] {
			return false
		}
		if a[i] != '"' {
			i++
			j++
			continue
		}
		// A string in both: the same bytes up to a's closing quote are
		// the same string in b.
		n := skipString(a, i) - i
		if len(b)-j < n || string(a[i:i+n]) != string(b[j:j+n]) {
			return false
		}
		i, j = i+n, j+n
	}
}

// ElementsTrusted splits the JSON array raw into its elements, each a
// slice of raw whose capacity ends with it, without validating raw: it is
// for input that has already been validated (see [MembersTrusted]). It
// reports false when raw is not shaped like an array; it never panics.
func ElementsTrusted(raw []byte) ([][]byte, bool) {
	b := raw
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil, true
	}
	var elems [][]byte
	for {
		start := i
		if i = skipValue(b, i); i <= start || i > len(b) {
			return nil, false
		}
		elems = append(elems, b[start:i:i])
		i = skipWS(b, i)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			return elems, true
		default:
			return nil, false
		}
	}
}
