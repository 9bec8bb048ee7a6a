package rawjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// membersReference is the reference implementation of [Members], built on
// jsontext: the fast scanner must accept exactly the objects it accepts and
// split them the same way. Members falls back to it for every input the
// fast scanner refuses, so that errors carry jsontext's precise messages.
//
// Duplicate names are found as JavaScript finds them (see [Member].Key):
// jsontext's own check compares names after turning lone surrogates into
// U+FFFD, so it is off here and checkNames does it instead.
func membersReference(raw []byte) ([]Member, error) {
	if err := CheckNames(raw); err != nil {
		return nil, err
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsonopts.Read())
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
		_ = tok
		name := bytes.TrimLeft(raw[prev:dec.InputOffset()], " \t\r\n,")
		key := string(AppendExactUnquote(nil, name))
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		ms = append(ms, Member{Key: key, Name: name[:len(name):len(name)], Value: raw[end-int64(len(val)) : end : end]})
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

// CheckNames reads raw with jsontext and fails on its first syntax error,
// or on an object, at any depth, that holds a name twice as JavaScript
// compares names (see [Member].Key); that error wraps
// jsontext.ErrDuplicateName and reads as jsontext's own, with the JSON
// pointer of the object. It is the slow, precise reporter behind the fast
// scanners' refusals.
func CheckNames(raw []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsonopts.Read())
	type open struct {
		obj   bool
		names map[string]bool
	}
	var stack []open
	for {
		prev := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		k := tok.Kind()
		switch {
		case k == '{' || k == '[':
			stack = append(stack, open{obj: k == '{', names: map[string]bool{}})
			continue
		case k == '}' || k == ']':
			stack = stack[:len(stack)-1]
			continue
		}
		_, length := dec.StackIndex(dec.StackDepth())
		if n := len(stack); n > 0 && stack[n-1].obj && length%2 == 1 && k == '"' {
			name := bytes.TrimLeft(raw[prev:dec.InputOffset()], " \t\r\n,")
			key := string(AppendExactUnquote(nil, name))
			if stack[n-1].names[key] {
				where := ""
				if p := dec.StackPointer(); p.Parent() != "" {
					where = fmt.Sprintf(" within %q", string(p.Parent()))
				}
				return fmt.Errorf("jsontext: %w %s%s", jsontext.ErrDuplicateName, name, where)
			}
			stack[n-1].names[key] = true
		}
	}
}
