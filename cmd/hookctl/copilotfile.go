package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// The GitHub Copilot CLI's hooks file: {"version": 1, "hooks": {EVENT:
// [{"type": "command", "bash": CMD, "powershell": CMD, "timeoutSec": N},
// …]}}, one flat list of handlers per event, no matcher groups. hookctl
// edits it in place, byte for byte outside the handler it adds or
// removes, as it edits Claude Code's settings.

// jspan is a JSON value's byte range in a file.
type jspan struct{ start, end int }

// jmember is one member of a JSON object: its name, where its name
// starts and its value's span.
type jmember struct {
	name      string
	nameStart int
	value     jspan
}

// jobject returns the members of the object at s in data; an error when
// the value there is not an object.
func jobject(data []byte, s jspan) ([]jmember, error) {
	var ms []jmember
	err := jelements(data, s, '{', func(m jmember) { ms = append(ms, m) })
	return ms, err
}

// jarray returns the spans of the elements of the array at s in data; an
// error when the value there is not an array.
func jarray(data []byte, s jspan) ([]jspan, error) {
	var es []jspan
	err := jelements(data, s, '[', func(m jmember) { es = append(es, m.value) })
	return es, err
}

// jelements calls f with each element of the container at s in data,
// which must be an object (open '{': f gets each member) or an array
// ('[': f gets each element's span as a member without a name).
func jelements(data []byte, s jspan, open jsontext.Kind, f func(jmember)) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data[s.start:s.end]))
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	closing, what := jsontext.Kind('}'), "not an object"
	if open == '[' {
		closing, what = ']', "not an array"
	}
	if tok.Kind() != open {
		return errors.New(what)
	}
	prev := s.start + 1 // where the element's bytes are looked for
	for dec.PeekKind() != closing {
		var m jmember
		if open == '{' {
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			m.name = tok.String() // before the next read voids tok
			m.nameStart = prev + bytes.IndexByte(data[prev:], '"')
		}
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		end := s.start + int(dec.InputOffset())
		m.value = jspan{end - len(v), end}
		f(m)
		prev = end
	}
	return nil
}

// find returns the member name of ms, or false.
func find(ms []jmember, name string) (jmember, bool) {
	for _, m := range ms {
		if m.name == name {
			return m, true
		}
	}
	return jmember{}, false
}

// copilotFile is a Copilot hooks file read for an edit.
type copilotFile struct {
	data  []byte
	root  jspan
	top   []jmember
	hooks *jmember // the "hooks" member, nil when absent
	// events are the members of hooks, and handlers the elements of
	// each event's array.
	events   []jmember
	handlers map[string][]jspan
}

// readCopilotFile reads data as a Copilot hooks file, refusing what
// Copilot does not load: not one JSON object, a version other than 1,
// hooks not an object, an event's value not an array.
func readCopilotFile(data []byte) (*copilotFile, error) {
	f := &copilotFile{data: data, handlers: map[string][]jspan{}}
	if !jsontext.Value(data).IsValid() {
		return nil, errors.New("not valid JSON (or a member name twice)")
	}
	start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	f.root = jspan{start, len(bytes.TrimRight(data, " \t\r\n"))}
	var err error
	if f.top, err = jobject(data, f.root); err != nil {
		return nil, fmt.Errorf("the file must be one JSON object: %v", err)
	}
	if v, ok := find(f.top, "version"); ok && string(data[v.value.start:v.value.end]) != "1" {
		return nil, fmt.Errorf("version %s: Copilot reads version 1", data[v.value.start:v.value.end])
	}
	h, ok := find(f.top, "hooks")
	if !ok {
		return f, nil
	}
	f.hooks = &h
	if f.events, err = jobject(data, h.value); err != nil {
		return nil, fmt.Errorf("hooks: must be an object of events: %v", err)
	}
	for _, ev := range f.events {
		es, err := jarray(data, ev.value)
		if err != nil {
			return nil, fmt.Errorf("hooks.%s: must be an array of handlers: %v", ev.name, err)
		}
		f.handlers[ev.name] = es
	}
	return f, nil
}

// copilotHandler is one handler of a Copilot hooks file, as read.
type copilotHandler struct {
	Type, Bash, PowerShell string
	TimeoutSec             float64
	Raw                    []byte
	Fields                 []string
}

// handler reads the handler at s.
func (f *copilotFile) handler(s jspan) (copilotHandler, error) {
	h := copilotHandler{Raw: f.data[s.start:s.end]}
	ms, err := jobject(f.data, s)
	if err != nil {
		return h, err
	}
	for _, m := range ms {
		h.Fields = append(h.Fields, m.name)
		v := f.data[m.value.start:m.value.end]
		switch m.name {
		case "type", "bash", "powershell":
			tok, err := jsontext.NewDecoder(bytes.NewReader(v)).ReadToken()
			if err != nil || tok.Kind() != '"' {
				return h, fmt.Errorf("%s: must be a string", m.name)
			}
			str := tok.String()
			switch m.name {
			case "type":
				h.Type = str
			case "bash":
				h.Bash = str
			default:
				h.PowerShell = str
			}
		case "timeoutSec":
			n, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return h, errors.New("timeoutSec: must be a number")
			}
			h.TimeoutSec = n
		}
	}
	return h, nil
}

