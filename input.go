package hook

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// maxInputDepth is the deepest nesting of objects and arrays that [Serve]
// reads; deeper input is refused at the read with a clear error (exit 1,
// or 2 when failing closed). An answer puts the input's values at most
// two levels deeper than the event holds them (PermissionRequest's
// hookSpecificOutput.decision.updatedInput), and JSON text is read to
// 10000 levels, so every answer built from input the read accepted can
// be written.
const maxInputDepth = 10000 - 2

// readEvent reads one JSON object from r, at most max bytes (max < 0: no
// limit), and decodes its common fields. It returns as soon as the object
// is complete, without waiting for the end of r. On a decode error of the
// common fields it returns the partly decoded event too, so the caller
// knows the event's name when it could be read. An event read whole has
// its invocation, made from what the read learned of it.
func readEvent(r io.Reader, max int64) (*Event, error) {
	o, err := wire.ReadObject(r, max, maxInputDepth, "tool_input")
	if err != nil {
		return nil, err
	}
	// Payloads of agents the library does not serve are refused before
	// their fields are read: their names and shapes are not Claude Code's.
	a := Agent(agent.DetectMembers(o.Members))
	if !a.Served() {
		return nil, &notServedError{agent: a}
	}
	if a == AgentCopilot {
		o.Members = agent.CopilotMembers(o.Members)
	}
	// The event and its invocation, in one allocation.
	both := &struct {
		ev  Event
		inv invocation
	}{ev: Event{raw: o.Raw, members: o.Members, agent: a}}
	ev := &both.ev
	if err := decodeCommon(ev); err != nil {
		return ev, err
	}
	if ev.HookEventName == "" {
		return ev, errors.New("hook: the input has no hook_event_name")
	}
	ev.inv = &both.inv
	ev.inv.init(ev, o)
	return ev, nil
}

// commonKeys are the input members that Event decodes.
var commonKeys = [...]string{"session_id", "transcript_path", "cwd", "prompt_id",
	"permission_mode", "agent_id", "agent_type", "effort", "hook_event_name"}

// decodeCommon decodes the common fields of ev from its members, touching
// only those members.
func decodeCommon(ev *Event) error {
	if decodeCommonFast(ev) {
		return nil
	}
	return decodeCommonSlow(ev)
}

// decodeCommonFast decodes the common fields of ev when all of them that
// are present are JSON strings, and reports whether it could; it then
// makes one allocation for all of them. On false ev is unchanged.
func decodeCommonFast(ev *Event) bool {
	var (
		dsts  [len(commonKeys)]*string
		vals  [len(commonKeys)][]byte // the strings' contents, when plain
		n     int
		total int
		e     = *ev
	)
	for _, m := range ev.members {
		var dst *string
		switch m.Key {
		case "session_id":
			dst = &e.SessionID
		case "transcript_path":
			dst = &e.TranscriptPath
		case "cwd":
			dst = &e.Cwd
		case "prompt_id":
			dst = &e.PromptID
		case "permission_mode":
			dst = (*string)(&e.PermissionMode)
		case "agent_id":
			dst = &e.AgentID
		case "agent_type":
			dst = &e.AgentType
		case "hook_event_name":
			dst = &e.HookEventName
		case "effort":
			return false // an object: the general path decodes it
		default:
			continue
		}
		v := m.Value
		if len(v) < 2 || v[0] != '"' {
			return false // null or another kind: the general path decides
		}
		if content := v[1 : len(v)-1]; rawjson.IsSimple(content) {
			dsts[n], vals[n] = dst, content
			n++
			total += len(content)
			continue
		}
		s, ok := wire.Unquote(v)
		if !ok {
			return false
		}
		*dst = s
	}
	if total > 0 {
		var all strings.Builder
		all.Grow(total)
		for _, v := range vals[:n] {
			all.Write(v)
		}
		s := all.String()
		for i, dst := range dsts[:n] {
			*dst, s = s[:len(vals[i])], s[len(vals[i]):]
		}
	}
	*ev = e
	return true
}

