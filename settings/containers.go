package settings

import (
	"bytes"
)

// Levels of the containers an entry goes into: the file itself, its
// top-level object, the "hooks" object and the event's array.
const (
	LevelFile  = "file"
	LevelRoot  = "root"
	LevelHooks = "hooks"
	LevelEvent = "event"
)

// What Add finds of a container (Container.Found).
const (
	FoundMissing = "missing" // not there: Add creates it (for the file: no file)
	FoundEmpty   = "empty"   // there and empty (for the file: no JSON value, only whitespace)
	FoundFull    = "full"    // there with members (for the file: a JSON object)
)

// Container is one of the containers an entry goes into, as [Add] finds
// it. [Remove] cannot tell from the bytes whether a container it empties
// was there, empty, before Add filled it, or was made by Add (nor whether
// the file existed): a caller that wants the exact inverse of Add keeps
// what [Containers] reported before Add and gives it to [RemoveKeeping].
type Container struct {
	Level string // LevelFile, LevelRoot, LevelHooks or LevelEvent
	Event string // the event, for LevelEvent
	Found string // FoundMissing, FoundEmpty or FoundFull
	// Inner is what an empty container held between its brackets (only
	// whitespace); for an empty file, its bytes.
	Inner string
}

// Containers returns the containers e goes into in data, from the file
// down to e.Event's array, as Add(data, e) finds them. data is nil for a
// file that does not exist.
func Containers(data []byte, e Entry) ([]Container, error) {
	t, err := parseTree(data)
	if err != nil {
		return nil, err
	}
	out := make([]Container, 0, 4)
	add := func(level, event, found, inner string) {
		out = append(out, Container{Level: level, Event: event, Found: found, Inner: inner})
	}
	switch {
	case data == nil:
		add(LevelFile, "", FoundMissing, "")
	case t.root == nil:
		add(LevelFile, "", FoundEmpty, string(data))
	default:
		add(LevelFile, "", FoundFull, "")
	}
	state := func(level, event string, n *node) {
		switch {
		case n == nil:
			add(level, event, FoundMissing, "")
		case n.len() == 0:
			add(level, event, FoundEmpty, string(t.data[n.start+1:n.end-1]))
		default:
			add(level, event, FoundFull, "")
		}
	}
	state(LevelRoot, "", t.root)
	state(LevelHooks, "", t.hooks) // nil when there is no root
	var events *node
	if t.hooks != nil {
		events, _ = t.hooks.get(e.Event)
	}
	state(LevelEvent, e.Event, events)
	return out, nil
}

// RemoveKeeping is [Remove], except for the containers of keep that Add
// found empty (or missing, for the file): one of them that the removal
// leaves empty is kept, with its Inner bytes between its brackets,
// rather than removed; and when the removal leaves the file as Add makes
// it from an empty file ("{}" with the file's whitespace), the file's
// bytes are given back, nil for a file that did not exist. So for the
// containers Containers(data, e) reports, RemoveKeeping(Add(data, e), e,
// them) is data. A container of keep whose Inner is not whitespace is
// ignored.
func RemoveKeeping(data []byte, e Entry, keep []Container) ([]byte, int, error) {
	n := 0
	var file *Container
	kept := map[string]string{}
	for _, c := range keep {
		switch {
		case c.Level == LevelFile && (c.Found == FoundMissing || c.Found == FoundEmpty && onlySpace(c.Inner, true)):
			file = &c
		case c.Found == FoundEmpty && onlySpace(c.Inner, false) && c.Level != LevelFile:
			kept[c.Level+"\x00"+c.Event] = c.Inner
		}
	}
	for {
		t, err := parseTree(data)
		if err != nil {
			return data, n, err
		}
		i := slicesIndexFunc(t.list, func(h Hook) bool {
			return h.Event == e.Event && h.Matcher == e.Matcher && h.Handler.Same(e.Handler)
		})
		if i < 0 {
			break
		}
		data = removeHandlerKeeping(t, i, kept)
		n++
	}
	if file != nil && n > 0 {
		if t, err := parseTree(data); err == nil && t.root != nil && t.root.len() == 0 &&
			bytes.Equal(data, skeleton([]byte(file.Inner))) {
			if file.Found == FoundMissing {
				return nil, n, nil
			}
			return []byte(file.Inner), n, nil
		}
	}
	return data, n, nil
}

// skeleton is what Add makes of an empty file (no JSON value) before it
// adds to it: an object after its byte order mark and before its
// whitespace, or before a final newline when it has none.
func skeleton(data []byte) []byte {
	var b []byte
	rest := data
	if bytes.HasPrefix(rest, bom) {
		b, rest = append(b, bom...), rest[len(bom):]
	}
	if len(rest) == 0 {
		rest = []byte("\n")
	}
	return append(append(b, "{}"...), rest...)
}

// onlySpace reports whether s is JSON whitespace (after a byte order mark,
// when bomOK).
func onlySpace(s string, bomOK bool) bool {
	if bomOK {
		s = string(bytes.TrimPrefix([]byte(s), bom))
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// removeHandlerKeeping is removeHandler that keeps the containers of
// kept (by level and event), filled with their bytes, when it would
// remove them for being empty.
func removeHandlerKeeping(t *tree, i int, kept map[string]string) []byte {
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
	empty := func(c *node, key string) ([]byte, bool) {
		inner, ok := kept[key]
		if !ok {
			return nil, false
		}
		return splice(t.data, c.start+1, c.end-1, []byte(inner)), true
	}
	event := t.list[i].Event
	if out, ok := empty(at.event, LevelEvent+"\x00"+event); ok {
		return out
	}
	_, ei := t.hooks.get(event)
	if len(t.hooks.members) > 1 {
		return removeChild(t.data, t.hooks, ei)
	}
	if out, ok := empty(t.hooks, LevelHooks+"\x00"); ok {
		return out
	}
	_, hi := t.root.get("hooks")
	if len(t.root.members) > 1 {
		return removeChild(t.data, t.root, hi)
	}
	if out, ok := empty(t.root, LevelRoot+"\x00"); ok {
		return out
	}
	return removeChild(t.data, t.root, hi)
}
