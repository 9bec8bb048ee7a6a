package hook

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

var (
	// readOpts is used to read and validate the whole input once.
	readOpts = jsontext.AllowInvalidUTF8(true)

	// unmarshalOpts decodes input into typed views. Unknown members are
	// ignored: Claude Code adds fields often.
	unmarshalOpts = json.JoinOptions(
		jsontext.AllowInvalidUTF8(true),
		json.MatchCaseInsensitiveNames(false),
	)

	// marshalOpts encodes answers and patch values. Raw values keep their
	// escapes and bytes; nil slices and maps are never written as null.
	marshalOpts = json.JoinOptions(
		jsontext.AllowInvalidUTF8(true),
		jsontext.PreserveRawStrings(true),
		json.FormatNilSliceAsNull(false),
		json.FormatNilMapAsNull(false),
	)
)

// unmarshal decodes raw JSON into v with the library's input options.
func unmarshal(raw []byte, v any) error {
	return json.Unmarshal(raw, v, unmarshalOpts)
}

// marshal encodes v with the library's output options.
func marshal(v any) ([]byte, error) {
	return json.Marshal(v, marshalOpts)
}

// appendMarshal appends the encoding of v to dst.
func appendMarshal(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v, marshalOpts)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}