// decodeCommonSlow decodes the common fields of ev with the json package's
// rules and errors.
func decodeCommonSlow(ev *Event) error {
	var small []rawjson.Member
	for _, m := range ev.members {
		for _, k := range commonKeys {
			if m.Key == k {
				small = append(small, m)
				break
			}
		}
	}
	// Read hook_event_name first, so that a type error in another common
	// field still lets the caller know the event.
	if m, ok := rawjson.Find(small, "hook_event_name"); ok {
		var name string
		if err := wire.Unmarshal(m.Value, &name); err != nil {
			return fmt.Errorf("hook: the input's hook_event_name is not a string: %s", shorten(m.Value))
		}
		ev.HookEventName = name
	}
	if err := wire.Unmarshal(rawjson.AppendObject(nil, small), ev); err != nil {
		return fmt.Errorf("hook: the input's common fields: %w", err)
	}
	return nil
}

// decodeEvent decodes the input of ev into v, a pointer to a struct.
// Members whose field is a jsontext.Value are sliced out of the input as
// they are, never decoded; only the rest is unmarshaled. A struct that
// embeds Event gets a copy of ev.
func decodeEvent(ev *Event, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("hook: Decode needs a non-nil pointer to a struct, not %T", v)
	}
	var embedded *Event
	if e, ok := v.(interface{ event() *Event }); ok {
		embedded = e.event()
	}
	return decodeTyped(ev, v, rv, embedded, rv.Elem().IsZero())
}

// decodeNew is decodeEvent for a typed event the adapters have just
// made: v is a new, zero value, and embedded its Event. Knowing both
// spares the dynamic interface check and the zero check, whose first
// use in a process pages in type tables and reflection code.
func decodeNew(ev *Event, v any, embedded *Event) error {
	return decodeTyped(ev, v, reflect.ValueOf(v), embedded, true)
}

// decodeTyped does the work of decodeEvent: v and rv are a non-nil pointer to a
// struct, embedded the Event it embeds (nil when none), and fresh
// reports whether the struct is zero.
func decodeTyped(ev *Event, v any, rv reflect.Value, embedded *Event, fresh bool) error {
	if embedded != nil {
		if ft := wire.TypeOf(rv.Elem().Type()); ft != nil {
			// A zero value (the typed adapters' case) needs no copy to
			// undo a failed fast decode.
			var saved reflect.Value
			if !fresh {
				saved = reflect.New(rv.Elem().Type()).Elem()
				saved.Set(rv.Elem())
			}
			*embedded = *ev
			if wire.DecodeMembers(ev.members, rv.Elem(), ft, isCommonKey) {
				return nil
			}
			if fresh {
				rv.Elem().SetZero()
			} else {
				rv.Elem().Set(saved)
			}
		}
		*embedded = *ev
	}
	rf := wire.RawFields(rv.Elem().Type())
	small := make([]rawjson.Member, 0, len(ev.members))
	var raws []rawjson.Member
	for _, m := range ev.members {
		if _, ok := rf[m.Key]; ok {
			raws = append(raws, m)
		} else {
			small = append(small, m)
		}
	}
	obj := ev.raw // decoded in place when no member is kept raw
	if len(raws) > 0 || obj == nil {
		obj = rawjson.AppendObject(nil, small)
	}
	if err := wire.Unmarshal(obj, v); err != nil {
		return fmt.Errorf("hook: decoding %s input: %w", ev.HookEventName, err)
	}
	for _, m := range raws {
		rv.Elem().FieldByIndex(rf[m.Key]).SetBytes(m.Value)
	}
	return nil
}

// isCommonKey reports whether k is the name of a member that Event
// decodes.
func isCommonKey(k string) bool {
	for _, c := range commonKeys {
		if c == k {
			return true
		}
	}
	return false
}

// shorten returns b as a string of at most 60 bytes, for error messages.
func shorten(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
