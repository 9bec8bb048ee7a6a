package inputedit

import "sort"

// This file carries a chain's rewrites to the invocation Serve made, as
// pieces of the input Serve read.
//
// In a hook.Chain, each handler after the first is given a view of the
// event whose tool_input is the rewrite before it: a copy of a Merge
// result. A Merge of that view's input is recorded as pieces of it (see
// splice.go), and the view's input is itself, when the rewrite before was
// a vouched Merge result, pieces of the input Serve read. Composing the
// two gives the chain's rewrite as pieces of Serve's input, which the
// answer carries as a placeholder and Serve writes block by block, each
// block checked against the hash taken when it was read, as it writes a
// single handler's Merge result: the encoder and the final guard then
// validate the small answer around it, not the whole value again. The
// pieces are composed only where they are the value's bytes (Serve's
// input and every patch compact); otherwise the chain's rewrite is
// vouched for without pieces, and the answer carries a copy of it.

// PiecesOf returns the pieces of upd, a Merge result root vouches for
// with its pieces, when in, a copy of upd that a chain's view made its
// tool_input, holds its bytes: in then stands for those pieces (see
// SetBase), and is compact. It returns nil otherwise, and for pieces
// that are not the value's bytes (an input or patch with whitespace).
// in is taken for the pieces only when its bytes hash as upd's did when
// root vouched for it, so a handler that wrote into upd after its Merge,
// even while the copy was made, leaves the view without pieces, and its
// chain's last rewrite takes the copy path.
func (root *Vouching) PiecesOf(upd, in []byte) *Spliced {
	vv, ok := root.lookup(upd)
	if !ok || vv.sp == nil || vv.sp.spaced || vv.sp.ownSpaced || vv.sp.n != len(in) || vv.sp.vg != root {
		return nil
	}
	if root.sum(in) != vv.sum {
		return nil
	}
	return vv.sp
}

// SetBase records sp, the pieces of vg's input (a chain's view's
// tool_input, set by SetInput) as PiecesOf found them: a Merge of the
// input then carries to the Serve-level vouching as pieces of its input
// (see CarryTo).
func (vg *Vouching) SetBase(sp *Spliced) {
	if vg != nil && vg.hasInput && sp != nil && sp.n == len(vg.input) && sp.vg != vg {
		vg.base = sp
	}
}

// compose returns the value that sp stands for, the pieces of an input
// whose bytes are base's value, as pieces of base's own input, or nil
// when sp does not fit base. base and sp are exact (not spaced): their
// pieces are their bytes. The value is then written from base's input,
// checked block by block as base's pieces are, and from bytes of the
// library's own, never from the bytes of the input sp was taken from.
// The cost is linear in the pieces of both.
func (base *Spliced) compose(sp *Spliced) *Spliced {
	if base.spaced || base.ownSpaced || sp.spaced || sp.ownSpaced {
		return nil
	}
	starts := make([]int, len(base.pieces)) // offsets of base's pieces in its value
	at := 0
	for i, p := range base.pieces {
		starts[i] = at
		at += p.to - p.from
	}
	if at != base.n {
		return nil
	}
	r := &Spliced{vg: base.vg}
	k := 0 // the piece of base that holds the last offset mapped
	for _, p := range sp.pieces {
		if p.own {
			r.addOwnBytes(sp.owned[p.from:p.to])
			continue
		}
		if p.from < 0 || p.to > base.n || p.from >= p.to {
			return nil
		}
		if k >= len(starts) || starts[k] > p.from || starts[k]+base.pieces[k].to-base.pieces[k].from <= p.from {
			// Not in the piece after the last: sp's ranges usually go
			// forward, but need not.
			k = sort.Search(len(starts), func(i int) bool { return starts[i] > p.from }) - 1
		}
		for at := p.from; at < p.to; k++ {
			q := base.pieces[k]
			end := min(p.to, starts[k]+q.to-q.from)
			from, to := q.from+at-starts[k], q.from+end-starts[k]
			if q.own {
				r.addOwnBytes(base.owned[from:to])
			} else {
				r.addRange(from, to)
			}
			if at = end; at == p.to && end < starts[k]+q.to-q.from {
				break // the next range may start in this piece
			}
		}
	}
	if r.n != sp.n {
		return nil
	}
	return r
}

// addRange adds the range [from, to) of the input, continuing the last
// piece when it ends at from.
func (sp *Spliced) addRange(from, to int) {
	sp.n += to - from
	if k := len(sp.pieces) - 1; k >= 0 && !sp.pieces[k].own && sp.pieces[k].to == from {
		sp.pieces[k].to = to
		return
	}
	sp.pieces = append(sp.pieces, piece{from: from, to: to})
}

// addOwnBytes adds a copy of v to the owned bytes, as the next piece.
func (sp *Spliced) addOwnBytes(v []byte) {
	from := len(sp.owned)
	sp.owned = append(sp.owned, v...)
	sp.addOwned(from)
}
