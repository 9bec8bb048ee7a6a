package rawjson

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// membersReference is the reference implementation of [Members], built on
// jsontext: the fast scanner must accept exactly the objects it accepts and
// split them the same way. Members falls back to it for every input the
// fast scanner refuses, so that errors carry jsontext's precise messages.
func membersReference(raw []byte) ([]Member, error) {
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
