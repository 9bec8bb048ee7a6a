package hook

import (
	"github.com/gohooks/hook/internal/rawjson"

	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Reading the input.
//
// readObject reads stdin up to the end of the first JSON object and stops
// there: it never waits for the end of input, so a launcher that keeps
// stdin open does not hang a hook. While reading, a small scanner follows
// strings, escapes and nesting to find the object's end; it also stops at
// the first byte that no valid JSON could hold at that point, so garbage on
// a stdin that stays open is reported at once. The bytes are then validated
// by jsontext in place (no copy) and checked to be UTF-8.
//
// Memory: the input's size is usually unknown (a pipe), so it is read into
// chunks that double in size up to maxChunk and is copied once into a
// buffer of the object's exact size, unless it fits in the first chunk.
// When the size is known (a regular file, a bytes.Reader), the first chunk
// has that size and nothing is copied. Handling an input of n bytes thus
// allocates about n bytes, and at most about 2n while the chunks are
// joined.

const (
	// firstChunk is the size of the first read buffer when the input's
	// size is unknown; Claude Code's inputs are mostly a few KiB.
	firstChunk = 4 << 10
	// maxChunk bounds the later read buffers, which double in size.
	maxChunk = 8 << 20
	// maxHint bounds the first read buffer when the size is known, in
	// case a Len method promises more than there is.
	maxHint = 1 << 30
	// maxEmptyReads is how many reads in a row may return no bytes and no
	// error before the reader counts as broken (as in bufio).
	maxEmptyReads = 100
	// collectFrom is the input size from which readObject runs the
	// garbage collector after joining the chunks.
	collectFrom = 16 << 20
	// leadLen is how many bytes of an input that is not an object are
	// quoted in the error message.
	leadLen = 24
)

// scanState is where objectScanner is in the input.
type scanState uint8

const (
	scanBOM0   scanState = iota // at the very start, where a UTF-8 BOM may be
	scanBOM1                    // after the BOM's first byte
	scanBOM2                    // after the BOM's second byte
	scanLead                    // in the whitespace before the first value
	scanObject                  // inside the object, outside strings
	scanString                  // inside a string
	scanEscape                  // right after a backslash inside a string
)

// scanEnd says why objectScanner stopped.
type scanEnd uint8

const (
	endNone      scanEnd = iota // not stopped: more input is needed
	endObject                   // the object closed
	endBad                      // a byte that valid JSON cannot hold there
	endNotObject                // the first value does not begin with '{'
)

// MaxInputDepth is the deepest nesting of objects and arrays that [Serve]
// reads; deeper input is refused at the read with a clear error (exit 1,
// or 2 when failing closed). An answer puts the input's values at most
// two levels deeper than the event holds them (PermissionRequest's
// hookSpecificOutput.decision.updatedInput), and JSON text is read to
// 10000 levels, so every answer built from input the read accepted can
// be written.
const MaxInputDepth = 10000 - 2

// objectScanner finds the end of the first JSON object in input that is
// fed to it piece by piece. It is not a validator: jsontext validates the
// object afterwards.
type objectScanner struct {
	state scanState
	end   scanEnd
	depth int
	// deepest is the deepest nesting seen.
	deepest int
	start   int64 // offset of the first value's first byte; -1 before it
	stop    int64 // offset just past the last byte scanned, once stopped
}

// scan advances over p, which begins at offset off of the input, until it
// stops or p is used up.
func (s *objectScanner) scan(p []byte, off int64) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch s.state {
		case scanString:
			for c != '"' && c != '\\' && c >= 0x20 {
				if i++; i == len(p) {
					return
				}
				c = p[i]
			}
			switch c {
			case '"':
				s.state = scanObject
			case '\\':
				s.state = scanEscape
			default: // a control character
				s.finish(endBad, off+int64(i)+1)
				return
			}
		case scanEscape:
			s.state = scanString // jsontext checks the escape itself
		case scanObject:
			switch c {
			case '"':
				s.state = scanString
			case '{', '[':
				if s.depth++; s.depth > s.deepest {
					s.deepest = s.depth
				}
			case '}', ']':
				if s.depth--; s.depth == 0 {
					s.finish(endObject, off+int64(i)+1)
					return
				}
			case ' ', '\t', '\n', '\r', ':', ',',
				'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '-', '+', '.', 'e', 'E',
				't', 'r', 'u', 'f', 'a', 'l', 's', 'n':
			default:
				s.finish(endBad, off+int64(i)+1)
				return
			}
		case scanBOM0:
			if c == 0xEF {
				s.state = scanBOM1
				continue
			}
			s.state = scanLead
			i-- // look at c again as the first byte
		case scanBOM1, scanBOM2:
			if (s.state == scanBOM1 && c != 0xBB) || (s.state == scanBOM2 && c != 0xBF) {
				s.start = 0
				s.finish(endNotObject, off+int64(i)+1)
				return
			}
			s.state++
		case scanLead:
			switch c {
			case ' ', '\t', '\n', '\r':
			case '{':
				s.start = off + int64(i)
				s.depth = 1
				s.state = scanObject
			default:
				s.start = off + int64(i)
				s.finish(endNotObject, off+int64(i)+1)
				return
			}
		}
	}
}

