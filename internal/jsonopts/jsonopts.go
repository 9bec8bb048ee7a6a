// Package jsonopts holds every JSON option set of the module: the
// library's codec (internal/wire), the raw scanner (internal/rawjson),
// hooktest, hookcheck, claudetest and the benchmarks take their options
// from here, so that how the module reads and writes JSON is decided in
// one place. It is a leaf package (it imports nothing of the module), so
// that internal/rawjson, which internal/wire imports, can use it too.
//
// Input is read with invalid UTF-8 allowed, so that lone surrogate escapes
// such as \ud800 (which JavaScript's JSON.stringify can produce) are
// accepted. Raw values are written back with PreserveRawStrings, so their
// escapes and bytes survive exactly. jsontext's own duplicate-name check
// compares names after U+FFFD replacement, where JavaScript compares them
// as UTF-16 code units ("\ud800" and "\ufffd" differ), so it is off in the
// library's sets: internal/rawjson applies the JavaScript rule instead,
// and every value is validated by it before it is decoded or written.
//
// Every option set below is built on first use, all of them at once: a
// hook does no work at start-up for options it may never need (its events
// and answers take the fast codec of internal/wire, which needs none).
package jsonopts

import (
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Lenient accepts what JavaScript's JSON.stringify can write, lone
// surrogate escapes included; duplicate names are still refused.
func Lenient() json.Options { return built().lenient }

// Read accepts lone surrogate escapes and leaves duplicate names to
// internal/rawjson's JavaScript rule (see the package doc). It reads
// and validates the whole input once, and splits JSON text whose names
// are checked elsewhere.
func Read() json.Options { return built().read }

// Unmarshal decodes input into typed views. Unknown members are ignored:
// Claude Code adds fields often.
func Unmarshal() json.Options { return built().unmarshal }

// Marshal encodes answers and patch values. Raw values keep their escapes
// and bytes; nil slices and maps are never written as null.
func Marshal() json.Options { return built().marshal }

// Patch is Marshal for the values of a hook.Merge patch: the members of
// maps are written in sorted key order, so that a map patch merges the
// same way on every run.
func Patch() json.Options { return built().patch }

// Preserve is Read for encoders: escapes and bytes of strings are written
// as they were read.
func Preserve() json.Options { return built().preserve }

// Deterministic writes the members of maps in sorted key order, so that
// the same value encodes to the same bytes on every run.
func Deterministic() json.Options { return json.Deterministic(true) }

// Indented is Lenient for reports read by people: one member a line,
// indented by two spaces.
func Indented() json.Options { return built().indented }

// Decode returns Unmarshal with integers read from any JSON number (see
// number.go): the options the library decodes typed views with.
func Decode() json.Options { return built().decode }

// MarshalWith returns Marshal with the caller's marshalers m, which see
// each value before the encoder does and may return SkipFunc to leave it
// to the encoder.
func MarshalWith(m *json.Marshalers) json.Options {
	return json.JoinOptions(Marshal(), json.WithMarshalers(m))
}

// optionSets are the option sets above, built together by built.
type optionSets struct {
	lenient, read, unmarshal, marshal, patch, preserve, indented, decode json.Options
}

var (
	buildOnce sync.Once
	sets      optionSets
)

// built returns the option sets, building them on the first call.
func built() *optionSets {
	buildOnce.Do(func() {
		marshal := json.JoinOptions(
			jsontext.AllowInvalidUTF8(true),
			jsontext.AllowDuplicateNames(true),
			jsontext.PreserveRawStrings(true),
			json.FormatNilSliceAsNull(false),
			json.FormatNilMapAsNull(false),
		)
		unmarshal := json.JoinOptions(
			jsontext.AllowInvalidUTF8(true),
			jsontext.AllowDuplicateNames(true),
			json.MatchCaseInsensitiveNames(false),
		)
		sets = optionSets{
			lenient:   json.JoinOptions(jsontext.AllowInvalidUTF8(true)),
			read:      json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)),
			unmarshal: unmarshal,
			marshal:   marshal,
			patch:     json.JoinOptions(marshal, json.Deterministic(true)),
			preserve: json.JoinOptions(
				jsontext.AllowInvalidUTF8(true),
				jsontext.AllowDuplicateNames(true),
				jsontext.PreserveRawStrings(true),
			),
			indented: json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.Multiline(true), jsontext.WithIndent("  ")),
			decode:   json.JoinOptions(unmarshal, json.WithUnmarshalers(numberUnmarshalers())),
		}
	})
	return &sets
}
