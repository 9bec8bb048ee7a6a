package verdict

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// NamesCase names the property run's case that adds the members of
// [OddMembers] to a tool input.
const NamesCase = "unusual member names"

// oddNames are member names that a hook keeping only the names it knows,
// or only names that look like identifiers, loses: a dash (an MCP tool's
// "seat-count"), a dot, a space, non-ASCII letters, capitals, digits only
// (JavaScript puts such a name first), JSON escapes, JSON pointer escapes,
// and a long name. Each has a value of its own.
var oddNames = []struct{ name, value string }{
	{"seat-count", `12`},
	{"a.b", `"dotted name"`},
	{"with space", `"spaced name"`},
	{"Größe-名前", `"non-ASCII name"`},
	{"UPPER_CASE", `true`},
	{"42", `"digits only"`},
	{"quote\"back\\slash\ttab", `"escaped name"`},
	{"slash/and~tilde", `"pointer escapes"`},
	{strings.Repeat("very_long_member_name_", 12), `"long name"`},
}

// OddMembers returns the members a property run adds to a tool input
// whose member names are existing, to catch a hook that keeps only the
// names it knows: the names of oddNames, and, for each existing name that
// has a letter, its twin in other case ("Room" for "room", "FILE_PATH"
// for "File_path"), which Go's encoding/json matches to the same struct
// field (the last one wins, so the model's value is lost). Names already
// in existing are left out. Each member's value differs from every other.
func OddMembers(existing []string) []rawjson.Member {
	var ms []rawjson.Member
	taken := map[string]bool{}
	for _, n := range existing {
		taken[n] = true
	}
	add := func(name, value string) {
		if taken[name] {
			return
		}
		taken[name] = true
		q, err := jsontext.AppendQuote(nil, name)
		if err != nil {
			return
		}
		ms = append(ms, rawjson.Member{Key: name, Name: q, Value: []byte(value)})
	}
	for _, o := range oddNames {
		add(o.name, o.value)
	}
	for _, n := range existing {
		t := caseTwin(n)
		if t == "" {
			continue
		}
		v, err := jsontext.AppendQuote(nil, "the case twin of "+n)
		if err == nil {
			add(t, string(v))
		}
	}
	return ms
}

// caseTwin returns name with its first letter in the other case, or,
// when that letter is already a capital, name in capitals, or in small
// letters when it is all capitals; "" when name has no letter.
func caseTwin(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	switch {
	case unicode.IsLower(r):
		return string(unicode.ToUpper(r)) + name[size:]
	case strings.ToUpper(name) != name:
		return strings.ToUpper(name)
	case strings.ToLower(name) != name:
		return strings.ToLower(name)
	}
	return ""
}

// OpenSchema reports whether a call of tool may hold members of any name:
// an MCP tool (mcp__server__tool) takes what its server's schema says,
// while Claude Code checks the input of its own tools against a fixed
// schema before the call. A hook that fails on a member name it does not
// know fails open on such a call.
func OpenSchema(tool string) bool { return strings.HasPrefix(tool, "mcp__") }
