package hook

import (
	"bytes"
	"errors"
	"io"
	"unsafe"
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
// (see [Handler]). It is hashed in blocks when it is read, and each block
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

// splicedValue is a vouched Merge result as its pieces: n bytes, made of
// ranges of the vouched input and of owned, the library's own bytes.
type splicedValue struct {
	vg     *vouching
	id     int // what its placeholder calls it
	n      int
	pieces []piece
	owned  []byte
}

// piece is a range of the input, or of the owned bytes when own is set.
type piece struct {
	from, to int
	own      bool
}

// addBase adds v, a slice of base (the input), as a range of it.
func (sp *splicedValue) addBase(base, v []byte) {
	if len(v) == 0 {
		return
	}
	off, ok := offsetIn(base, v)
	if !ok {
		sp.addOwn(base, v)
		return
	}
	sp.n += len(v)
	if k := len(sp.pieces) - 1; k >= 0 && !sp.pieces[k].own && sp.pieces[k].to == off {
		sp.pieces[k].to += len(v)
		return
	}
	sp.pieces = append(sp.pieces, piece{from: off, to: off + len(v)})
}

// addOwn adds v, bytes that are not a slice of base, as a copy. A single
// byte that base holds just after the last range continues that range:
// the commas and colons of a compact input are taken from it.
func (sp *splicedValue) addOwn(base, v []byte) {
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
		if k >= 0 && !sp.pieces[k].own && sp.pieces[k].to < len(base) && base[sp.pieces[k].to] == v[0] {
			sp.n++
			sp.pieces[k].to++
			return
		}
	}
	sp.n += len(v)
	if k >= 0 && sp.pieces[k].own && sp.pieces[k].to == len(sp.owned) {
		sp.pieces[k].to += len(v)
	} else {
		sp.pieces = append(sp.pieces, piece{from: len(sp.owned), to: len(sp.owned) + len(v), own: true})
	}
	sp.owned = append(sp.owned, v...)
}

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
// set members to the values they had.
func (sp *splicedValue) sameAsInput() bool {
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

// writeTo writes sp's bytes to w: its owned pieces as they are, and the
// input's ranges through a buffer of the library's, one block of the
// input at a time, each checked against the hash taken when the input was
// read before any of it is written. It fails with errInputWritten, having
// written a part, when a block no longer holds the bytes read: a handler
// goroutine wrote into the input while the answer was being written (the
// outcome then fails, and exit 2 tells Claude Code to ignore stdout).
func (sp *splicedValue) writeTo(w io.Writer) error {
	vg, in := sp.vg, sp.vg.input
	var buf []byte
	block := -1 // the block of the input buf holds
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
			if _, err := w.Write(buf[at-start : to-start]); err != nil {
				return err
			}
			at = to
		}
	}
	return nil
}

// bytes returns a copy of sp's bytes, written as writeTo writes them.
func (sp *splicedValue) bytes() ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, sp.n))
	if err := sp.writeTo(b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
