package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// Reading the input.
//
// ReadObject reads stdin up to the end of the first JSON object and stops
// there: it never waits for the end of input, so a launcher that keeps
// stdin open does not hang a hook. While reading, a small scanner follows
// strings and nesting to find the object's end, validating each string on
// the way (rawjson.StringScan); it also stops at the first byte that no
// valid JSON could hold at that point, so garbage on a stdin that stays
// open is reported at once. The object is then validated and split in one
// pass in place (no copy) that steps over the long strings already
// validated, and checked to be UTF-8; jsontext only words an error.
//
// Memory: the input's size is usually unknown (a pipe), so it is read into
// chunks that double in size up to maxChunk and is copied once into a
// buffer of the object's exact size, unless it fits in the first chunk.
// When the size is known (a regular file, a bytes.Reader), the first chunk
// has that size and nothing is copied. Handling an input of n bytes thus
// allocates about 2n bytes; from collectFrom bytes on, the chunks are
// given back to the system while they are joined, so that the process
// holds about n plus 2·releaseEvery then, not 2n (a Merge result built
// next is the second n).

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
	// garbage collector after joining the chunks, and gives their memory
	// back to the system.
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
)

// scanEnd says why objectScanner stopped.
type scanEnd uint8

const (
	endNone      scanEnd = iota // not stopped: more input is needed
	endObject                   // the object closed
	endBad                      // a byte that valid JSON cannot hold there
	endNotObject                // the first value does not begin with '{'
)

// objectScanner finds the end of the first JSON object in input that is
// fed to it piece by piece. It validates the object's strings on the way
// (the bytes of a string are walked here anyway) and records the spans
// of the long ones, which the validating splitter then steps over; the
// rest of the object is validated afterwards.
type objectScanner struct {
	state scanState
	end   scanEnd
	depth int
	// deepest is the deepest nesting seen.
	deepest int
	start   int64 // offset of the first value's first byte; -1 before it
	stop    int64 // offset just past the last byte scanned, once stopped

	str      rawjson.StringScan // the string being scanned
	strStart int64              // the offset of its opening quote
	// long are the spans of the validated strings of at least
	// rawjson.LongString bytes, as offsets of the object.
	long []rawjson.StringSpan
}

