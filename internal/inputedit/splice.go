package inputedit

import (
	"bytes"
	"errors"
	"io"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
)

// This file writes a large vouched Merge result without copying it.
//
// A Merge result of the incoming tool_input is that input's bytes with a
// few pieces of the patch in between. The handler holds the result and may
// write into it (a goroutine of its own may still be writing when the
// answer goes out), so the answer never writes the handler's bytes: Merge
// records the result a second time as its pieces — ranges of the input
// and the patch's bytes, copied — and the answer writes those. The input
// is the library's: Serve read it, and a handler is only lent it, to read
// (see hook.Handler). It is hashed in blocks when it is read, and each block
// is copied into a buffer of the library's and its hash checked before it
// is written, so that what reaches stdout is what was checked even if a
// handler broke that rule; the whole input is checked once more before
// the first byte is written, so that a handler that wrote into it before
// it returned fails without an answer.
//
// The process thus holds the input and the handler's result, and a block
// of the input at a time: 2× the input, not 3× as with a copy of the
// result.

// inputBlock is the size of the blocks of the input that are hashed when
// it is read and copied and checked when it is written.
const inputBlock = 256 << 10

// errInputWritten reports that a handler wrote into the tool_input it was
// lent.
var errInputWritten = errors.New("the handler wrote into the bytes of the tool_input it was given, which are read-only; the answer built from them is not written")

// Spliced is a vouched Merge result as its pieces: n bytes, made of
// ranges of the vouched input and of owned, the library's own bytes.
//
// When spaced is set, the input had whitespace between tokens, which an
// answer does not carry (the encoder writes raw values compact): the
// ranges of the input may then also cover the whitespace between the
// members they hold, so that a run of untouched members stays one
// range, and WriteInto compacts them as it writes. When ownSpaced is set,
// the patch had some, and the owned bytes are kept compact. Either way
// the pieces are then the result's tokens but not its bytes, and same
// tells whether the result is the input's tokens.
type Spliced struct {
	vg        *Vouching
	id        int // what its placeholder calls it
	n         int
	pieces    []piece
	owned     []byte
	spaced    bool
	ownSpaced bool
	same      bool
}

// piece is a range of the input, or of the owned bytes when own is set.
type piece struct {
	from, to int
	own      bool
}

// addBase adds v, a slice of base (the input), as a range of it.
func (sp *Spliced) addBase(base, v []byte) {
	if len(v) == 0 {
		return
	}
	off, ok := offsetIn(base, v)
	if !ok {
		sp.addOwn(base, v)
		return
	}
	k := len(sp.pieces) - 1
	if k >= 0 && !sp.pieces[k].own && sp.pieces[k].to <= off && (sp.pieces[k].to == off || sp.spaced && isSpace(base[sp.pieces[k].to:off])) {
		// Adjacent to the last range, or after whitespace that the
		// writer drops.
		sp.n += off + len(v) - sp.pieces[k].to
		sp.pieces[k].to = off + len(v)
		return
	}
	sp.n += len(v)
	sp.pieces = append(sp.pieces, piece{from: off, to: off + len(v)})
}

// isSpace reports whether b is JSON whitespace only.
func isSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// skipSpace returns the index of the first byte of b at or after i that
// is not JSON whitespace, or len(b).
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// addOwn adds v, bytes that are not a slice of base, as a copy (kept
// compact when sp is spaced). A single byte that base holds just after
// the last range continues that range: the commas and colons of the input
// are taken from it, and, when sp is spaced, also after whitespace.
func (sp *Spliced) addOwn(base, v []byte) {
	if len(v) == 0 {
		return
	}
	k := len(sp.pieces) - 1
	if len(v) == 1 {
		if k < 0 && len(base) > 0 && base[0] == v[0] {
			sp.n++
			sp.pieces = append(sp.pieces, piece{from: 0, to: 1})
			return
		}
		if k >= 0 && !sp.pieces[k].own {
			at := sp.pieces[k].to
			if sp.spaced {
				at = skipSpace(base, at)
			}
			if at < len(base) && base[at] == v[0] {
				sp.n += at + 1 - sp.pieces[k].to
				sp.pieces[k].to = at + 1
				return
			}
		}
	}
	if sp.ownSpaced {
		// The patch's own whitespace, dropped now: the owned bytes are
		// written as they are.
		from := len(sp.owned)
		sp.owned = rawjson.AppendCompact(sp.owned, v)
		sp.addOwned(from)
		return
	}
	from := len(sp.owned)
	sp.owned = append(sp.owned, v...)
	sp.addOwned(from)
}

