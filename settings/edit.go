package settings

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Add returns data with the entry e registered: the handler appended to the
// first group of e.Event whose matcher is e.Matcher (a new group, event or
// "hooks" object when there is none). Every byte outside what is added stays
// as it was, and what is added is laid out in the file's own style
// (indentation, line endings, spacing after colons).
//
// Adding is idempotent: when the same registration (see [Handler.Same]) is
// already there with the options e sets, Add returns data unchanged and
// false. When it is there with other values of them (a new timeout, say),
// those members alone are changed in place; an option e leaves unset keeps
// the file's value. [Remove] of an entry Add added gives
// back the original bytes, provided the file held no empty "hooks" object
// or empty event array on the way (those are removed once emptied) and
// was not empty; [RemoveKeeping], given what [Containers] reported before
// Add, gives them back in every case.
//
// An empty file reads as an empty object. A file that is not valid JSON, or
// whose hooks have the wrong shape, is a *SyntaxError; data is not changed.
func Add(data []byte, e Entry) ([]byte, bool, error) {
	if err := e.check(); err != nil {
		return data, false, err
	}
	t, err := parseTree(data)
	if err != nil {
		return data, false, err
	}
	orig := data
	if t.root == nil {
		// An empty file: give it an object to add to.
		if t, err = parseTree(skeleton(data)); err != nil {
			return orig, false, err
		}
	}
	st := detectStyle(t.data, t.root)
	for i, h := range t.list {
		if h.Event != e.Event || h.Matcher != e.Matcher || !h.Handler.Same(e.Handler) {
			continue
		}
		if h.Handler.hasOptions(e.Handler) {
			return orig, false, nil
		}
		return updateOptions(t, i, e.Handler, st), true, nil
	}
	group := obj{}
	if e.Matcher != "" {
		group = append(group, kv{"matcher", e.Matcher})
	}
	group = append(group, kv{"hooks", arr{handlerValue(e.Handler)}})
	if t.hooks == nil {
		return insertChild(t.data, t.root, "hooks", obj{{e.Event, arr{group}}}, st), true, nil
	}
	events, _ := t.hooks.get(e.Event)
	if events == nil {
		return insertChild(t.data, t.hooks, e.Event, arr{group}, st), true, nil
	}
	for _, g := range events.elems {
		m, _ := g.get("matcher")
		hs, _ := g.get("hooks")
		if (m == nil && e.Matcher == "" || m != nil && m.str == e.Matcher) && len(hs.elems) > 0 {
			return insertChild(t.data, hs, "", handlerValue(e.Handler), st), true, nil
		}
	}
	return insertChild(t.data, events, "", group, st), true, nil
}

// Remove returns data without the registrations of e (every handler of
// e.Event under the matcher e.Matcher that is [Handler.Same] as
// e.Handler, whatever its options), and how many it removed. A matcher
// group, event array or "hooks" object left empty by the removal is
// removed too, unless the group holds members other than "matcher" and
// "hooks". Every other byte stays as it was.
func Remove(data []byte, e Entry) ([]byte, int, error) {
	n := 0
	for {
		t, err := parseTree(data)
		if err != nil {
			return data, n, err
		}
		i := slicesIndexFunc(t.list, func(h Hook) bool {
			return h.Event == e.Event && h.Matcher == e.Matcher && h.Handler.Same(e.Handler)
		})
		if i < 0 {
			return data, n, nil
		}
		data = removeHandler(t, i)
		n++
	}
}

func slicesIndexFunc(hs []Hook, f func(Hook) bool) int {
	for i, h := range hs {
		if f(h) {
			return i
		}
	}
	return -1
}

// removeHandler removes the i'th handler of t and the containers it leaves
// empty.
func removeHandler(t *tree, i int) []byte {
	at := t.at[i]
	if len(at.hooks.elems) > 1 {
		return removeChild(t.data, at.hooks, at.idx)
	}
	for _, m := range at.group.members {
		if m.key != "matcher" && m.key != "hooks" {
			return removeChild(t.data, at.hooks, at.idx)
		}
	}
	if len(at.event.elems) > 1 {
		return removeChild(t.data, at.event, at.groupIdx)
	}
	_, ei := t.hooks.get(t.list[i].Event)
	if len(t.hooks.members) > 1 {
		return removeChild(t.data, t.hooks, ei)
	}
	_, hi := t.root.get("hooks")
	return removeChild(t.data, t.root, hi)
}

