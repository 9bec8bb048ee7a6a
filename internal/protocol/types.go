package protocol

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
)

// Type is one struct type of the protocol as the root package declares
// it: an event's input (FooInput's struct Foo, embedding Event), its
// answer (FooOutput, embedding Common), a hookSpecificOutput, or a typed
// view of a tool's input or response and the items they nest.
type Type struct {
	// Name is the type's Go name.
	Name string `json:"name"`
	// File is the hand-written file of the root package that holds the
	// type's methods and rules, and its named value types.
	File string `json:"file"`
	// Doc is the type's doc comment, one line of text a line.
	Doc []string `json:"doc"`
	// Fields are the struct's fields, in order.
	Fields []Field `json:"fields"`
}

// Field is one field of a [Type].
type Field struct {
	// Name is the field's Go name; empty for an embedded type.
	Name string `json:"name,omitempty"`
	// Type is the field's Go type, as written in Go.
	Type string `json:"type"`
	// JSON is the value of the field's json tag: the JSON member's name
	// and its options ("file_path,omitempty"); empty when the field has
	// no tag.
	JSON string `json:"json,omitempty"`
	// Doc is the field's doc comment, one line of text a line.
	Doc []string `json:"doc,omitempty"`
	// Gap puts a blank line before the field, ending the group above it.
	Gap bool `json:"gap,omitempty"`
}

// Member returns the name of the JSON member the field reads, or "" for
// an embedded type or a field without a json tag.
func (f Field) Member() string {
	name, _, _ := strings.Cut(f.JSON, ",")
	return name
}

//go:embed types.json
var typesJSON []byte

// Types returns the struct types of the protocol from types.json, in the
// order of their files. Each call decodes the file anew.
func Types() ([]Type, error) {
	var s struct {
		Types []Type `json:"types"`
	}
	if err := json.Unmarshal(typesJSON, &s); err != nil {
		return nil, fmt.Errorf("protocol: types.json: %w", err)
	}
	return s.Types, nil
}
