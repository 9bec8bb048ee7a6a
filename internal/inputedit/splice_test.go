package inputedit

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/rawjson"
)

// splicedInput returns a compact object of at least size bytes with
// members a, big (a long string) and z.
func splicedInput(size int) []byte {
	return []byte(`{"a":1,"big":"` + strings.Repeat(`x\"y`, size/4) + `","z":[true,null]}`)
}

// TestSplicedPiecesAreTheMergeResult merges patches into inputs of one
// to several blocks and checks that the pieces recorded for the result
// are its bytes, byte for byte, and tell a result equal to the input.
func TestSplicedPiecesAreTheMergeResult(t *testing.T) {
	patches := []string{
		`{"fingerprint":"0123"}`,       // appended
		`{"a":2}`,                      // the first member replaced
		`{"big":"short"}`,              // the long one replaced
		`{"z":{"k":"v"},"n":null}`,     // the last replaced, one appended
		`{"a":1}`,                      // set to the value it has
		`{"a":1,"big":0,"z":[],"q":3}`, // every member replaced
	}
	for _, size := range []int{0, 100, SpliceFrom, inputBlock - 10, inputBlock, 3*inputBlock + 7} {
		in := splicedInput(size)
		ms, err := rawjson.Members(in)
		require.NoError(t, err)
		for _, patch := range patches {
			for _, appendOnly := range []bool{false, true} {
				ps, err := rawjson.Members([]byte(patch))
				require.NoError(t, err)
				if appendOnly && patch != patches[0] {
					continue // append is for patches of new members only
				}
				name := strconv.Itoa(size) + " " + patch
				var vg Vouching
				vg.SetInput(in, ms, true, true)
				m := mergeOut{base: in, sp: &Spliced{vg: &vg}}
				if appendOnly {
					m.append(ps)
				} else {
					m.merge(ms, ps)
				}
				got, err := m.sp.bytes()
				require.NoError(t, err, name)
				assert.Equal(t, string(m.out), string(got), name)
				assert.Equal(t, len(m.out), m.sp.n, name)
				assert.Equal(t, bytes.Equal(m.out, in), m.sp.sameAsInput(), name)
				assert.Equal(t, string(mergeMembers(in, ms, ps)), string(m.out), "recording changes nothing: %s", name)
				if len(in) > 2*len(patch)+8 {
					assert.Less(t, len(m.sp.owned), 2*len(patch)+8, "the input's bytes are not copied: %s", name)
				}
			}
		}
	}
}

// TestSplicedWriteChecksEveryBlock writes a value of three blocks whose
// input a handler wrote into: nothing of the changed block, or after it,
// is written, and the writer says why.
func TestSplicedWriteChecksEveryBlock(t *testing.T) {
	in := splicedInput(3 * inputBlock)
	ms, err := rawjson.Members(in)
	require.NoError(t, err)
	ps, err := rawjson.Members([]byte(`{"n":1}`))
	require.NoError(t, err)
	var vg Vouching
	vg.SetInput(in, ms, true, true)
	require.Len(t, vg.sums, 4)
	m := mergeOut{base: in, sp: &Spliced{vg: &vg}}
	m.merge(ms, ps)

	var whole bytes.Buffer
	require.NoError(t, m.sp.WriteInto(&whole))
	require.Equal(t, string(m.out), whole.String())

	at := 2*inputBlock + 5
	old := in[at]
	in[at] = '"'
	assert.False(t, vg.inputIntact())
	var part bytes.Buffer
	assert.ErrorIs(t, m.sp.WriteInto(&part), errInputWritten)
	assert.Less(t, part.Len(), 2*inputBlock+1, "nothing of the changed block is written")
	assert.True(t, bytes.HasPrefix(m.out, part.Bytes()), "what was written is what was checked")
	_, err = m.sp.bytes()
	assert.ErrorIs(t, err, errInputWritten)

	in[at] = old
	assert.True(t, vg.inputIntact())
	part.Reset()
	require.NoError(t, m.sp.WriteInto(&part))
	assert.Equal(t, string(m.out), part.String())
}

// TestSplicedPiecesOfASpacedInput is TestSplicedPiecesAreTheMergeResult
// for inputs and patches with whitespace between their tokens: what the
// pieces write is the result compacted, as the encoder writes it, the
// untouched members of the input take few pieces, and the result tells
// whether it is the input's tokens. It also checks the writer on every
// block of a written-into spaced input.
func TestSplicedPiecesOfASpacedInput(t *testing.T) {
	patches := []string{
		`{"fingerprint":"0123"}`,
		`{ "fingerprint" : [ "0123" , 4 ] }`, // a patch with whitespace
		`{"a":2}`,
		`{"big":"short"}`,
		`{"z":{"k":"v"},"n":null}`,
		`{"a":1}`,             // set to the value it has
		`{"z": [true, null]}`, // the same tokens, other whitespace
		`{}`,
		`{"a":1,"big":0,"z":[],"q":3}`,
	}
	for _, size := range []int{0, 100, SpliceFrom, inputBlock - 10, 3*inputBlock + 7} {
		compactIn := splicedInput(size)
		for form, in := range map[string][]byte{"spaced": benchpayload.Spaced(compactIn), "indented": benchpayload.Indented(compactIn)} {
			ms, err := rawjson.Members(in)
			require.NoError(t, err)
			for _, patch := range patches {
				ps, compact, err := rawjson.MembersCompact([]byte(patch))
				require.NoError(t, err)
				for _, appendOnly := range []bool{false, true} {
					name := strconv.Itoa(size) + " " + form + " " + patch
					var vg Vouching
					vg.SetInput(in, ms, true, false)
					m := mergeOut{base: in, sp: &Spliced{vg: &vg, spaced: true, ownSpaced: !compact}}
					if appendOnly {
						keys := []string{}
						for _, p := range ps {
							keys = append(keys, p.Key)
						}
						if _, ok := m.appendSpaced(ps, keys); !ok {
							continue // a patch key is there: merge is for it
						}
					} else {
						m.merge(ms, ps)
					}
					assert.Equal(t, string(mergeMembers(in, ms, ps)), string(m.out), "the same result either way: %s", name)
					got, err := m.sp.bytes()
					require.NoError(t, err, name)
					assert.Equal(t, string(rawjson.AppendCompact(nil, m.out)), string(got), name)
					assert.Equal(t, rawjson.SameTokens(m.out, in), m.sp.sameAsInput(), name)
					assert.LessOrEqual(t, len(m.sp.pieces), 2*len(ps)+3, "untouched members are one range: %s", name)
				}
			}
		}
	}

	in := benchpayload.Indented(splicedInput(3 * inputBlock))
	ms, err := rawjson.Members(in)
	require.NoError(t, err)
	ps, err := rawjson.Members([]byte(`{"n":1}`))
	require.NoError(t, err)
	var vg Vouching
	vg.SetInput(in, ms, true, false)
	m := mergeOut{base: in, sp: &Spliced{vg: &vg, spaced: true}}
	m.merge(ms, ps)
	at := 2*inputBlock + 5
	old := in[at]
	in[at] = '"'
	var part bytes.Buffer
	assert.ErrorIs(t, m.sp.WriteInto(&part), errInputWritten)
	assert.Less(t, part.Len(), 2*inputBlock+1, "nothing of the changed block is written")
	assert.True(t, bytes.HasPrefix(rawjson.AppendCompact(nil, m.out), part.Bytes()), "what was written is what was checked")
	in[at] = old
	part.Reset()
	require.NoError(t, m.sp.WriteInto(&part))
	assert.Equal(t, string(rawjson.AppendCompact(nil, m.out)), part.String())
}