// updateOptions sets the options that h sets on the i'th handler of t,
// member by member: a changed member's value is replaced, a new one
// appended; every other member keeps its bytes.
func updateOptions(t *tree, i int, h Handler, st style) []byte {
	data := t.data
	for _, f := range options {
		want := f.get(h)
		if want == nil || sameValue(f.get(t.list[i].Handler), want) {
			continue
		}
		n := t.at[i].handler
		v, _ := n.get(f.key)
		switch {
		case v != nil:
			data = splice(data, v.start, v.end, render(nil, want, "", st, false))
		default:
			data = insertChild(data, n, f.key, want, st)
		}
		var err error
		if t, err = parseTree(data); err != nil { // cannot happen: we wrote valid JSON
			panic("settings: an edit made invalid JSON: " + err.Error())
		}
	}
	return data
}

// insertChild returns data with v appended to the object or array c (as
// member key of an object), laid out like c's last child, or, when c is
// empty, one level deeper than the line c starts on.
func insertChild(data []byte, c *node, key string, v any, st style) []byte {
	var text []byte
	write := func(indent string, multiline bool) {
		if c.kind == '{' {
			text, _ = jsontext.AppendQuote(text, key)
			text = append(text, st.colon...)
		}
		text = render(text, v, indent, st, multiline)
	}
	if n := c.len(); n > 0 {
		start, end := c.child(n - 1)
		lead := leadOf(data, start)
		multiline := strings.Contains(lead, "\n")
		if !multiline {
			st.space = lead // as the items around it are spaced
			if n == 1 {
				// Nothing is between the items yet: space them as the
				// one there spaces its own.
				st.space = innerSpace(data, c, lead)
			}
			lead = st.space
		}
		text = append(text, ',')
		text = append(text, lead...)
		indent := lineIndent(data, start)
		write(indent, multiline && !st.compact)
		return splice(data, end, end, text)
	}
	if st.compact {
		write("", false)
		return splice(data, c.start+1, c.end-1, text)
	}
	indent := lineIndent(data, c.start)
	text = append(text, st.nl...)
	text = append(text, indent+st.unit...)
	write(indent+st.unit, true)
	text = append(text, st.nl...)
	text = append(text, indent...)
	return splice(data, c.start+1, c.end-1, text)
}

// removeChild returns data without the i'th child of the object or array
// c and the separator that went with it.
func removeChild(data []byte, c *node, i int) []byte {
	n := c.len()
	switch {
	case n == 1:
		return splice(data, c.start+1, c.end-1, nil)
	case i > 0:
		_, prevEnd := c.child(i - 1)
		_, end := c.child(i)
		return splice(data, prevEnd, end, nil)
	default:
		start, _ := c.child(0)
		next, _ := c.child(1)
		return splice(data, start, next, nil)
	}
}

// splice returns a copy of data with data[start:end] replaced by text.
func splice(data []byte, start, end int, text []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// check reports an entry that cannot be written.
func (e Entry) check() error {
	h := e.Handler
	switch {
	case e.Event == "":
		return errors.New("settings: no event")
	case h.kind() != TypeCommand:
		if !validNumber(h.Timeout) || h.Timeout < 0 {
			return fmt.Errorf("settings: timeout %v is not a positive number of seconds", h.Timeout)
		}
		if !utf8.ValidString(e.Event) || !utf8.ValidString(e.Matcher) {
			return fmt.Errorf("settings: %q is not valid UTF-8", e.Event+" "+e.Matcher)
		}
		return checkTyped(h)
	case h.Command == "":
		return errors.New("settings: the handler has no command")
	case !validNumber(h.Timeout) || h.Timeout < 0:
		return fmt.Errorf("settings: timeout %v is not a positive number of seconds", h.Timeout)
	case h.Shell != "" && h.Shell != "bash" && h.Shell != "powershell":
		return fmt.Errorf(`settings: shell %q is neither "bash" nor "powershell"`, h.Shell)
	case h.OnFailure != "" && h.OnFailure != "continue" && h.OnFailure != "block":
		return fmt.Errorf(`settings: onFailure %q is neither "continue" nor "block"`, h.OnFailure)
	}
	for _, s := range append([]string{e.Event, e.Matcher, h.Command, h.If, h.StatusMessage}, h.Args...) {
		if !utf8.ValidString(s) {
			return fmt.Errorf("settings: %q is not valid UTF-8", s)
		}
	}
	return checkMembers(h)
}
