// Package rawjson splits JSON objects into their top-level members as
// slices of the object's own bytes, without decoding or re-encoding any
// value. It is shared by hook and hooktest so that both read objects the
// same way.
package rawjson

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Member is one top-level member of a JSON object: Name is the quoted name
// exactly as written, Key its unquoted form, Value the value exactly as
// written.
type Member struct {
	Key   string
	Name  []byte
	Value []byte
}

// ErrNotObject reports a value that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Members splits the JSON object raw into its top-level members, in
// order. It fails when raw is not one valid JSON object (invalid UTF-8,
// such as a lone surrogate escape, is allowed) or when a name occurs twice
// at any depth.
func Members(raw []byte) ([]Member, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadValue(); err != nil {
			return nil, err
		}
		return nil, ErrNotObject
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	var ms []Member
	for dec.PeekKind() != '}' {
		prev := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := tok.String()
		name := bytes.TrimLeft(raw[prev:dec.InputOffset()], " \t\r\n,")
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		ms = append(ms, Member{Key: key, Name: name, Value: raw[end-int64(len(val)) : end]})
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
