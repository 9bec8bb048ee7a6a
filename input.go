package hook

import (
	"github.com/gohooks/hook/internal/rawjson"

	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// errTooLarge is reported when the input exceeds the size cap.
var errTooLarge = errors.New("input too large")

// capReader fails once more than n bytes have been read from r.
type capReader struct {
	r   io.Reader
	n   int64 // bytes still allowed; negative means no limit
	hit bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n < 0 {
		return c.r.Read(p)
	}
	if c.n == 0 {
		// One more byte tells a value of exactly the cap from a larger one.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			c.hit = true
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// readEvent reads one JSON object from r, at most max bytes (max < 0: no
// limit), and decodes its common fields. It returns as soon as the object
// is complete, without waiting for the end of r. On a decode error of the
// common fields it returns the partly decoded event too, so the caller
// knows the event's name when it could be read.
func readEvent(r io.Reader, max int64) (*Event, error) {
	cr := &capReader{r: r, n: max}
	dec := jsontext.NewDecoder(cr, readOpts)
	raw, err := dec.ReadValue()
	switch {
	case cr.hit:
		return nil, fmt.Errorf("hook: the input is larger than the %d-byte limit (raise Server.MaxInputBytes)", max)
	case err == io.EOF:
		return nil, errors.New("hook: no input: stdin was empty")
	case err != nil:
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("hook: the input ended inside its JSON value: %w", err)
		}
		return nil, fmt.Errorf("hook: the input is not valid JSON: %w", err)
	case raw.Kind() != '{':
		return nil, fmt.Errorf("hook: the input is a JSON %s, not an object", kindName(raw.Kind()))
	}
	if rest := bytes.TrimLeft(dec.UnreadBuffer(), " \t\r\n"); len(rest) > 0 {
		return nil, errors.New("hook: the input holds more than one JSON value; Claude Code sends exactly one object")
	}
	ms, err := rawjson.Members(raw)
	if err != nil {
		return nil, fmt.Errorf("hook: the input: %w", err)
	}
	ev := &Event{raw: raw, members: ms}
	if err := decodeCommon(ev); err != nil {
		return ev, err
	}
	if ev.HookEventName == "" {
		return ev, errors.New("hook: the input has no hook_event_name")
	}
	return ev, nil
}

// commonKeys are the input members that Event decodes.
var commonKeys = [...]string{"session_id", "transcript_path", "cwd", "prompt_id",
	"permission_mode", "agent_id", "agent_type", "effort", "hook_event_name"}

// decodeCommon decodes the common fields of ev from its members, touching
// only those members.
func decodeCommon(ev *Event) error {
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
		if err := unmarshal(m.Value, &name); err != nil {
			return fmt.Errorf("hook: the input's hook_event_name is not a string: %s", shorten(m.Value))
		}
		ev.HookEventName = name
	}
	if err := unmarshal(rawjson.AppendObject(nil, small), ev); err != nil {
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
	if e, ok := v.(interface{ event() *Event }); ok {
		*e.event() = *ev
	}
	rf := rawFieldsOf(rv.Elem().Type())
	small := make([]rawjson.Member, 0, len(ev.members))
	var raws []rawjson.Member
	for _, m := range ev.members {
		if _, ok := rf[m.Key]; ok {
			raws = append(raws, m)
		} else {
			small = append(small, m)
		}
	}
	if err := unmarshal(rawjson.AppendObject(nil, small), v); err != nil {
		return fmt.Errorf("hook: decoding %s input: %w", ev.HookEventName, err)
	}
	for _, m := range raws {
		rv.Elem().FieldByIndex(rf[m.Key]).SetBytes(m.Value)
	}
	return nil
}

var (
	rawFieldsMu    sync.Mutex
	rawFieldsCache = map[reflect.Type]map[string][]int{}
	rawValueType   = reflect.TypeFor[jsontext.Value]()
)

// rawFieldsOf returns, for struct type t, the JSON names of its fields of
// type jsontext.Value (also through embedded structs) with their indexes.
// Results are cached per type on first use, not at start-up.
func rawFieldsOf(t reflect.Type) map[string][]int {
	rawFieldsMu.Lock()
	defer rawFieldsMu.Unlock()
	if m, ok := rawFieldsCache[t]; ok {
		return m
	}
	m := map[string][]int{}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			idx := append(append([]int(nil), index...), i)
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, idx)
				continue
			}
			if !f.IsExported() || name == "-" || f.Type != rawValueType {
				continue
			}
			if name == "" {
				name = f.Name
			}
			m[name] = idx
		}
	}
	walk(t, nil)
	rawFieldsCache[t] = m
	return m
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "value"
}

// shorten returns b as a string of at most 60 bytes, for error messages.
func shorten(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
