package rawjson

// Compacting valid JSON as it is written.
//
// An answer carries values of the input, which may hold whitespace between
// their tokens (a pretty-printed event, Python's json.dumps separators).
// The library's encoder writes every raw value compact, so a value that is
// written straight from the input's bytes, without the encoder, must be
// compacted the same way: [Compactor] does it piece by piece, in place,
// stepping over the long strings the reader has already walked.

// Compactor drops the whitespace between the tokens of valid JSON text
// that is fed to it piece by piece, in order, as jsontext's encoder drops
// it from a raw value (the bytes of strings, numbers and literals are kept
// as they are). The text must have been validated: on other input the
// result is unspecified, but Compactor never panics. The zero value
// starts outside any string.
type Compactor struct {
	inString bool // inside a string
	escaped  bool // the piece before ended with a backslash inside a string
	// until is, while inString, the offset of the text at which a known
	// string ends (0: not a known one, its end is looked for).
	until int
	// known are the spans, in the text's offsets and in order of Start,
	// of long strings that are stepped over without being looked at.
	known []StringSpan
}

// NewCompactor returns a Compactor that steps over the strings at the
// spans known, given in the offsets of the whole text fed to it and in
// order of Start. A span that does not start where a string does is
// ignored.
func NewCompactor(known []StringSpan) Compactor {
	return Compactor{known: known}
}

// Compact compacts p in place: p is the piece of the text that starts at
// offset off, which must be past every byte fed before (pieces may skip
// parts of the text only between tokens). It returns how many bytes of p
// now hold the compacted piece.
func (c *Compactor) Compact(p []byte, off int) int {
	w, i := 0, 0
	for i < len(p) {
		if c.inString {
			var j int
			switch {
			case c.until > 0:
				j = min(c.until-off, len(p))
				if j == c.until-off {
					c.inString, c.until = false, 0
				}
			case c.escaped:
				c.escaped = false
				j = i + 1
			default:
				j = c.stringEnd(p, i)
			}
			w += moveDown(p, w, i, j)
			i = j
			continue
		}
		// Outside strings: copy up to the next quote, dropping
		// whitespace.
		for ; i < len(p); i++ {
			b := p[i]
			if b == ' ' || b == '\t' || b == '\n' || b == '\r' {
				continue
			}
			p[w] = b
			w++
			if b == '"' {
				c.inString = true
				c.until = c.knownEnd(off + i)
				i++
				break
			}
		}
	}
	return w
}

// stringEnd returns the index in p just past the string content that
// starts at p[i] (past the closing quote when it is in p, leaving the
// string), or len(p).
func (c *Compactor) stringEnd(p []byte, i int) int {
	for {
		i = nextStop(p, i, false)
		switch {
		case i >= len(p):
			return len(p)
		case p[i] == '"':
			c.inString = false
			return i + 1
		case i+1 >= len(p): // a backslash at the end of the piece
			c.escaped = true
			return len(p)
		}
		i += 2 // a backslash and the byte it escapes
	}
}

// knownEnd returns the offset just past the known string whose opening
// quote is at offset at, or 0 when none is known there.
func (c *Compactor) knownEnd(at int) int {
	for len(c.known) > 0 && c.known[0].Start < at {
		c.known = c.known[1:]
	}
	if len(c.known) > 0 && c.known[0].Start == at && c.known[0].End > at+1 {
		return c.known[0].End
	}
	return 0
}

// moveDown moves p[from:to] to p[w:] and returns its length; nothing moves
// while nothing has been dropped.
func moveDown(p []byte, w, from, to int) int {
	if w != from {
		copy(p[w:], p[from:to])
	}
	return to - from
}

// AppendCompact appends the valid JSON text src to dst without the
// whitespace between its tokens, as [Compactor] compacts it.
func AppendCompact(dst, src []byte) []byte {
	n := len(dst)
	dst = append(dst, src...)
	var c Compactor
	return dst[:n+c.Compact(dst[n:], 0)]
}