// addOwned adds the owned bytes from offset from on as the next piece.
func (sp *Spliced) addOwned(from int) {
	to := len(sp.owned)
	sp.n += to - from
	if k := len(sp.pieces) - 1; k >= 0 && sp.pieces[k].own && sp.pieces[k].to == from {
		sp.pieces[k].to = to
	} else {
		sp.pieces = append(sp.pieces, piece{from: from, to: to, own: true})
	}
}

// Len returns the length of the value.
func (sp *Spliced) Len() int { return sp.n }

// OneBlock reports whether the value is no longer than one block of the
// input, which is checked and written at once.
func (sp *Spliced) OneBlock() bool { return sp.n <= inputBlock }

// offsetIn returns the offset of v in base when v is a slice of base's
// bytes.
func offsetIn(base, v []byte) (int, bool) {
	if len(v) > len(base) || len(v) == 0 {
		return 0, false
	}
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(base)))
	v0 := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	if v0 < b0 || v0-b0 > uintptr(len(base)-len(v)) {
		return 0, false
	}
	return int(v0 - b0), true
}

// sameAsInput reports whether sp's bytes are the input's: a Merge that
// set members to the values they had. For a spaced value, whose pieces
// are not its bytes, the merge told whether it is the input's tokens,
// which is what unchanged compares then.
func (sp *Spliced) sameAsInput() bool {
	if sp.spaced || sp.ownSpaced {
		return sp.same
	}
	in := sp.vg.input
	if sp.n != len(in) {
		return false
	}
	at := 0
	for _, p := range sp.pieces {
		n := p.to - p.from
		switch {
		case p.own:
			if !bytes.Equal(in[at:at+n], sp.owned[p.from:p.to]) {
				return false
			}
		case p.from != at:
			if !bytes.Equal(in[at:at+n], in[p.from:p.to]) {
				return false
			}
		}
		at += n
	}
	return true
}

// WriteInto writes sp's bytes to w: its owned pieces as they are, and the
// input's ranges through a buffer of the library's, one block of the
// input at a time, each checked against the hash taken when the input was
// read before any of it is written. It fails with errInputWritten, having
// written a part, when a block no longer holds the bytes read: a handler
// goroutine wrote into the input while the answer was being written (the
// outcome then fails, and exit 2 tells Claude Code to ignore stdout).
// A spaced value's ranges of the input are compacted in the buffer as
// they are written, stepping over the long strings the read validated.
func (sp *Spliced) WriteInto(w io.Writer) error {
	vg, in := sp.vg, sp.vg.input
	var buf []byte
	block := -1 // the block of the input buf holds
	c := rawjson.NewCompactor(vg.known)
	next := 0 // the offset of the input from which c may go on
	for _, p := range sp.pieces {
		if p.own {
			if _, err := w.Write(sp.owned[p.from:p.to]); err != nil {
				return err
			}
			continue
		}
		for at := p.from; at < p.to; {
			k := at / inputBlock
			start, end := k*inputBlock, min((k+1)*inputBlock, len(in))
			if k != block {
				if buf == nil {
					buf = make([]byte, inputBlock)
				}
				n := copy(buf, in[start:end])
				if vg.sum(buf[:n]) != vg.sums[k] {
					return errInputWritten
				}
				block = k
			}
			to := min(p.to, end)
			out := buf[at-start : to-start]
			if sp.spaced {
				if at < next {
					c = rawjson.NewCompactor(vg.known) // not expected: the ranges go forward
				}
				out = out[:c.Compact(out, vg.inputOff+at)]
				next = to
				block = -1 // buf no longer holds the block's bytes
			}
			if _, err := w.Write(out); err != nil {
				return err
			}
			at = to
		}
	}
	return nil
}

// bytes returns a copy of sp's bytes, written as WriteInto writes them.
func (sp *Spliced) bytes() ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, sp.n))
	if err := sp.WriteInto(b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