// indentOf returns the indentation of the line that holds offset i.
func indentOf(data []byte, i int) string {
	line := bytes.LastIndexByte(data[:i], '\n') + 1
	j := line
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	return string(data[line:j])
}

// insertInto returns data with text added as the last item of the
// container (an object or an array) at s whose items are items (the span
// of each: a member from its name), laid out as the items already there
// are, or one level deeper than the container's line when it is empty.
func insertInto(data []byte, s jspan, items []jspan, text string) []byte {
	var out []byte
	if len(items) > 0 {
		last := items[len(items)-1]
		sep := string(data[s.start+1 : items[0].start]) // the layout before the first item
		if !strings.Contains(sep, "\n") {
			sep = " "
		}
		out = append(out, data[:last.end]...)
		out = append(out, ","+sep+text...)
		return append(out, data[last.end:]...)
	}
	inner := ""
	if bytes.IndexByte(data, '\n') >= 0 {
		ind := indentOf(data, s.start)
		inner = "\n" + ind + "  " + strings.ReplaceAll(text, "\n", "\n"+ind+"  ") + "\n" + ind
	} else {
		inner = text
	}
	out = append(out, data[:s.start+1]...)
	out = append(out, inner...)
	return append(out, data[s.end-1:]...)
}

// removeFrom returns data without the item i of the container at s whose
// items are items, and the separator that went with it.
func removeFrom(data []byte, s jspan, items []jspan, i int) []byte {
	var from, to int
	switch {
	case len(items) == 1:
		from, to = s.start+1, s.end-1
	case i == 0:
		from, to = items[0].start, items[1].start
	default:
		from, to = items[i-1].end, items[i].end
	}
	out := append([]byte(nil), data[:from]...)
	return append(out, data[to:]...)
}

// memberSpans returns the spans of ms, each from its name.
func memberSpans(ms []jmember) []jspan {
	out := make([]jspan, len(ms))
	for i, m := range ms {
		out[i] = jspan{m.nameStart, m.value.end}
	}
	return out
}

// quoteJSON returns s as a JSON string.
func quoteJSON(s string) string {
	b, _ := jsontext.AppendQuote(nil, s)
	return string(b)
}

// copilotAdd returns data with a command handler for event added: key is
// "bash" or "powershell", cmd the command line, timeout its timeoutSec
// (0: none written). changed is false when the file has that command on
// that event already.
func copilotAdd(data []byte, event, key, cmd string, timeout float64) (out []byte, changed bool, err error) {
	handler := `{"type": "command", ` + quoteJSON(key) + `: ` + quoteJSON(cmd)
	if timeout > 0 {
		handler += `, "timeoutSec": ` + strconv.FormatFloat(timeout, 'f', -1, 64)
	}
	handler += "}"
	if len(bytes.TrimSpace(data)) == 0 {
		return []byte("{\n  \"version\": 1,\n  \"hooks\": {\n    " + quoteJSON(event) + ": [\n      " + handler + "\n    ]\n  }\n}\n"), true, nil
	}
	f, err := readCopilotFile(data)
	if err != nil {
		return data, false, err
	}
	if f.hooks == nil {
		text := `"hooks": {` + quoteJSON(event) + `: [` + handler + `]}`
		return insertInto(data, f.root, memberSpans(f.top), text), true, nil
	}
	ev, ok := find(f.events, event)
	if !ok {
		return insertInto(data, f.hooks.value, memberSpans(f.events), quoteJSON(event)+": ["+handler+"]"), true, nil
	}
	for _, s := range f.handlers[event] {
		h, err := f.handler(s)
		if err == nil && (h.Type == "" || h.Type == "command") && (key == "bash" && h.Bash == cmd || key == "powershell" && h.PowerShell == cmd) {
			return data, false, nil
		}
	}
	return insertInto(data, ev.value, f.handlers[event], handler), true, nil
}

// copilotRemove returns data without the command handlers of event whose
// key ("bash" or "powershell") is cmd, and how many it removed; an event
// left without handlers goes too.
func copilotRemove(data []byte, event, key, cmd string) ([]byte, int, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, 0, nil
	}
	n := 0
	for {
		f, err := readCopilotFile(data)
		if err != nil {
			return data, n, err
		}
		hs := f.handlers[event]
		i := -1
		for j, s := range hs {
			h, err := f.handler(s)
			if err == nil && (h.Type == "" || h.Type == "command") && (key == "bash" && h.Bash == cmd || key == "powershell" && h.PowerShell == cmd) {
				i = j
				break
			}
		}
		if i < 0 {
			return data, n, nil
		}
		n++
		if len(hs) > 1 {
			ev, _ := find(f.events, event)
			data = removeFrom(data, ev.value, hs, i)
			continue
		}
		k := 0
		for j, ev := range f.events {
			if ev.name == event {
				k = j
			}
		}
		data = removeFrom(data, f.hooks.value, memberSpans(f.events), k)
	}
}

// lineCol returns the line and column (from 1) of offset i in data.
func lineCol(data []byte, i int) (int, int) {
	line := bytes.Count(data[:i], []byte("\n")) + 1
	return line, i - (bytes.LastIndexByte(data[:i], '\n') + 1) + 1
}
