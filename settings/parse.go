package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// readOpts are the options every file is read with, the module's lenient
// set: invalid UTF-8 (a lone surrogate escape such as "\ud800", which
// JavaScript's JSON.parse accepts) is allowed, and a name given twice in
// one object is refused, since it is not clear which of the two values the
// user meant. Nothing this package writes is re-encoded user data.
var readOpts = jsonopts.Lenient()

// bom is the UTF-8 byte order mark some Windows editors put first.
var bom = []byte("\xef\xbb\xbf")

// node is one JSON value of a file, by byte offsets into the file's data.
// Objects hold their members in order, arrays their elements; scalars only
// their extent. Nothing is decoded: edits splice bytes at these offsets.
type node struct {
	kind       jsontext.Kind // '{', '[', '"', '0', 't', 'f' or 'n'
	start, end int           // the value is data[start:end]
	members    []member      // objects
	elems      []*node       // arrays
	str        string        // strings: the unquoted value
}

// member is one member of an object: its name starts at nameStart.
type member struct {
	key       string
	nameStart int
	val       *node
}

// child returns the start offset of the i'th child of an object or array
// (the name of a member), and its end.
func (n *node) child(i int) (start, end int) {
	if n.kind == '{' {
		m := n.members[i]
		return m.nameStart, m.val.end
	}
	return n.elems[i].start, n.elems[i].end
}

// len returns the number of children of an object or array.
func (n *node) len() int {
	if n.kind == '{' {
		return len(n.members)
	}
	return len(n.elems)
}

// get returns the value of the member named key, and its index.
func (n *node) get(key string) (*node, int) {
	for i, m := range n.members {
		if m.key == key {
			return m.val, i
		}
	}
	return nil, -1
}

// SyntaxError reports a file that is not one valid JSON value, or whose
// hooks do not have the shape Claude Code reads, at a line and column
// (both counted from 1; the column in characters).
type SyntaxError struct {
	Path   string // the file, when known
	Line   int
	Column int
	Offset int    // the byte offset of the trouble
	Msg    string // what is wrong, without the position
}

// Error returns "path:line:column: message".
func (e *SyntaxError) Error() string {
	p := e.Path
	if p == "" {
		p = "settings"
	}
	return fmt.Sprintf("%s:%d:%d: %s", p, e.Line, e.Column, e.Msg)
}

// position returns the line and column (from 1, column in characters) of
// byte offset off in data.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// errorAt builds a *SyntaxError at byte offset off of data.
func errorAt(data []byte, off int, format string, args ...any) *SyntaxError {
	line, col := position(data, off)
	return &SyntaxError{Line: line, Column: col, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// parse reads data as one JSON value into a tree of nodes. An empty file,
// or one of JSON whitespace only, reads as no value: a nil node and no
// error.
func parse(data []byte) (*node, error) {
	skip := 0
	if bytes.HasPrefix(data, bom) {
		skip = len(bom)
	}
	if len(bytes.Trim(data[skip:], " \t\r\n")) == 0 {
		return nil, nil
	}
	p := &parser{data: data, skip: skip, dec: jsontext.NewDecoder(bytes.NewReader(data[skip:]), readOpts)}
	root, err := p.value()
	if err != nil {
		return nil, p.wrap(err)
	}
	off := p.next()
	if _, err := p.dec.ReadToken(); err != io.EOF {
		if err == nil {
			return nil, errorAt(data, off, "more than one JSON value")
		}
		return nil, p.wrap(err)
	}
	return root, nil
}

type parser struct {
	data []byte
	skip int
	dec  *jsontext.Decoder
}

// wrap turns a decoder error into a *SyntaxError at its offset.
func (p *parser) wrap(err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg := se.Err.Error()
		if se.Err == nil {
			msg = "invalid JSON"
		}
		off := p.skip + int(se.ByteOffset)
		if off < len(p.data) && (p.data[off] == '/' || p.data[off] == '#') {
			msg = "comments are not JSON (Claude Code reads settings with JSON.parse): " + msg
		}
		return errorAt(p.data, off, "%s", msg)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return errorAt(p.data, len(p.data), "unexpected end of file")
	}
	return errorAt(p.data, p.skip+int(p.dec.InputOffset()), "%v", err)
}

// next returns the offset where the next token starts: the decoder's offset
// moved past whitespace and the ':' or ',' that separate tokens.
func (p *parser) next() int {
	off := p.skip + int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (p *parser) value() (*node, error) {
	start := p.next()
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	n := &node{kind: tok.Kind(), start: start}
	switch n.kind {
	case '{':
		for p.dec.PeekKind() != '}' {
			nameStart := p.next()
			name, err := p.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := name.String()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, member{key: key, nameStart: nameStart, val: v})
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
	case '[':
		for p.dec.PeekKind() != ']' {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
	case '"':
		n.str = tok.String()
	}
	n.end = p.skip + int(p.dec.InputOffset())
	return n, nil
}
