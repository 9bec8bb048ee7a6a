package transcript

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// errNotObject is the error of a line that is JSON but not an object.
var errNotObject = errors.New("not a JSON object")

// eachMember calls f with the name and the raw value of every member of
// the JSON object obj, in order; each value is a subslice of obj. It
// returns an error when obj is not one whole JSON object.
func eachMember(obj []byte, f func(name string, val jsontext.Value)) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(obj), jsonopts.Unmarshal())
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return errNotObject
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		name := tok.String() // before the next call voids tok
		val, err := dec.ReadValue()
		if err != nil {
			return err
		}
		end := int(dec.InputOffset())
		f(name, obj[end-len(val):end:end])
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("more than one JSON value on the line")
		}
		return err
	}
	return nil
}

// str returns the JSON string val decoded, "" when val is not a string.
func str(val jsontext.Value) string {
	if len(val) == 0 || val[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(val, &s, jsonopts.Unmarshal()) != nil {
		return ""
	}
	return s
}

// boolean returns whether val is the JSON literal true.
func boolean(val jsontext.Value) bool { return string(val) == "true" }

// valueOrNil returns val, or nil when it is the JSON null.
func valueOrNil(val jsontext.Value) jsontext.Value {
	if string(val) == "null" {
		return nil
	}
	return val
}

// eachElement calls f with every element of the JSON array arr, each a
// subslice of arr; it stops at the first syntax error.
func eachElement(arr []byte, f func(val jsontext.Value)) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(arr), jsonopts.Unmarshal())
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return
	}
	for dec.PeekKind() != ']' {
		val, err := dec.ReadValue()
		if err != nil {
			return
		}
		end := int(dec.InputOffset())
		f(arr[end-len(val) : end : end])
	}
}
