package inputedit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

// chainStep is one view of a chain as the tests below make it, the way
// hook.Chain does: a copy of the rewrite before, its own vouching, and
// the pieces of Serve's input that it stands for.
type chainStep struct {
	vg *Vouching
	in []byte
}

// viewOf returns the view made of upd, the rewrite a handler answered,
// for root, Serve's vouching.
func viewOf(root *Vouching, upd []byte) chainStep {
	cp := bytes.Clone(upd)
	base := root.PiecesOf(upd, cp)
	vg := new(Vouching)
	vg.SetInput(cp, nil, false, base != nil || !strings.ContainsAny(string(cp), " \t\r\n"))
	vg.SetBase(base)
	return chainStep{vg: vg, in: cp}
}

// manyMemberInput returns a compact object of n members k0…k<n-1>, with
// a long string in every hundredth, and escapes here and there.
func manyMemberInput(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case i%100 == 0:
			fmt.Fprintf(&b, `"k%d":"%s"`, i, strings.Repeat(`ab\"c`, 60))
		case i%7 == 0:
			fmt.Fprintf(&b, `"k%d":{"x":[%d,true,null],"y":"caf\u00e9"}`, i, i)
		default:
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// randomPatch returns a compact patch for an object of n members k<i>:
// new members, replaced ones (the first, the last, long ones), and
// members set to the value they have.
func randomPatch(r *rand.Rand, n, step int) string {
	var ms []string
	for range 1 + r.IntN(8) {
		switch r.IntN(5) {
		case 0:
			ms = append(ms, fmt.Sprintf(`"new%d_%d":"v%d"`, step, r.IntN(1000), step))
		case 1:
			ms = append(ms, fmt.Sprintf(`"k%d":"s%d"`, r.IntN(n), step))
		case 2:
			ms = append(ms, `"k0":[`+fmt.Sprint(step)+`]`, fmt.Sprintf(`"k%d":{"z":%d}`, n-1, step))
		case 3:
			i := r.IntN(n) / 100 * 100
			ms = append(ms, fmt.Sprintf(`"k%d":"short%d"`, i, step))
		case 4:
			i := r.IntN(n)
			if i%100 != 0 && i%7 != 0 {
				ms = append(ms, fmt.Sprintf(`"k%d":%d`, i, i)) // the value it has
			}
		}
	}
	// A key twice in a patch is refused: keep the last of each.
	seen := map[string]bool{}
	var out []string
	for i := len(ms) - 1; i >= 0; i-- {
		k := ms[i][:strings.Index(ms[i], ":")]
		if !seen[k] {
			seen[k] = true
			out = append(out, ms[i])
		}
	}
	return "{" + strings.Join(out, ",") + "}"
}

// TestComposedPiecesAreTheChainsRewrite runs chains of two to five
// Merges over inputs of one to several blocks, as hook.Chain does (each
// handler merging into a copy of the rewrite before), and checks that
// the last rewrite carries to Serve's vouching as pieces of its input
// that are its bytes, byte for byte, that tell a rewrite equal to the
// input, and whose own bytes are few.
func TestComposedPiecesAreTheChainsRewrite(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{3, 40, 400, 4000} {
		in := manyMemberInput(n)
		for run := range 12 {
			var root Vouching
			root.SetInput(in, nil, false, true)
			handlers := 2 + run%4
			cur, vg := in, &root
			var last []byte
			plain := jsontext.Value(bytes.Clone(in)) // the same merges, outside any invocation
			patches := 0
			for step := range handlers {
				patch := randomPatch(r, n, step)
				if run%6 == 5 && step == handlers-1 {
					patch = `{"k1":1}` // a last rewrite back to what the one before has
				}
				patches += len(patch)
				out, err := Merge(vg, cur, jsontext.Value(patch))
				require.NoError(t, err)
				plain, err = Merge(nil, plain, jsontext.Value(patch))
				require.NoError(t, err)
				require.Equal(t, string(plain), string(out))
				require.True(t, vg.Vouches(out), "n %d run %d step %d: the view vouches for its Merge", n, run, step)
				if vg != &root {
					require.True(t, vg.CarryTo(&root, out))
				}
				vv, ok := root.lookup(out)
				require.True(t, ok)
				if len(out) >= SpliceFrom {
					require.NotNil(t, vv.sp, "n %d run %d step %d: a large rewrite carries as pieces", n, run, step)
					got, err := vv.sp.bytes()
					require.NoError(t, err)
					require.Equal(t, string(out), string(got), "n %d run %d step %d", n, run, step)
					assert.Equal(t, bytes.Equal(out, in), vv.sp.sameAsInput())
					assert.LessOrEqual(t, len(vv.sp.owned), patches+2*(step+1), "the input's bytes are not copied")
					assert.Same(t, &root, vv.sp.vg, "the pieces are of Serve's input")
				}
				view := viewOf(&root, out)
				cur, vg, last = view.in, view.vg, out
			}
			ms, err := rawjson.Members(last)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, len(ms), n, "every member is kept")
		}
	}
}

