package clientrun

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// jsonOpts are the options of every decode in this package: Claude Code
// (JavaScript) writes lone surrogates as \ud800 escapes, which Go decodes
// as invalid UTF-8, and a hook under test may write duplicate names.
var jsonOpts = jsonopts.Read()

// Unmarshal decodes b into v with the options of every decode here:
// lone surrogates and duplicate names are read as Claude Code writes them.
func Unmarshal(b []byte, v any) error { return json.Unmarshal(b, v, jsonOpts) }

// Member returns the raw value of the top-level member name of the JSON
// object obj, exactly as written (the last one when the name repeats), and
// whether it is there.
func Member(obj []byte, name string) (jsontext.Value, bool) {
	d := jsontext.NewDecoder(bytes.NewReader(obj), jsonOpts)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	var found jsontext.Value
	ok := false
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, false
		}
		key := tok.String()
		v, err := d.ReadValue()
		if err != nil {
			return nil, false
		}
		if key == name {
			found, ok = append(jsontext.Value(nil), v...), true
		}
	}
	return found, ok
}

// ValueAt returns the raw value at the member names path inside obj; no
// names is obj itself, when it is one JSON value.
func ValueAt(obj []byte, names ...string) (jsontext.Value, bool) {
	v := jsontext.Value(bytes.TrimSpace(obj))
	if len(names) == 0 {
		return v, len(v) > 0 && v.IsValid(jsonOpts)
	}
	for _, n := range names {
		var ok bool
		if v, ok = Member(v, n); !ok {
			return nil, false
		}
	}
	return v, true
}
