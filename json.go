package hook

import (
	"bytes"
	"slices"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// This file is the one place that owns the library's JSON options. Every
// encode and decode in the package goes through the variables and helpers
// below; nothing else constructs options.
//
// Input is decoded with invalid UTF-8 allowed, so that lone surrogate escapes
// such as \ud800 (which JavaScript's JSON.stringify can produce) are accepted.
// Raw values are written back with PreserveRawStrings, so their escapes and
// bytes survive exactly. Duplicate member names are refused: Claude Code never
// sends them, and a hook cannot know which of two values Claude Code meant.
//
// The duplicate rule is internal/rawjson's, which compares names as
// JavaScript does ("\ud800" and "\ufffd" differ); jsontext's own check
// compares them after U+FFFD replacement, so it is off in every option set
// below, and every value is validated by rawjson before it is decoded or
// written (the input at the read, raw answer values by their checks and
// the whole answer by the final guard).

var (
	// readOpts is used to read and validate the whole input once.
	readOpts = json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

	// unmarshalOpts decodes input into typed views. Unknown members are
	// ignored: Claude Code adds fields often.
	unmarshalOpts = json.JoinOptions(
		jsontext.AllowInvalidUTF8(true),
		jsontext.AllowDuplicateNames(true),
		json.MatchCaseInsensitiveNames(false),
	)

	// decodeOpts is unmarshalOpts with integers read from any JSON number
	// (see number.go), built on first use: a hook does no work at start-up.
	decodeOpts = sync.OnceValue(func() json.Options {
		return json.JoinOptions(unmarshalOpts, json.WithUnmarshalers(numberUnmarshalers()))
	})

	// marshalOpts encodes answers and patch values. Raw values keep their
	// escapes and bytes; nil slices and maps are never written as null.
	marshalOpts = json.JoinOptions(
		jsontext.AllowInvalidUTF8(true),
		jsontext.AllowDuplicateNames(true),
		jsontext.PreserveRawStrings(true),
		json.FormatNilSliceAsNull(false),
		json.FormatNilMapAsNull(false),
	)
)

// unmarshal decodes raw JSON into v with the library's input options.
// The fast codec (jsonfast.go) does the work when it can.
func unmarshal(raw []byte, v any) error {
	if fastUnmarshal(raw, v) {
		return nil
	}
	return json.Unmarshal(raw, v, decodeOpts())
}

// marshal encodes v with the library's output options.
// The fast codec (jsonfast.go) does the work when it can.
func marshal(v any) ([]byte, error) {
	if b, ok := fastAppend(nil, v); ok {
		return b, nil
	}
	return json.Marshal(v, marshalOpts)
}

// marshalPatch encodes a [Merge] patch: as marshal does, with the members
// of maps in sorted key order so that a map patch merges the same way on
// every run. Maps of strings, raw values or values the fast codec encodes,
// and structs, take the fast codec.
func marshalPatch(v any) ([]byte, error) {
	if b, ok := fastAppendPatch(v); ok {
		return b, nil
	}
	return json.Marshal(v, marshalOpts, json.Deterministic(true))
}

// fastAppendPatch is the fast codec's side of marshalPatch.
func fastAppendPatch(v any) ([]byte, bool) {
	switch m := v.(type) {
	case map[string]string:
		return fastAppendMap(m, appendQuote)
	case map[string]any:
		return fastAppendMap(m, fastAppend)
	case map[string]jsontext.Value:
		return fastAppendMap(m, func(dst []byte, v jsontext.Value) ([]byte, bool) { return fastAppend(dst, v) })
	}
	return fastAppend(nil, v)
}

// fastAppendMap encodes m with its members in sorted key order, each
// value with appendValue, or reports false.
func fastAppendMap[V any](m map[string]V, appendValue func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
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

// appendMarshal appends the encoding of v to dst. The fast codec
// (jsonfast.go) does the work when it can.
//
// A large raw value inside v (a jsontext.Value of at least spliceMin
// bytes, such as a PreToolUse updatedInput built by Merge) is not handed
// to the encoder, which would re-read and copy it at a fraction of memory
// speed: it is checked in one fast pass with rawjson.Valid, and when it is
// valid and compact (so the encoder would write it unchanged) its bytes
// are copied into the output as they are. The result is byte for byte the
// plain encoding; anything else takes the encoder's path.
func appendMarshal(dst []byte, v any) ([]byte, error) {
	if b, ok := fastAppend(dst, v); ok {
		return b, nil
	}
	var s splicer
	b, err := json.Marshal(v, marshalOpts, json.WithMarshalers(json.MarshalToFunc(s.marshal)))
	if err != nil {
		return dst, err
	}
	if s.raw == nil {
		return append(dst, b...), nil
	}
	i := bytes.Index(b, spliceSlot)
	if i < 0 || bytes.Contains(b[i+len(spliceSlot):], spliceSlot) {
		// Another string of v reads like the placeholder: encode plainly.
		b, err = json.Marshal(v, marshalOpts)
		if err != nil {
			return dst, err
		}
		return append(dst, b...), nil
	}
	dst = slices.Grow(dst, len(b)-len(spliceSlot)+len(s.raw))
	dst = append(dst, b[:i]...)
	dst = append(dst, s.raw...)
	return append(dst, b[i+len(spliceSlot):]...), nil
}

// spliceMin is the size from which appendMarshal splices a raw value into
// its output.
const spliceMin = 4 << 10

// spliceSlot is the encoding of the placeholder string that appendMarshal
// writes in place of the raw value it splices in.
var spliceSlot = []byte(`"\u0000hook:splice\u0000"`)

// splicer sets aside the first large, valid and compact raw value that
// the encoder meets, and writes a placeholder instead. It keeps the
// value's slice, which belongs to the value being encoded, not to the
// encoder.
type splicer struct {
	raw jsontext.Value // the value set aside, without surrounding whitespace
}

func (s *splicer) marshal(enc *jsontext.Encoder, v jsontext.Value) error {
	if s.raw != nil || len(v) < spliceMin {
		return errSkipFunc
	}
	if valid, compact := rawjson.Valid(v); !valid || !compact {
		return errSkipFunc // the encoder reports the error, or compacts
	}
	s.raw = bytes.Trim(v, " \t\r\n")
	return enc.WriteToken(jsontext.String("\x00hook:splice\x00"))
}

// validJSON reports whether v is one valid JSON value by the library's
// rules (rawjson's: invalid UTF-8 allowed, duplicate names as JavaScript
// compares them refused).
func validJSON(v []byte) bool {
	ok, _ := rawjson.Valid(v)
	return ok
}
