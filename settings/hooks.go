package settings

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Handler is one hook handler as Claude Code 2.1.336 reads it from a
// settings file or a plugin's hooks/hooks.json (wire-format spec §10):
// a command, http, mcp_tool, prompt or agent handler. Each type has the
// members the SDK's settings type declares for it; a member
// of another type is refused when the handler is written.
type Handler struct {
	// Type is "command", "http", "mcp_tool", "prompt" or "agent". An empty
	// Type is written as "command".
	Type string
	// Command is the shell command line, or, when Args is non-nil, the
	// executable that is started with Args and no shell (exec form).
	Command string
	// Args are the arguments of the exec form; nil means the shell form.
	// Claude Code substitutes ${CLAUDE_PLUGIN_ROOT} and the other path
	// placeholders in each element, and never runs a shell on them.
	Args []string
	// If is a permission rule such as "Bash(git *)" that narrows the tool
	// calls the handler runs for.
	If string
	// Shell is "bash" or "powershell"; empty means the client's default.
	Shell string
	// Timeout is in seconds (not milliseconds); 0 means the client's
	// default (600 s for most events).
	Timeout float64
	// OnFailure is "continue" (the default) or "block".
	OnFailure string
	// StatusMessage is shown in the spinner while the hook runs.
	StatusMessage string
	// Async runs the hook in the background; AsyncRewake also wakes the
	// model when it exits 2.
	Async, AsyncRewake bool
	// URL is the address an http handler POSTs the hook's input to.
	URL string
	// Headers are the http handler's extra headers, in order; AllowedEnvVars
	// the environment variables their values may reference.
	Headers        []Header
	AllowedEnvVars []string
	// Server and Tool name the MCP tool an mcp_tool handler calls, and
	// Input is the arguments object passed to it (its string values may
	// hold ${path} references into the hook's input).
	Server, Tool string
	Input        jsontext.Value
	// Prompt is the prompt of a prompt or agent handler, and Model the
	// model that evaluates it (empty: the client's default).
	Prompt, Model string
	// ContinueOnBlock sets "continue" on the block a prompt handler
	// produces when it answers ok: false.
	ContinueOnBlock bool
}

// kind returns the handler's type, "command" when unset.
func (h Handler) kind() string {
	if h.Type == "" {
		return "command"
	}
	return h.Type
}

// Same reports whether h and o are the same registration: the same type
// and "if" rule, and the same thing to run: for a command handler the
// command, its exec-form arguments and shell; for http the url; for
// mcp_tool the server and tool; for prompt and agent the prompt. The
// options (timeout, onFailure, statusMessage, async, headers, model, ...)
// may differ.
func (h Handler) Same(o Handler) bool {
	return h.kind() == o.kind() && h.If == o.If && sameIdentity(h, o)
}

// hasOptions reports whether h already has every option that o sets.
func (h Handler) hasOptions(o Handler) bool {
	for _, f := range options {
		if want := f.get(o); want != nil && !sameValue(f.get(h), want) {
			return false
		}
	}
	return true
}

// String returns what the handler runs, for people: the command line of
// a command handler (the exec form's arguments quoted as a POSIX shell
// reads them, so a Windows path shows as it is written), the URL of an
// http handler, the server and tool of an mcp_tool handler, and the
// prompt of a prompt or agent handler.
func (h Handler) String() string {
	switch h.kind() {
	case "http":
		return "http " + h.URL
	case "mcp_tool":
		return "mcp_tool " + h.Server + " " + h.Tool
	case "prompt", "agent":
		return h.kind() + " " + strconv.Quote(h.Prompt)
	}
	if h.Args == nil {
		return h.Command
	}
	s := quoteArg(h.Command)
	for _, a := range h.Args {
		s += " " + quoteArg(a)
	}
	return s
}