func (s *objectScanner) finish(e scanEnd, stop int64) {
	s.end = e
	s.stop = stop
}

// chunks is input read so far: full chunks, then cur, which is being
// filled.
type chunks struct {
	full    [][]byte
	cur     []byte
	curBase int64 // offset of cur[0]
}

// total returns the number of bytes read.
func (c *chunks) total() int64 { return c.curBase + int64(len(c.cur)) }

// bytes returns input[from:to]: a slice of cur when the range lies in it,
// else a new buffer of exactly that size.
func (c *chunks) bytes(from, to int64) []byte {
	if from >= c.curBase {
		return c.cur[from-c.curBase : to-c.curBase : to-c.curBase]
	}
	b := make([]byte, 0, to-from)
	base := int64(0)
	for _, ch := range append(c.full, c.cur) {
		lo, hi := max(from, base), min(to, base+int64(len(ch)))
		if lo < hi {
			b = append(b, ch[lo-base:hi-base]...)
		}
		base += int64(len(ch))
	}
	return b
}

// sizeHint returns the number of bytes r still holds when that is known
// cheaply: for readers with a Len method (bytes.Reader, strings.Reader,
// bytes.Buffer) and regular files. Otherwise it returns -1.
func sizeHint(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			pos = 0
		}
		return max(fi.Size()-pos, -1)
	}
	return -1
}

