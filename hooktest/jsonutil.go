package hooktest

import (
	"bytes"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// readOpts accepts what JavaScript's JSON.stringify can write: lone
// surrogate escapes and, for answers, names that occur twice.
var readOpts = jsonopts.Lenient()

// decodeString decodes the JSON string v.
func decodeString(v []byte) (string, bool) {
	var s string
	if jsontext.Value(v).Kind() != '"' {
		return "", false
	}
	if err := json.Unmarshal(v, &s, readOpts); err != nil {
		return "", false
	}
	return s, true
}

// stringMember returns the string value of member k of ms.
func stringMember(ms []rawjson.Member, k string) (string, bool) {
	m, ok := rawjson.Find(ms, k)
	if !ok {
		return "", false
	}
	return decodeString(m.Value)
}

// elements splits the JSON array v into its elements, as slices of v.
func elements(v []byte) ([][]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(v), jsonopts.Read())
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	var out [][]byte
	for dec.PeekKind() != ']' {
		e, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		out = append(out, v[end-int64(len(e)):end])
	}
	return out, nil
}

// kindName names the JSON type of v the way error messages do: "an
// object", "a string", "null", or "not JSON".
func kindName(v []byte) string {
	switch k := rawjson.KindName(v); k {
	case "null":
		return k
	case "value":
		return "not JSON"
	case "object", "array":
		return "an " + k
	default:
		return "a " + k
	}
}

// clipLine returns the first line of a program's stderr for a message,
// whole up to 4000 bytes: the library's own messages are one line of at
// most that length and are worth reading in full.
func clipLine(b []byte) string {
	const max = 4000
	line := firstLine(trimJS(b))
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > max {
		return string(line[:max-3]) + "..."
	}
	return string(line)
}

// clip shortens v for a message.
func clip(v []byte) string {
	const max = 80
	if len(v) > max {
		return string(v[:max-3]) + "..."
	}
	return string(v)
}
