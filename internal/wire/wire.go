// Package wire is the library's JSON machinery: it reads the input from
// stdin, decodes it into typed views and encodes answers, with the option
// sets of internal/jsonopts. The root package holds the API and calls in
// here; nothing in wire is part of the library's API.
//
// Every encode and decode goes through the functions below. A fast codec
// (fast.go) does the work for the library's own plain structs, and the
// json package everything else, with the same result.
package wire

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// Unmarshal decodes raw JSON into v with the library's input options.
// The fast codec (fast.go) does the work when it can.
func Unmarshal(raw []byte, v any) error {
	if FastUnmarshal(raw, v) {
		return nil
	}
	return json.Unmarshal(raw, v, jsonopts.Decode())
}

// Marshal encodes v with the library's output options.
// The fast codec (fast.go) does the work when it can.
func Marshal(v any) ([]byte, error) {
	if b, ok := FastAppend(nil, v); ok {
		return b, nil
	}
	return json.Marshal(v, jsonopts.Marshal())
}

// MarshalPatch encodes a hook.Merge patch: as Marshal does, with the members
// of maps in sorted key order so that a map patch merges the same way on
// every run. Maps of strings, raw values or values the fast codec encodes,
// and structs, take the fast codec.
func MarshalPatch(v any) ([]byte, error) {
	if b, ok := FastAppendPatch(v); ok {
		return b, nil
	}
	return json.Marshal(v, jsonopts.Patch())
}

// FastAppendPatch is the fast codec's side of MarshalPatch, exported
// for the root package's tests as FastAppend is.
func FastAppendPatch(v any) ([]byte, bool) {
	switch m := v.(type) {
	case map[string]string:
		return fastAppendMap(m, appendQuote)
	case map[string]any:
		return fastAppendMap(m, FastAppend)
	case map[string]jsontext.Value:
		return fastAppendMap(m, func(dst []byte, v jsontext.Value) ([]byte, bool) { return FastAppend(dst, v) })
	}
	return FastAppend(nil, v)
}

// fastAppendMap encodes m with its members in sorted key order, each
// value with appendValue, or reports false.
func fastAppendMap[V any](m map[string]V, appendValue func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 1 {
		// A patch of one member, the common case, needs no sort (nor
		// the sort's code paged in).
		slices.Sort(keys)
	}
	b := make([]byte, 0, 64)
	b = append(b, '{')
	var ok bool
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendQuote(b, k); !ok {
			return nil, false
		}
		b = append(b, ':')
		if b, ok = appendValue(b, m[k]); !ok {
			return nil, false
		}
	}
	return append(b, '}'), true
}

// AppendMarshal appends the encoding of v to dst. The fast codec
// (fast.go) does the work when it can.
//
// A large raw value inside v (a jsontext.Value of at least spliceMin
// bytes, such as a PreToolUse updatedInput built by Merge) is not handed
// to the encoder, which would re-read and copy it at a fraction of memory
// speed: it is checked in one fast pass with rawjson.Valid, and when it is
// valid its bytes are copied into the output as they are, or compacted
// when it has whitespace between its tokens (as the encoder would write
// it; see asWritten). The result is byte for byte the plain encoding;
// anything else takes the encoder's path.
func AppendMarshal(dst []byte, v any) ([]byte, error) {
	if b, ok := FastAppend(dst, v); ok {
		return b, nil
	}
	var s splicer
	b, err := json.Marshal(v, jsonopts.MarshalWith(json.MarshalToFunc(s.marshal)))
	if err != nil {
		return dst, err
	}
	if s.raw == nil {
		return append(dst, b...), nil
	}
	before, after, ok := Cut(b, spliceSlot)
	if !ok {
		// Another string of v reads like the placeholder: encode plainly.
		b, err = json.Marshal(v, jsonopts.Marshal())
		if err != nil {
			return dst, err
		}
		return append(dst, b...), nil
	}
	dst = slices.Grow(dst, len(before)+len(s.raw)+len(after))
	dst = append(dst, before...)
	dst = append(dst, s.raw...)
	return append(dst, after...), nil
}

// Cut splits the encoded document b around the placeholder slot, the
// encoding of a JSON string that stands for a value to be put in its
// place: the bytes before it and after it. ok is false unless b holds
// slot exactly once. It is the one splicer of the library: this package
// splices a large raw value into its output with it, and the root package
// the vouched values of an answer (vouch.go). Replacing one JSON value of
// a valid document by another valid value keeps the document valid.
func Cut(b []byte, slot string) (before, after []byte, ok bool) {
	i := bytes.Index(b, []byte(slot))
	if i < 0 || bytes.Contains(b[i+len(slot):], []byte(slot)) {
		return nil, nil, false
	}
	return b[:i:i], b[i+len(slot):], true
}

// spliceMin is the size from which AppendMarshal splices a raw value into
// its output.
const spliceMin = 4 << 10

// spliceSlot is the encoding of the placeholder string that AppendMarshal
// writes in place of the raw value it splices in.
const spliceSlot = `"\u0000hook:splice\u0000"`

// splicer sets aside the first large, valid raw value that the encoder
// meets, as the encoder would write it (see asWritten), and writes a
// placeholder instead. It keeps the value's slice when the value is
// compact (the slice belongs to the value being encoded, not to the
// encoder), else a compacted copy.
type splicer struct {
	raw jsontext.Value // the value set aside, without surrounding whitespace
}

func (s *splicer) marshal(enc *jsontext.Encoder, v jsontext.Value) error {
	if s.raw != nil || len(v) < spliceMin {
		return SkipFunc
	}
	raw, ok := asWritten(v)
	if !ok {
		return SkipFunc // the encoder reports the error, or decides
	}
	s.raw = raw
	return enc.WriteToken(jsontext.String("\x00hook:splice\x00"))
}

// asWritten returns the raw value v as the encoder writes it: without
// the whitespace around it and between its tokens. That is v's own bytes
// when v is compact; when it is not, a compacted copy (rawjson's
// Compactor keeps the bytes of strings, numbers and literals, as the
// encoder does with PreserveRawStrings), for valid UTF-8 only: what
// becomes of invalid UTF-8 is the encoder's to say. It reports false
// when v is not one valid JSON value (the encoder reports the error) or
// is not UTF-8 and not compact. It is the one rule by which the fast
// codec and the splicer copy a raw value into their output instead of
// encoding it, so that an updatedInput with whitespace (Update or Edit
// of a pretty-printed input, a handler's own value) costs what a compact
// one costs.
func asWritten(v []byte) ([]byte, bool) {
	valid, compact := rawjson.Valid(v)
	switch {
	case !valid:
		return nil, false
	case compact:
		return trimSpace(v), true
	case !utf8.Valid(v):
		return nil, false
	}
	return rawjson.AppendCompact(make([]byte, 0, len(v)), v), true
}

// Valid reports whether v is one valid JSON value by the library's
// rules (rawjson's: invalid UTF-8 allowed, duplicate names as JavaScript
// compares them refused).
func Valid(v []byte) bool {
	ok, _ := rawjson.Valid(v)
	return ok
}