// scan advances over p, which begins at offset off of the input, until it
// stops or p is used up.
func (s *objectScanner) scan(p []byte, off int64) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch s.state {
		case scanString:
			// The string is validated here, once: the validator steps
			// over the long ones (see rawjson.MembersSubKnown).
			j, e := s.str.Scan(p, i)
			switch e {
			case rawjson.StringMore:
				return
			case rawjson.StringBad:
				s.finish(endBad, off+int64(j)+1)
				return
			}
			if end := off + int64(j) + 1; end-s.strStart >= rawjson.LongString {
				s.long = append(s.long, rawjson.StringSpan{Start: int(s.strStart - s.start), End: int(end - s.start)})
			}
			i = j
			s.state = scanObject
		case scanObject:
			switch c {
			case '"':
				s.state, s.str, s.strStart = scanString, rawjson.StringScan{}, off+int64(i)
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

// join is bytes for a large range that spans chunks: it drops each full
// chunk once copied, and gives the memory of the dropped ones back to the
// system every releaseEvery bytes, so that the input is held about once,
// not twice, while it is joined.
func (c *chunks) join(from, to int64) []byte {
	b := make([]byte, 0, to-from)
	base, dropped := int64(0), 0
	for i, ch := range c.full {
		lo, hi := max(from, base), min(to, base+int64(len(ch)))
		if lo < hi {
			b = append(b, ch[lo-base:hi-base]...)
		}
		base += int64(len(ch))
		c.full[i] = nil
		if dropped += len(ch); dropped >= releaseEvery {
			debug.FreeOSMemory()
			dropped = 0
		}
	}
	if lo, hi := max(from, base), min(to, base+int64(len(c.cur))); lo < hi {
		b = append(b, c.cur[lo-base:hi-base]...)
	}
	return b
}

// releaseEvery is how many bytes of dropped chunks join lets pile up
// before it gives them back to the system: each time costs a garbage
// collection, cheap with a heap of byte slices only.
const releaseEvery = 2 * maxChunk

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

// MaxSub is the most members of the sub object that [ReadObject] splits:
// beyond, keeping them would cost more memory than the input itself (a
// member takes about 100 bytes to keep), and a caller that needs them
// splits the object itself.
const MaxSub = 4096

// Object is a JSON object read by [ReadObject].
type Object struct {
	Raw     []byte           // the object's bytes
	Members []rawjson.Member // its members
	// Sub are the members of the member named by ReadObject's sub, when
	// HasSub is set: that member is there and its value is an object of
	// at most MaxSub members.
	Sub    []rawjson.Member
	HasSub bool
	// Compact is set when Raw has no whitespace between its tokens.
	Compact bool
	// Long are the spans, as offsets of Raw and in order, of the long
	// strings the read validated on its way to the object's end (see
	// rawjson.MembersSubKnown): a writer that compacts a value of Raw
	// steps over them.
	Long []rawjson.StringSpan
}

// ReadObject reads the first JSON value of r and returns it if it is one
// valid JSON object of at most limit bytes (limit < 0: no limit), nested
// at most maxDepth levels deep (9998 for package hook),
// counting whitespace and a UTF-8 byte order mark before it. It returns as
// soon as the object is complete. Anything after the object that arrived
// with it must be whitespace; nothing more is read. Every error is a
// one-line message that begins with "hook: ".
//
// The Object it returns also holds the members of the object's member
// with key sub, when that is an object of at most MaxSub members (split
// in the same pass), and
// whether the object has no whitespace between its tokens at any depth.
func ReadObject(r io.Reader, limit int64, maxDepth int, sub string) (Object, error) {
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
				return Object{}, TooLarge(limit)
			}
		}
		switch {
		case err == io.EOF:
			return Object{}, atEOF(&c, &s)
		case err != nil:
			return Object{}, fmt.Errorf("hook: reading stdin: %v", err)
		case n == 0:
			if empty++; empty == maxEmptyReads {
				return Object{}, fmt.Errorf("hook: reading stdin: %v", io.ErrNoProgress)
			}
		}
	}
	switch s.end {
	case endNotObject:
		return Object{}, notObject(c.bytes(s.start, min(s.start+leadLen, c.total())))
	case endBad:
		if err := checkJSON(c.bytes(s.start, s.stop)); err != nil {
			return Object{}, err
		}
		// Not expected: the scanner stopped where jsontext found nothing.
		return Object{}, errors.New("hook: the input is not valid JSON")
	}
	if limit >= 0 && s.stop > limit {
		return Object{}, TooLarge(limit)
	}
	if s.deepest > maxDepth {
		return Object{}, fmt.Errorf("hook: the input is nested %d levels deep; the library reads at most %d, so that every answer that carries a value of the input stays within JSON's 10000 levels", s.deepest, maxDepth)
	}
	rest := c.cur[s.stop-c.curBase:] // read with the object, after it
	var raw []byte
	if len(c.full) > 0 && s.stop-s.start >= collectFrom {
		// The chunks become garbage as big as the input while they are
		// joined. A hook serves one event and exits: giving each batch
		// of them back to the system as soon as it is copied keeps them
		// out of the peak that joining, decoding and answering reach
		// (a large answer built next cannot reuse their pages, which are
		// not one run of memory).
		if len(rest) <= leadLen {
			rest = bytes.Clone(rest) // not to keep the last chunk
		}
		raw = c.join(s.start, s.stop)
		c = chunks{}
		debug.FreeOSMemory()
	} else {
		raw = c.bytes(s.start, s.stop)
	}
	raw = raw[:len(raw):len(raw)] // appending to Raw() copies it
	// One pass validates the object and splits it into its members; the
	// jsontext decoder only words the error.
	ms, subMs, found, compact, err := rawjson.MembersSubKnown(raw, sub, MaxSub, s.long)
	if err != nil {
		if cerr := checkJSON(raw); cerr != nil {
			return Object{}, cerr
		}
		return Object{}, fmt.Errorf("hook: the input: %v", err)
	}
	if i := InvalidUTF8(raw); i >= 0 {
		return Object{}, fmt.Errorf("hook: the input is not valid UTF-8: byte %#02x at offset %d (a lone surrogate must come as an escape such as \\ud800)", raw[i], s.start+int64(i))
	}
	if rest = bytes.TrimLeft(rest, " \t\r\n"); len(rest) > 0 {
		return Object{}, fmt.Errorf("hook: the input goes on after its JSON object (with %q); Claude Code sends exactly one object", rest[:min(len(rest), leadLen)])
	}
	return Object{Raw: raw, Members: ms, Sub: subMs, HasSub: found, Compact: compact, Long: s.long}, nil
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
	_, err := jsontext.NewDecoder(bytes.NewBuffer(raw), jsonopts.Read()).ReadValue()
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

// TooLarge returns the error for an input larger than limit bytes.
func TooLarge(limit int64) error {
	return fmt.Errorf("hook: the input is larger than the %d-byte limit (raise Server.MaxInputBytes)", limit)
}

// InvalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func InvalidUTF8(b []byte) int {
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
