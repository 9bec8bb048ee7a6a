package rawjson

import (
	"encoding/binary"
	"hash/maphash"
)

// Large objects whose names are needed only for the duplicate check.
//
// The scanner keeps every name of the open objects, unquoted, in its
// names buffer, with an 8-byte end for each: the splitters make the
// members' keys of them. An object that is neither split (the top-level
// object, the sub object) nor small needs its names only to find a
// duplicate, so once it is large its set takes them over *by reference*:
// a name that is its own unquoted form (ASCII, no escape, as most are) is
// known by the offset of its opening quote in the input, and only the
// others are copied, into the set's side buffer. An object of millions of
// names then costs its hash table and four bytes a name instead of the
// names' bytes, their ends and their buffers' growth.

// sideRef marks a reference into a set's side buffer rather than into the
// input.
const sideRef = 1 << 31

// maxRefInput is the size of input from which the scanner keeps names as
// before: a reference into the input must fit in 31 bits.
const maxRefInput = sideRef

// refName returns the unquoted name that ref references in raw or in s's
// side buffer.
func (s *hashedNames) refName(raw []byte, ref uint32) []byte {
	if ref&sideRef != 0 {
		o := int(ref &^ sideRef)
		n := int(binary.LittleEndian.Uint32(s.side[o:]))
		return s.side[o+4 : o+4+n]
	}
	o := int(ref) + 1
	for i := o; ; i++ {
		if raw[i] == '"' { // a name by reference holds no escape
			return raw[o:i]
		}
	}
}

// toRefs makes s keep the names of its object by reference from now on:
// the names it has, which are names[ends[s.base-1]:] (from 0 when base is
// 0) with their ends from s.base on, are copied into the side buffer, in
// order, so that the table's indexes still name them. The caller drops
// them from names and ends.
func (s *hashedNames) toRefs(names []byte, ends []int) {
	s.byRef = true
	s.refs = make([]uint32, 0, 2*(len(ends)-s.base))
	for i := s.base; i < len(ends); i++ {
		s.refs = append(s.refs, s.appendSide(nameAt(names, ends, i)))
	}
}

// appendSide copies the unquoted name key into the side buffer and
// returns its reference.
func (s *hashedNames) appendSide(key []byte) uint32 {
	o := len(s.side)
	if len(s.side)+4+len(key) > cap(s.side) {
		s.side = grown(s.side, 4+len(key))
	}
	s.side = binary.LittleEndian.AppendUint32(s.side, uint32(len(key)))
	s.side = append(s.side, key...)
	return uint32(o) | sideRef
}

// addRef adds the valid JSON string name raw[start:end] by reference and
// reports false when the set already holds it. s.byRef must be set.
func (s *hashedNames) addRef(raw []byte, start, end int) bool {
	var key []byte
	sideFrom := len(s.side)
	ref := uint32(start)
	if content := raw[start+1 : end-1]; IsSimple(content) {
		key = content
	} else {
		s.side = binary.LittleEndian.AppendUint32(s.side, 0)
		s.side = appendKey(s.side, raw[start:end])
		key = s.side[sideFrom+4:]
		binary.LittleEndian.PutUint32(s.side[sideFrom:], uint32(len(key)))
		ref = uint32(sideFrom) | sideRef
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.growRefs(raw)
	}
	mask := len(s.slots) - 1
	pos, tag := s.slotOf(maphash.Bytes(s.seed, key))
	for ; ; pos = (pos + 1) & mask {
		switch s.tags[pos] {
		case 0:
			if len(s.refs) == cap(s.refs) {
				s.refs = grown(s.refs, 1)
			}
			s.refs = append(s.refs, ref)
			s.slots[pos], s.tags[pos] = uint32(len(s.refs)), tag
			s.n++
			return true
		case tag:
			if string(s.refName(raw, s.refs[s.slots[pos]-1])) == string(key) {
				s.side = s.side[:sideFrom]
				return false
			}
		}
	}
}

// growRefs is grow for a set that keeps its names by reference: the names
// are added again in the order they came, which reads the input forward.
func (s *hashedNames) growRefs(raw []byte) {
	s.slots, s.tags = make([]uint32, 2*len(s.slots)), make([]uint8, 2*len(s.tags))
	mask := len(s.slots) - 1
	for j, ref := range s.refs {
		pos, tag := s.slotOf(maphash.Bytes(s.seed, s.refName(raw, ref)))
		for s.tags[pos] != 0 {
			pos = (pos + 1) & mask
		}
		s.slots[pos], s.tags[pos] = uint32(j+1), tag
	}
}