// readObject reads the first JSON value of r and returns it if it is one
// valid JSON object of at most limit bytes (limit < 0: no limit),
// counting whitespace and a UTF-8 byte order mark before it. It returns as
// soon as the object is complete. Anything after the object that arrived
// with it must be whitespace; nothing more is read. Every error is a
// one-line message that begins with "hook: ".
func readObject(r io.Reader, limit int64) ([]byte, []rawjson.Member, error) {
	size := int64(firstChunk)
	if n := sizeHint(r); n >= 0 {
		size = min(max(n, 64), maxHint)
	}
	if limit >= 0 {
		size = min(size, limit+1)
	}
	c := chunks{cur: make([]byte, 0, size)}
	s := objectScanner{start: -1}
	for empty := 0; s.end == endNone; {
		if len(c.cur) == cap(c.cur) {
			next := min(2*int64(cap(c.cur)), maxChunk)
			if limit >= 0 {
				next = min(next, limit+1-c.total())
			}
			c.full = append(c.full, c.cur)
			c.curBase += int64(len(c.cur))
			c.cur = make([]byte, 0, next)
		}
		n, err := r.Read(c.cur[len(c.cur):cap(c.cur)])
		if n > 0 {
			empty = 0
			s.scan(c.cur[len(c.cur):len(c.cur)+n], c.total())
			c.cur = c.cur[:len(c.cur)+n]
			if s.end != endNone {
				break
			}
			if limit >= 0 && c.total() > limit {
				return nil, nil, tooLarge(limit)
			}
		}
		switch {
		case err == io.EOF:
			return nil, nil, atEOF(&c, &s)
		case err != nil:
			return nil, nil, fmt.Errorf("hook: reading stdin: %v", err)
		case n == 0:
			if empty++; empty == maxEmptyReads {
				return nil, nil, fmt.Errorf("hook: reading stdin: %v", io.ErrNoProgress)
			}
		}
	}
	switch s.end {
	case endNotObject:
		return nil, nil, notObject(c.bytes(s.start, min(s.start+leadLen, c.total())))
	case endBad:
		if err := checkJSON(c.bytes(s.start, s.stop)); err != nil {
			return nil, nil, err
		}
		// Not expected: the scanner stopped where jsontext found nothing.
		return nil, nil, errors.New("hook: the input is not valid JSON")
	}
	if limit >= 0 && s.stop > limit {
		return nil, nil, tooLarge(limit)
	}
	if s.deepest > MaxInputDepth {
		return nil, nil, fmt.Errorf("hook: the input is nested %d levels deep; the library reads at most %d (MaxInputDepth), so that every answer that carries a value of the input stays within JSON's 10000 levels", s.deepest, MaxInputDepth)
	}
	raw := c.bytes(s.start, s.stop)
	raw = raw[:len(raw):len(raw)]    // appending to Raw() copies it
	rest := c.cur[s.stop-c.curBase:] // read with the object, after it
	if len(c.full) > 0 && len(raw) >= collectFrom {
		// The chunks are garbage as big as the input now. A hook serves
		// one event and exits; collecting them at once keeps them out of
		// the peak that decoding and answering reach.
		c = chunks{}
		runtime.GC()
	}
	// One pass validates the object and splits it into its members; the
	// jsontext decoder only words the error.
	ms, err := rawjson.Members(raw)
	if err != nil {
		if cerr := checkJSON(raw); cerr != nil {
			return nil, nil, cerr
		}
		return nil, nil, fmt.Errorf("hook: the input: %v", err)
	}
	if i := invalidUTF8(raw); i >= 0 {
		return nil, nil, fmt.Errorf("hook: the input is not valid UTF-8: byte %#02x at offset %d (a lone surrogate must come as an escape such as \\ud800)", raw[i], s.start+int64(i))
	}
	if rest = bytes.TrimLeft(rest, " \t\r\n"); len(rest) > 0 {
		return nil, nil, fmt.Errorf("hook: the input goes on after its JSON object (with %q); Claude Code sends exactly one object", rest[:min(len(rest), leadLen)])
	}
	return raw, ms, nil
}

// atEOF returns the error for an input that ended before its object did.
func atEOF(c *chunks, s *objectScanner) error {
	switch s.state {
	case scanBOM0, scanLead:
		if c.total() == 0 {
			return errors.New("hook: no input: stdin was empty")
		}
		return errors.New("hook: no input: stdin held only whitespace")
	case scanBOM1, scanBOM2:
		return notObject(c.bytes(0, c.total()))
	}
	if err := checkJSON(c.bytes(s.start, c.total())); err != nil {
		return err
	}
	return errors.New("hook: the input ends before its JSON object does")
}

// checkJSON validates raw, one JSON value, in place.
func checkJSON(raw []byte) error {
	_, err := jsontext.NewDecoder(bytes.NewBuffer(raw), readOpts).ReadValue()
	if err == nil {
		err = rawjson.CheckNames(raw)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("hook: the input ends before its JSON object does (truncated after %d bytes)", len(raw))
	case errors.Is(err, jsontext.ErrDuplicateName):
		return fmt.Errorf("hook: the input holds a duplicate member name: %v", err)
	}
	return fmt.Errorf("hook: the input is not valid JSON: %v", err)
}