// TestComposedPiecesRefuseWrittenBytes checks what the composition
// takes on trust: nothing. A rewrite written into before the view copied
// it, a view's input written into before its Merge, and an input or a
// patch with whitespace (whose pieces are tokens, not bytes) leave the
// last rewrite without pieces; Serve's input written into after the
// pieces were composed fails their writing.
func TestComposedPiecesRefuseWrittenBytes(t *testing.T) {
	in := manyMemberInput(400)
	start := func() (*Vouching, jsontext.Value) {
		root := new(Vouching)
		root.SetInput(in, nil, false, true)
		out, err := Merge(root, in, jsontext.Value(`{"k5":"x","new":1}`))
		require.NoError(t, err)
		return root, out
	}

	t.Run("rewrite written before the copy", func(t *testing.T) {
		root, out := start()
		out[10] ^= 1
		view := viewOf(root, out)
		assert.Nil(t, view.vg.base)
		out2, err := Merge(view.vg, view.in, jsontext.Value(`{"b":2}`))
		require.NoError(t, err)
		require.True(t, view.vg.CarryTo(root, out2))
		vv, _ := root.lookup(out2)
		assert.Nil(t, vv.sp, "without a base, no pieces")
	})

	t.Run("view input written before its Merge", func(t *testing.T) {
		root, out := start()
		view := viewOf(root, out)
		require.NotNil(t, view.vg.base)
		view.in[20] ^= 1
		out2, err := Merge(view.vg, view.in, jsontext.Value(`{"b":2}`))
		if err == nil {
			assert.False(t, view.vg.Vouches(out2), "a Merge of a written input is not vouched for")
			assert.False(t, view.vg.CarryTo(root, out2))
		}
	})

	t.Run("rewrite written after its Merge", func(t *testing.T) {
		root, out := start()
		view := viewOf(root, out)
		out2, err := Merge(view.vg, view.in, jsontext.Value(`{"b":2}`))
		require.NoError(t, err)
		out2[30] ^= 1
		assert.False(t, view.vg.CarryTo(root, out2))
	})

	t.Run("patch with whitespace", func(t *testing.T) {
		root, out := start()
		view := viewOf(root, out)
		out2, err := Merge(view.vg, view.in, jsontext.Value(`{ "b" : 2 }`))
		require.NoError(t, err)
		require.True(t, view.vg.CarryTo(root, out2))
		vv, _ := root.lookup(out2)
		assert.Nil(t, vv.sp)
		// The next view has no base either: its input is not pieces.
		assert.Nil(t, viewOf(root, out2).vg.base)
	})

	t.Run("first patch with whitespace", func(t *testing.T) {
		root := new(Vouching)
		root.SetInput(in, nil, false, true)
		out, err := Merge(root, in, jsontext.Value("{\"new\":\n1}"))
		require.NoError(t, err)
		assert.Nil(t, viewOf(root, out).vg.base)
	})

	t.Run("Serve's input written after", func(t *testing.T) {
		root, out := start()
		view := viewOf(root, out)
		out2, err := Merge(view.vg, view.in, jsontext.Value(`{"b":2}`))
		require.NoError(t, err)
		require.True(t, view.vg.CarryTo(root, out2))
		vv, _ := root.lookup(out2)
		require.NotNil(t, vv.sp)
		in[len(in)/2] ^= 1
		defer func() { in[len(in)/2] ^= 1 }()
		_, err = vv.sp.bytes()
		assert.ErrorIs(t, err, errInputWritten)
	})
}

// TestComposeOutOfOrderRanges composes pieces whose ranges go backwards
// and straddle the base's pieces, which a Merge does not make but
// compose must get right all the same.
func TestComposeOutOfOrderRanges(t *testing.T) {
	in := []byte(`{"a":"0123456789","b":"abcdefghij"}`)
	var root Vouching
	root.SetInput(in, nil, false, true)
	// base: in[0:10] + own "XYZ" + in[20:35]
	base := &Spliced{vg: &root}
	base.addRange(0, 10)
	base.addOwnBytes([]byte("XYZ"))
	base.addRange(20, len(in))
	baseBytes, err := base.bytes()
	require.NoError(t, err)
	var view Vouching
	view.SetInput(baseBytes, nil, false, true)
	sp := &Spliced{vg: &view}
	sp.addRange(15, 20)
	sp.addOwnBytes([]byte("--"))
	sp.addRange(2, 12)
	sp.addRange(0, 1)
	sp.addRange(9, len(baseBytes))
	want := string(baseBytes[15:20]) + "--" + string(baseBytes[2:12]) + string(baseBytes[0:1]) + string(baseBytes[9:])
	r := base.compose(sp)
	require.NotNil(t, r)
	got, err := r.bytes()
	require.NoError(t, err)
	assert.Equal(t, want, string(got))

	bad := &Spliced{vg: &view}
	bad.addRange(0, len(baseBytes)+1)
	assert.Nil(t, base.compose(bad), "a range past the base's value")
}