// quoteArg returns a as it is when it holds only printable ASCII without
// spaces, quotes or backslashes (placeholders such as
// ${CLAUDE_PLUGIN_ROOT} stay as written), in single quotes, as a POSIX
// shell reads them, when it holds spaces, quotes, backslashes or non-ASCII
// text (so a
// Windows path reads as it is written: 'C:\Tools\hook.exe'), and as a Go
// quoted string when it holds control characters or invalid UTF-8, which
// no quoting shows.
func quoteArg(a string) string {
	if a == "" {
		return "''"
	}
	plain := true
	for _, r := range a {
		switch {
		case r < ' ' || r == 0x7f || r == utf8.RuneError || (r >= 0x80 && r < 0xa0):
			return strconv.Quote(a)
		case r <= ' ' || strings.ContainsRune("\"'\\`", r) || r > '~':
			plain = false
		}
	}
	if plain {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// Hook is one handler registered in a file, where Claude Code finds it.
type Hook struct {
	Event   string // the event, as in hook_event_name
	Matcher string // the group's matcher; "" when it has none
	Handler Handler
	// Line and Column locate the handler's object in the file (from 1).
	Line, Column int
	// Group and Index are the handler's place: the Group'th matcher group
	// of the event, the Index'th handler of its "hooks" (from 0).
	Group, Index int
	// Raw is the handler's object exactly as written.
	Raw jsontext.Value
	// Fields are the names of the handler's members, in order.
	Fields []string
	// Problems lists fields of the handler that Claude Code would refuse
	// (a timeout that is not a number, an unknown shell, ...), each with
	// its line and column.
	Problems []string
}

// Entry is a handler to install in (or remove from) a file: Handler under
// the matcher group Matcher of Event.
type Entry struct {
	Event   string
	Matcher string
	Handler Handler
}

// tree is a parsed file: the top-level object and where its hooks are.
type tree struct {
	data  []byte
	root  *node // nil for an empty file
	hooks *node // the "hooks" object, nil when absent
	list  []Hook
	at    []handlerAt // the handlers' nodes, parallel to list
}

type handlerAt struct {
	event, group, hooks, handler *node
	groupIdx, idx                int
}

// Parse reads the hooks of a settings file or a plugin hooks.json. A file
// that is not one JSON object, or whose "hooks" is not an object of event
// arrays of matcher groups, each with a "hooks" array of handler objects,
// is a *SyntaxError naming the line and column. An empty file has no hooks.
func Parse(data []byte) ([]Hook, error) {
	t, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	return t.list, nil
}

func parseTree(data []byte) (*tree, error) {
	root, err := parse(data)
	if err != nil {
		return nil, err
	}
	t := &tree{data: data, root: root}
	if root == nil {
		return t, nil
	}
	if root.kind != '{' {
		return nil, errorAt(data, root.start, "the file must hold one JSON object, found %s", kindName(root.kind))
	}
	hooks, _ := root.get("hooks")
	if hooks == nil {
		return t, nil
	}
	if hooks.kind != '{' {
		return nil, errorAt(data, hooks.start, `"hooks" must be an object of events, found %s`, kindName(hooks.kind))
	}
	t.hooks = hooks
	for _, ev := range hooks.members {
		arr := ev.val
		if arr.kind != '[' {
			return nil, errorAt(data, arr.start, "hooks.%s must be an array of matcher groups, found %s", ev.key, kindName(arr.kind))
		}
		for gi, g := range arr.elems {
			if g.kind != '{' {
				return nil, errorAt(data, g.start, "hooks.%s[%d] must be a matcher group object, found %s", ev.key, gi, kindName(g.kind))
			}
			matcher := ""
			if m, _ := g.get("matcher"); m != nil {
				if m.kind != '"' {
					return nil, errorAt(data, m.start, "hooks.%s[%d].matcher must be a string, found %s", ev.key, gi, kindName(m.kind))
				}
				matcher = m.str
			}
			hs, _ := g.get("hooks")
			if hs == nil {
				return nil, errorAt(data, g.start, `hooks.%s[%d] has no "hooks" array of handlers`, ev.key, gi)
			}
			if hs.kind != '[' {
				return nil, errorAt(data, hs.start, "hooks.%s[%d].hooks must be an array of handlers, found %s", ev.key, gi, kindName(hs.kind))
			}
			for hi, h := range hs.elems {
				if h.kind != '{' {
					return nil, errorAt(data, h.start, "hooks.%s[%d].hooks[%d] must be a handler object, found %s", ev.key, gi, hi, kindName(h.kind))
				}
				line, col := position(data, h.start)
				hk := Hook{Event: ev.key, Matcher: matcher, Line: line, Column: col, Group: gi, Index: hi,
					Raw: jsontext.Value(data[h.start:h.end])}
				hk.Handler, hk.Problems = readHandler(data, h)
				for _, m := range h.members {
					hk.Fields = append(hk.Fields, m.key)
				}
				t.list = append(t.list, hk)
				t.at = append(t.at, handlerAt{event: arr, group: g, hooks: hs, handler: h, groupIdx: gi, idx: hi})
			}
		}
	}
	return t, nil
}

// readHandler reads the fields of a handler object. A field of the wrong
// type is left at its zero value and reported as a problem.
func readHandler(data []byte, n *node) (Handler, []string) {
	var h Handler
	var probs []string
	bad := func(v *node, key, want string) {
		line, col := position(data, v.start)
		probs = append(probs, fmt.Sprintf("%d:%d: %q must be %s, found %s", line, col, key, want, kindName(v.kind)))
	}
	str := func(v *node, key string, dst *string) {
		if v.kind != '"' {
			bad(v, key, "a string")
			return
		}
		*dst = v.str
	}
	boolean := func(v *node, key string, dst *bool) {
		if v.kind != 't' && v.kind != 'f' {
			bad(v, key, "true or false")
			return
		}
		*dst = v.kind == 't'
	}
	for _, m := range n.members {
		v := m.val
		switch m.key {
		case "type":
			str(v, m.key, &h.Type)
		case "command":
			str(v, m.key, &h.Command)
		case "args":
			if v.kind != '[' {
				bad(v, m.key, "an array of strings")
				continue
			}
			h.Args = []string{}
			for _, e := range v.elems {
				if e.kind != '"' {
					bad(e, "args[]", "a string")
					continue
				}
				h.Args = append(h.Args, e.str)
			}
		case "if":
			str(v, m.key, &h.If)
		case "shell":
			str(v, m.key, &h.Shell)
		case "timeout":
			if v.kind != '0' {
				bad(v, m.key, "a number of seconds")
				continue
			}
			f, err := strconv.ParseFloat(string(data[v.start:v.end]), 64)
			if err != nil {
				bad(v, m.key, "a number of seconds")
				continue
			}
			h.Timeout = f
		case "onFailure":
			str(v, m.key, &h.OnFailure)
		case "statusMessage":
			str(v, m.key, &h.StatusMessage)
		case "async":
			boolean(v, m.key, &h.Async)
		case "asyncRewake":
			boolean(v, m.key, &h.AsyncRewake)
		case "url":
			str(v, m.key, &h.URL)
		case "prompt":
			str(v, m.key, &h.Prompt)
		default:
			readExtra(data, &h, m.key, v, bad)
		}
	}
	return h, probs
}

// kindName names a JSON kind for messages.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "nothing"
}

// Key is one top-level member of a file, where it is.
type Key struct {
	Name         string
	Line, Column int // of the member's name, from 1
}

// Keys returns the top-level members of a settings or hooks.json file, in
// order; an empty file has none. It is for diagnostics such as an event
// written at the top level instead of inside "hooks".
func Keys(data []byte) ([]Key, error) {
	root, err := parse(data)
	if err != nil || root == nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, errorAt(data, root.start, "the file must hold one JSON object, found %s", kindName(root.kind))
	}
	ks := make([]Key, len(root.members))
	for i, m := range root.members {
		ks[i].Name = m.key
		ks[i].Line, ks[i].Column = position(data, m.nameStart)
	}
	return ks, nil
}
