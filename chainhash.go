package hook

import (
	"bytes"
	"hash/maphash"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// valueHasher hashes JSON values so that two values have the same hash
// when [rawjson.SameValue] takes them for the same value: numbers read
// as IEEE doubles, escapes resolved, whitespace dropped, object members
// in any order. The hash of an object or array is made of its members'
// or elements' hashes and is computed once per value (the hasher keeps
// it by the value's bytes), so hashing a value and then every value
// inside it costs one pass over its bytes. The seed is random: two
// different values have the same hash with a chance of 2⁻⁶⁴, which no
// input can raise without knowing the seed.
type valueHasher struct {
	seed  maphash.Seed
	known map[valueKey]uint64
}

// valueKey is the identity of a value's bytes.
type valueKey struct {
	p *byte
	n int
}

func newValueHasher() valueHasher {
	return valueHasher{seed: maphash.MakeSeed(), known: make(map[valueKey]uint64)}
}

// same reports whether a and b hold the same JSON value.
func (h *valueHasher) same(a, b []byte) bool {
	return bytes.Equal(a, b) || h.hash(a) == h.hash(b)
}

// The kinds of value, mixed into their hashes.
const (
	hashObject uint64 = 0x9e3779b97f4a7c15
	hashArray  uint64 = 0xc2b2ae3d27d4eb4f
	hashMember uint64 = 0x165667b19e3779f9
)

// mix combines two hashes, in order.
func mix(a, b uint64) uint64 {
	x := a ^ (b + 0x9e3779b97f4a7c15 + a<<6 + a>>2)
	// The finaliser of MurmurHash3.
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb93e7f5b2de1
	x ^= x >> 33
	return x
}

// member returns the hash of an object member: its name and value.
func (h *valueHasher) member(key string, value []byte) uint64 {
	return mix(mix(hashMember, maphash.String(h.seed, key)), h.hash(value))
}

// hash returns the hash of the JSON value v, which the read validated.
func (h *valueHasher) hash(v []byte) uint64 {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return 0
	}
	switch v[0] {
	case '{', '[':
	default:
		return maphash.Bytes(h.seed, canonicalScalar(v))
	}
	key := valueKey{unsafe.SliceData(v), len(v)}
	if s, ok := h.known[key]; ok {
		return s
	}
	var s uint64
	if v[0] == '{' {
		// Members in any order: their hashes are added.
		ms, err := rawjson.MembersTrusted(v)
		if err != nil {
			return maphash.Bytes(h.seed, v)
		}
		s = hashObject
		for _, m := range ms {
			s += h.member(m.Key, m.Value)
		}
		s = mix(hashObject, s)
	} else {
		es, ok := rawjson.ElementsTrusted(v)
		if !ok {
			return maphash.Bytes(h.seed, v)
		}
		s = hashArray
		for _, e := range es {
			s = mix(s, h.hash(e))
		}
	}
	h.known[key] = s
	return s
}

// canonicalScalar returns the scalar JSON value v in the canonical form
// of RFC 8785 (as [rawjson.SameValue] compares values): v itself when it
// is already canonical, as literals, strings without escapes and small
// integers are.
func canonicalScalar(v []byte) []byte {
	switch v[0] {
	case 't', 'f', 'n':
		return v
	case '"':
		if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
			return v
		}
	default:
		if simpleInteger(v) {
			return v
		}
	}
	c := append(jsontext.Value(nil), v...)
	if c.Canonicalize(jsonopts.Lenient()) != nil {
		return v
	}
	return c
}

// simpleInteger reports whether v is an integer that RFC 8785 writes as
// it is: no sign but a minus, no leading zero, no fraction or exponent,
// at most 15 digits, and not -0.
func simpleInteger(v []byte) bool {
	d := v
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || (d[0] == '0' && (len(d) > 1 || len(v) > 1)) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
