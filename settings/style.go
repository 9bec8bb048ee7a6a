package settings

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// style is how a file is laid out, so that what this package writes looks
// like what was there: the line ending, one level of indentation and the
// spacing after a member's colon. A file on one line is compact.
type style struct {
	nl      string // "\n" or "\r\n"
	unit    string // one level of indentation ("  ", "    ", "\t")
	colon   string // ":" or ": "
	compact bool   // the top-level object is on one line
	space   string // after a comma, in what is written on one line
}

// detectStyle reads the style of data, whose top-level object is root.
// A file with nothing to go by gets the style of Claude Code's own
// JSON.stringify(settings, null, 2).
func detectStyle(data []byte, root *node) style {
	st := style{nl: "\n", unit: "  ", colon: ": "}
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if root == nil || root.kind != '{' || len(root.members) == 0 {
		return st
	}
	first := root.members[0]
	if c := data[stringEnd(data, first.nameStart):first.val.start]; !bytes.ContainsAny(c, "\r\n") {
		st.colon = string(c)
	}
	lead := leadOf(data, first.nameStart)
	i := strings.LastIndexByte(lead, '\n')
	if i < 0 {
		st.compact = true
		return st
	}
	if ind := lead[i+1:]; ind != "" {
		st.unit = strings.TrimPrefix(ind, lineIndent(data, root.start))
		if st.unit == "" {
			st.unit = ind
		}
	}
	return st
}

// stringEnd returns the offset just past the JSON string that starts at
// start.
func stringEnd(data []byte, start int) int {
	for i := start + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// leadOf returns the whitespace just before offset off.
func leadOf(data []byte, off int) string {
	i := off
	for i > 0 && isSpace(data[i-1]) {
		i--
	}
	return string(data[i:off])
}

// lineIndent returns the whitespace that begins the line holding offset off.
func lineIndent(data []byte, off int) string {
	i := bytes.LastIndexByte(data[:off], '\n') + 1
	j := i
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	return string(data[i:j])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// obj is an object to write, its members in order; arr an array.
type (
	obj []kv
	kv  struct {
		k string
		v any // string, float64, bool, obj, arr
	}
	arr []any
)

// render appends v written in style st to dst, its lines after the first
// indented by indent (the indentation of the line v starts on); multiline
// false writes it on one line.
func render(dst []byte, v any, indent string, st style, multiline bool) []byte {
	sep := func(inner string) {
		if multiline {
			dst = append(dst, st.nl...)
			dst = append(dst, inner...)
		}
	}
	switch v := v.(type) {
	case string:
		dst, _ = jsontext.AppendQuote(dst, v) // checked valid UTF-8 before
	case float64:
		dst = strconv.AppendFloat(dst, v, 'f', -1, 64)
	case bool:
		dst = strconv.AppendBool(dst, v)
	case lit:
		dst = append(dst, v...)
	case obj:
		dst = append(dst, '{')
		for i, m := range v {
			if i > 0 {
				dst = append(dst, ',')
				if !multiline {
					dst = append(dst, st.space...)
				}
			}
			sep(indent + st.unit)
			dst, _ = jsontext.AppendQuote(dst, m.k)
			dst = append(dst, st.colon...)
			dst = render(dst, m.v, indent+st.unit, st, multiline)
		}
		if len(v) > 0 {
			sep(indent)
		}
		dst = append(dst, '}')
	case arr:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
				if !multiline {
					dst = append(dst, st.space...)
				}
			}
			sep(indent + st.unit)
			dst = render(dst, e, indent+st.unit, st, multiline)
		}
		if len(v) > 0 {
			sep(indent)
		}
		dst = append(dst, ']')
	}
	return dst
}

// handlerValue is the object written for a handler: its fields in the
// order of the client's schema, those at their zero value left out.
func handlerValue(h Handler) obj {
	if h.kind() != TypeCommand {
		return typedHandlerValue(h)
	}
	o := obj{{"type", "command"}, {"command", h.Command}}
	if h.Args != nil {
		a := make(arr, len(h.Args))
		for i, s := range h.Args {
			a[i] = s
		}
		o = append(o, kv{"args", a})
	}
	if h.If != "" {
		o = append(o, kv{"if", h.If})
	}
	if h.Shell != "" {
		o = append(o, kv{"shell", h.Shell})
	}
	return append(o, optionValues(h)...)
}

// optionValues are the handler's options that are set, in schema order.
func optionValues(h Handler) obj {
	var o obj
	for _, f := range options {
		if !takesOption(h.kind(), f.key) {
			continue
		}
		if v := f.get(h); v != nil {
			o = append(o, kv{f.key, v})
		}
	}
	return o
}

// options are the handler fields that an install may change in place.
var options = []struct {
	key string
	get func(Handler) any // nil when unset
}{
	{"timeout", func(h Handler) any { return nonZero(h.Timeout != 0, h.Timeout) }},
	{"onFailure", func(h Handler) any { return nonZero(h.OnFailure != "", h.OnFailure) }},
	{"statusMessage", func(h Handler) any { return nonZero(h.StatusMessage != "", h.StatusMessage) }},
	{"async", func(h Handler) any { return nonZero(h.Async, true) }},
	{"asyncRewake", func(h Handler) any { return nonZero(h.AsyncRewake, true) }},
	{"headers", headersValue},
	{"allowedEnvVars", func(h Handler) any { return stringsValue(h.AllowedEnvVars) }},
	{"input", inputValue},
	{"model", func(h Handler) any { return nonZero(h.Model != "", h.Model) }},
	{"continueOnBlock", func(h Handler) any { return nonZero(h.ContinueOnBlock, true) }},
}

func nonZero(set bool, v any) any {
	if !set {
		return nil
	}
	return v
}

// validNumber reports whether f can be written as a JSON number.
func validNumber(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
