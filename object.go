package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// member is one top-level member of a JSON object, as slices of the
// object's own bytes: name is the quoted name exactly as written, key its
// unquoted form, value the value exactly as written.
type member struct {
	key   string
	name  []byte
	value []byte
}

// errNotObject reports a value that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// objectMembers splits the JSON object raw into its top-level members, in
// order, without decoding or re-encoding any value. It fails when raw is not
// one valid JSON object or when a name occurs twice at any depth.
func objectMembers(raw []byte) ([]member, error) {
	dec := newValueDecoder(raw)
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadValue(); err != nil {
			return nil, err
		}
		return nil, errNotObject
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	var ms []member
	for dec.PeekKind() != '}' {
		prev := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := tok.String()
		nameEnd := dec.InputOffset()
		name := bytes.TrimLeft(raw[prev:nameEnd], " \t\r\n,")
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		ms = append(ms, member{key: key, name: name, value: raw[end-int64(len(val)) : end]})
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return nil, errors.New("data after the JSON object")
		}
		return nil, err
	}
	return ms, nil
}

// lookupMember returns the value of the top-level member key of the
// object raw, and whether it was there.
func lookupMember(raw []byte, key string) (jsontext.Value, bool) {
	ms, err := objectMembers(raw)
	if err != nil {
		return nil, false
	}
	for _, m := range ms {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// appendObject appends the members ms as one compact JSON object.
func appendObject(dst []byte, ms []member) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, m.name...)
		dst = append(dst, ':')
		dst = append(dst, m.value...)
	}
	return append(dst, '}')
}

// objectError wraps a failure to read a JSON object with what was being read.
func objectError(what string, err error) error {
	if errors.Is(err, errNotObject) {
		return fmt.Errorf("hook: %s is %s", what, err)
	}
	return fmt.Errorf("hook: %s: %w", what, err)
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
