package hooktest

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/verdict"
)

// Tricky is one JSON value that hand-built or decode-then-encode JSON gets
// wrong. JSON is the exact bytes to put into a payload; a hook must hand
// them back unchanged.
type Tricky struct {
	// Name says what the value tests, e.g. "quote" or "big integer".
	Name string
	// JSON is the value's exact encoding.
	JSON jsontext.Value
}

// RoomNames returns the seven room names that broke a real plugin whose
// hook built updatedInput by hand: a title, an id, a quote, a backslash,
// non-ASCII text, a tab, and a title that looks like JSON.
func RoomNames() []Tricky {
	return []Tricky{
		{"title", jsontext.Value(`"Quarterly Planning"`)},
		{"id", jsontext.Value(`"room-7f3a9c21"`)},
		{"quote", jsontext.Value(`"Bob's \"war room\""`)},
		{"backslash", jsontext.Value(`"C:\\rooms\\ops"`)},
		{"non-ASCII", jsontext.Value(`"Zürich Besprechungsraum ☕"`)},
		{"tab", jsontext.Value(`"Ops\tNight"`)},
		{"looks like JSON", jsontext.Value(`"{\"room\":\"lobby\",\"id\":1}"`)},
	}
}

// TrickyValues returns the corpus: the seven [RoomNames] and the values
// that JSON libraries and hand-built JSON most often lose or rewrite —
// escapes, lone surrogates, control characters, line separators, emoji
// with joiners, right-to-left text, CRLF, long strings, big and odd
// numbers, deep nesting, empty containers. It builds a new slice on each
// call (nothing is built at start-up).
func TrickyValues() []Tricky {
	deep := strings.Repeat(`{"a":[`, 64) + `"deep"` + strings.Repeat(`]}`, 64)
	long := `"` + strings.Repeat("long ünïcode line \\n ", 4096) + `"`
	return append(RoomNames(),
		Tricky{"lone high surrogate escape", jsontext.Value(`"\ud800"`)},
		Tricky{"lone low surrogate escape", jsontext.Value(`"x\udfffy"`)},
		Tricky{"NUL escape", jsontext.Value(`"a\u0000b"`)},
		Tricky{"control escapes", jsontext.Value(`"\b\f\n\r\t\u001f"`)},
		Tricky{"U+2028 and U+2029 raw", jsontext.Value("\"line\u2028para\u2029end\"")},
		Tricky{"U+2028 escaped", jsontext.Value(`"line\u2028end"`)},
		Tricky{"emoji with joiners", jsontext.Value(`"👩‍👩‍👧‍👦 family 🏳️‍🌈"`)},
		Tricky{"surrogate pair escape", jsontext.Value(`"\ud83d\ude00"`)},
		Tricky{"right-to-left text", jsontext.Value(`"שלום עולם مرحبا"`)},
		Tricky{"bidi override", jsontext.Value("\"abc\u202edef\"")},
		Tricky{"CRLF", jsontext.Value(`"line one\r\nline two\r\n"`)},
		Tricky{"slash escape", jsontext.Value(`"a\/b"`)},
		Tricky{"HTML characters", jsontext.Value(`"<script>&amp;</script>"`)},
		Tricky{"HTML escapes", jsontext.Value(`"\u003cb\u003e \u0026"`)},
		Tricky{"unicode escapes of ASCII letters", jsontext.Value(`"\u0041\u0062\u0063"`)},
		Tricky{"unicode escape of ö", jsontext.Value(`"K\u00f6ln"`)},
		Tricky{"empty string", jsontext.Value(`""`)},
		Tricky{"very long string", jsontext.Value(long)},
		Tricky{"string that looks like JSON array", jsontext.Value(`"[1,2,{\"x\":null}]"`)},
		Tricky{"big integer", jsontext.Value(`12345678901234567890`)},
		Tricky{"negative big integer", jsontext.Value(`-98765432109876543210`)},
		Tricky{"negative zero", jsontext.Value(`-0`)},
		Tricky{"exponent", jsontext.Value(`1E+2`)},
		Tricky{"trailing zero", jsontext.Value(`2.50`)},
		Tricky{"overflowing float", jsontext.Value(`1e400`)},
		Tricky{"tiny float", jsontext.Value(`5e-324`)},
		Tricky{"max safe integer plus one", jsontext.Value(`9007199254740993`)},
		Tricky{"true", jsontext.Value(`true`)},
		Tricky{"null", jsontext.Value(`null`)},
		Tricky{"empty object", jsontext.Value(`{}`)},
		Tricky{"empty array", jsontext.Value(`[]`)},
		Tricky{"nested object", jsontext.Value(`{"b":2,"a":{"z":[1,"two",{"c":2.50}]}}`)},
		Tricky{"array of mixed values", jsontext.Value(`[0,-0,1e400,"\ud800",null,{}]`)},
		Tricky{"deep nesting", jsontext.Value(deep)},
	)
}

// Sendable reports whether Claude Code can send the value in a tool
// input: whether JavaScript's JSON.stringify writes exactly t.JSON for the
// value JSON.parse reads from it. "\ud800" (a lone surrogate), quotes,
// control escapes and 5e-324 are sendable; 12345678901234567890, 1e400,
// -0, 2.50, "\/" and "\u00f6" are not. A property run reports the runs on
// values that are not sendable as a tier of their own, which fails only
// under [Options.Strict].
func (t Tricky) Sendable() bool { return verdict.Sendable(t.JSON) }