// notObject returns the error for input whose first value does not begin
// with '{'; lead is its first bytes.
func notObject(lead []byte) error {
	kind := ""
	switch c := lead[0]; {
	case c == '[':
		kind = "an array"
	case c == '"':
		kind = "a string"
	case c == '-' || '0' <= c && c <= '9':
		kind = "a number"
	case isLiteralPrefix(lead, "true"), isLiteralPrefix(lead, "false"):
		kind = "a boolean"
	case isLiteralPrefix(lead, "null"):
		kind = "null"
	case bytes.HasPrefix(lead, []byte{0xFE, 0xFF}), bytes.HasPrefix(lead, []byte{0xFF, 0xFE}):
		return errors.New("hook: the input is UTF-16 (it begins with a UTF-16 byte order mark); hook input must be UTF-8 JSON")
	default:
		return fmt.Errorf("hook: the input is not valid JSON: it begins with %q", lead)
	}
	return fmt.Errorf("hook: the input is %s, not a JSON object: it begins with %q", kind, lead)
}

// isLiteralPrefix reports whether b begins with lit, or with a prefix of
// lit when b is shorter.
func isLiteralPrefix(b []byte, lit string) bool {
	n := min(len(b), len(lit))
	if string(b[:n]) != lit[:n] {
		return false
	}
	return len(b) == n || !isNameByte(b[n])
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func tooLarge(limit int64) error {
	return fmt.Errorf("hook: the input is larger than the %d-byte limit (raise Server.MaxInputBytes)", limit)
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// readEvent reads one JSON object from r, at most max bytes (max < 0: no
// limit), and decodes its common fields. It returns as soon as the object
// is complete, without waiting for the end of r. On a decode error of the
// common fields it returns the partly decoded event too, so the caller
// knows the event's name when it could be read.
func readEvent(r io.Reader, max int64) (*Event, error) {
	raw, ms, err := readObject(r, max)
	if err != nil {
		return nil, err
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
		if content := v[1 : len(v)-1]; isPlain(content) {
			dsts[n], vals[n] = dst, content
			n++
			total += len(content)
			continue
		}
		s, ok := unquote(v)
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
		if ft := fastTypeOf(rv.Elem().Type()); ft != nil {
			// A new value (the typed adapters' case) needs no copy to
			// undo a failed fast decode.
			var saved reflect.Value
			fresh := rv.Elem().IsZero()
			if !fresh {
				saved = reflect.New(rv.Elem().Type()).Elem()
				saved.Set(rv.Elem())
			}
			*e.event() = *ev
			if decodeMembersFast(ev.members, rv.Elem(), ft) {
				return nil
			}
			if fresh {
				rv.Elem().SetZero()
			} else {
				rv.Elem().Set(saved)
			}
		}
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
	obj := ev.raw // decoded in place when no member is kept raw
	if len(raws) > 0 || obj == nil {
		obj = rawjson.AppendObject(nil, small)
	}
	if err := unmarshal(obj, v); err != nil {
		return fmt.Errorf("hook: decoding %s input: %w", ev.HookEventName, err)
	}
	for _, m := range raws {
		rv.Elem().FieldByIndex(rf[m.Key]).SetBytes(m.Value)
	}
	return nil
}

// decodeMembersFast decodes the members ms of a validated input into
// dst, a struct that embeds Event and already holds a copy of the event,
// with the fast codec, and reports whether it could. The common fields
// are not decoded again; raw values are slices of the input, not copies.
// On false dst is partly written.
func decodeMembersFast(ms []rawjson.Member, dst reflect.Value, ft *fastType) bool {
	for _, m := range ms {
		if isCommonKey(m.Key) {
			continue
		}
		f := ft.field(m.Key)
		if f == nil {
			continue // not a field: ignored, as the json package does
		}
		fv := dst.FieldByIndex(f.index)
		if f.typ.kind == fastRaw {
			fv.SetBytes(m.Value)
			continue
		}
		if !decodeFast(m.Value, fv, f.typ) {
			return false
		}
	}
	return true
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

// isPlain reports whether the content of a valid JSON string is its own
// Go string: no escape and only ASCII.
func isPlain(content []byte) bool {
	for _, c := range content {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
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

// shorten returns b as a string of at most 60 bytes, for error messages.
func shorten(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
