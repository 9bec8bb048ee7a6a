package settings

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Handler types of Claude Code 2.1.336 (the SDK's settings type, wire-format
// spec §10).
const (
	TypeCommand = "command"
	TypeHTTP    = "http"
	TypeMCPTool = "mcp_tool"
	TypePrompt  = "prompt"
	TypeAgent   = "agent"
)

// Header is one header of an http handler. Its Value may reference
// environment variables as $NAME or ${NAME}; Claude Code fills in only the
// names listed in the handler's AllowedEnvVars (and allowed by the
// httpHookAllowedEnvVars setting) and sends the others empty.
type Header struct {
	Name, Value string
}

// handlerFields are the members of each handler type, in schema order.
var handlerFields = map[string][]string{
	TypeCommand: {"type", "command", "args", "if", "shell", "timeout", "onFailure", "statusMessage", "once", "async", "asyncRewake"},
	TypePrompt:  {"type", "prompt", "if", "timeout", "model", "continueOnBlock", "statusMessage", "once"},
	TypeAgent:   {"type", "prompt", "if", "timeout", "model", "statusMessage", "once"},
	TypeHTTP:    {"type", "url", "if", "timeout", "onFailure", "headers", "allowedEnvVars", "statusMessage", "once"},
	TypeMCPTool: {"type", "server", "tool", "input", "if", "timeout", "onFailure", "statusMessage", "once"},
}

// sameIdentity reports whether h and o (of the same type) name the same
// thing to run: the command and its form for a command handler, the URL of
// an http handler, the server and tool of an mcp_tool handler, the prompt
// of a prompt or agent handler.
func sameIdentity(h, o Handler) bool {
	switch h.kind() {
	case TypeHTTP:
		return h.URL == o.URL
	case TypeMCPTool:
		return h.Server == o.Server && h.Tool == o.Tool
	case TypePrompt, TypeAgent:
		return h.Prompt == o.Prompt
	}
	return h.Command == o.Command && (h.Args == nil) == (o.Args == nil) &&
		slices.Equal(h.Args, o.Args) && h.Shell == o.Shell &&
		h.URL == o.URL && h.Prompt == o.Prompt
}

// readExtra reads the members of the http, mcp_tool, prompt and agent
// handlers into h; it reports whether key is one of them.
func readExtra(data []byte, h *Handler, key string, v *node, bad func(v *node, key, want string)) bool {
	switch key {
	case "headers":
		if v.kind != '{' {
			bad(v, key, "an object of strings")
			return true
		}
		h.Headers = []Header{}
		for _, m := range v.members {
			if m.val.kind != '"' {
				bad(m.val, "headers."+m.key, "a string")
				continue
			}
			h.Headers = append(h.Headers, Header{Name: m.key, Value: m.val.str})
		}
	case "allowedEnvVars":
		if v.kind != '[' {
			bad(v, key, "an array of strings")
			return true
		}
		h.AllowedEnvVars = []string{}
		for _, e := range v.elems {
			if e.kind != '"' {
				bad(e, "allowedEnvVars[]", "a string")
				continue
			}
			h.AllowedEnvVars = append(h.AllowedEnvVars, e.str)
		}
	case "server", "tool", "model":
		if v.kind != '"' {
			bad(v, key, "a string")
			return true
		}
		switch key {
		case "server":
			h.Server = v.str
		case "tool":
			h.Tool = v.str
		default:
			h.Model = v.str
		}
	case "input":
		if v.kind != '{' {
			bad(v, key, "an object")
			return true
		}
		h.Input = jsontext.Value(bytes.Clone(data[v.start:v.end]))
	case "continueOnBlock":
		if v.kind != 't' && v.kind != 'f' {
			bad(v, key, "true or false")
			return true
		}
		h.ContinueOnBlock = v.kind == 't'
	default:
		return false
	}
	return true
}

// typedHandlerValue is the object written for a handler that is not a
// command handler, its members in the order of the SDK's settings type.
func typedHandlerValue(h Handler) obj {
	o := obj{{"type", h.kind()}}
	for _, k := range handlerFields[h.kind()][1:] {
		var v any
		switch k {
		case "url":
			v = h.URL
		case "server":
			v = h.Server
		case "tool":
			v = h.Tool
		case "prompt":
			v = h.Prompt
		case "if":
			v = nonZero(h.If != "", h.If)
		default:
			v = optionValue(h, k)
		}
		if v != nil {
			o = append(o, kv{k, v})
		}
	}
	return o
}

// optionValue is the value of the option key of h, nil when unset.
func optionValue(h Handler, key string) any {
	for _, f := range options {
		if f.key == key {
			return f.get(h)
		}
	}
	return nil
}

// takesOption reports whether a handler of type typ has the option key.
func takesOption(typ, key string) bool {
	return slices.Contains(handlerFields[typ], key)
}

// sameValue reports whether two option values are equal as JSON.
func sameValue(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	st := style{colon: ":"}
	return bytes.Equal(render(nil, a, "", st, false), render(nil, b, "", st, false))
}

// headersValue is the headers object of h, nil when it has none.
func headersValue(h Handler) any {
	if h.Headers == nil {
		return nil
	}
	o := obj{}
	for _, hd := range h.Headers {
		o = append(o, kv{hd.Name, hd.Value})
	}
	return o
}

// stringsValue is a to write, nil when a is nil.
func stringsValue(a []string) any {
	if a == nil {
		return nil
	}
	v := make(arr, len(a))
	for i, s := range a {
		v[i] = s
	}
	return v
}

// inputValue is the input object of an mcp_tool handler as a value to
// write (kept member for member, numbers as written), nil when unset or
// not an object.
func inputValue(h Handler) any {
	if len(h.Input) == 0 {
		return nil
	}
	n, err := parse(h.Input)
	if err != nil || n == nil || n.kind != '{' {
		return nil
	}
	return nodeValue(h.Input, n)
}

// nodeValue turns a parsed JSON value into one render writes.
func nodeValue(data []byte, n *node) any {
	switch n.kind {
	case '{':
		o := obj{}
		for _, m := range n.members {
			o = append(o, kv{m.key, nodeValue(data, m.val)})
		}
		return o
	case '[':
		a := arr{}
		for _, e := range n.elems {
			a = append(a, nodeValue(data, e))
		}
		return a
	case '"':
		return n.str
	}
	return lit(data[n.start:n.end])
}

// lit is a JSON number, true, false or null written as it is.
type lit string

// checkTyped reports a handler of type http, mcp_tool, prompt or agent
// that cannot be written: a missing identifying field, or a member of
// another type set.
func checkTyped(h Handler) error {
	typ := h.kind()
	if _, ok := handlerFields[typ]; !ok {
		return fmt.Errorf(`settings: unknown handler type %q (Claude Code 2.1.336 has "command", "http", "mcp_tool", "prompt" and "agent")`, h.Type)
	}
	switch typ {
	case TypeHTTP:
		if h.URL == "" {
			return errors.New("settings: the http handler has no url")
		}
	case TypeMCPTool:
		if h.Server == "" || h.Tool == "" {
			return errors.New("settings: the mcp_tool handler needs a server and a tool")
		}
		if len(h.Input) > 0 {
			n, err := parse(h.Input)
			if err != nil || n == nil || n.kind != '{' {
				return errors.New("settings: the mcp_tool input must be one JSON object")
			}
		}
	case TypePrompt, TypeAgent:
		if h.Prompt == "" {
			return fmt.Errorf("settings: the %s handler has no prompt", typ)
		}
	}
	return checkMembers(h)
}

// checkMembers reports a member set on h that its type does not have, an
// onFailure other than "continue" and "block", and text that is not UTF-8.
func checkMembers(h Handler) error {
	typ := h.kind()
	fields := handlerFields[typ]
	set := map[string]bool{
		"command": h.Command != "", "args": h.Args != nil, "shell": h.Shell != "", "url": h.URL != "",
		"server": h.Server != "", "tool": h.Tool != "", "input": len(h.Input) > 0, "prompt": h.Prompt != "",
		"onFailure": h.OnFailure != "", "async": h.Async, "asyncRewake": h.AsyncRewake, "model": h.Model != "",
		"continueOnBlock": h.ContinueOnBlock, "headers": h.Headers != nil, "allowedEnvVars": h.AllowedEnvVars != nil,
	}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if set[k] && !slices.Contains(fields, k) {
			return fmt.Errorf("settings: a %s handler has no %q (it has %s)", typ, k, strings.Join(fields[1:], ", "))
		}
	}
	if h.OnFailure != "" && h.OnFailure != "continue" && h.OnFailure != "block" {
		return fmt.Errorf(`settings: onFailure %q is neither "continue" nor "block"`, h.OnFailure)
	}
	strs := []string{h.URL, h.Server, h.Tool, h.Prompt, h.Model, h.StatusMessage, h.If}
	strs = append(strs, h.AllowedEnvVars...)
	for _, hd := range h.Headers {
		strs = append(strs, hd.Name, hd.Value)
	}
	for _, s := range strs {
		if !utf8.ValidString(s) {
			return fmt.Errorf("settings: %q is not valid UTF-8", s)
		}
	}
	return nil
}

// innerSpace is the spacing after a comma to use beside the only child of
// c, which is on one line: the spacing between that child's own members
// or elements when it has several on one line, else def.
func innerSpace(data []byte, c *node, def string) string {
	only := c.elems
	if c.kind == '{' {
		only = []*node{c.members[0].val}
	}
	if len(only) != 1 || only[0].len() < 2 {
		return def
	}
	start, _ := only[0].child(1)
	if sp := leadOf(data, start); !strings.ContainsAny(sp, "\r\n") {
		return sp
	}
	return def
}
