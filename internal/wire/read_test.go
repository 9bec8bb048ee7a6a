package wire

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// pieces is a reader that hands out its data in pieces: first bytes
// first when it is set, then pieces whose sizes come from sizes in turn
// (each size+1 bytes). It has no Len method, so that ReadObject reads it
// as it reads a pipe.
type pieces struct {
	data  []byte
	first int
	sizes []byte
	k     int
}

func (r *pieces) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	switch {
	case r.first > 0:
		n, r.first = r.first, 0
	case len(r.sizes) > 0:
		n = int(r.sizes[r.k%len(r.sizes)]) + 1
		r.k++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// referenceRead is what ReadObject must make of in, by jsontext alone:
// the object's bytes and true when in is one valid object and whitespace
// (decided), nil and false when no reading of in can succeed (decided),
// and decided false when the answer depends on how in arrives (an object
// followed by more than whitespace).
func referenceRead(in []byte, maxDepth int) (raw []byte, ok, decided bool) {
	in = bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
	dec := jsontext.NewDecoder(bytes.NewReader(in), jsonopts.Read())
	v, err := dec.ReadValue()
	switch {
	case err != nil, v.Kind() != '{', rawjson.CheckNames(v) != nil, !utf8.Valid(v), depthOf(v) > maxDepth:
		return nil, false, true
	}
	if len(bytes.TrimLeft(in[dec.InputOffset():], " \t\r\n")) > 0 {
		return v, false, false
	}
	return v, true, true
}

// depthOf returns how deep the valid JSON value v nests.
func depthOf(v []byte) int {
	d, deepest := 0, 0
	dec := jsontext.NewDecoder(bytes.NewReader(v), jsonopts.Read())
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return deepest
		}
		switch tok.Kind() {
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			d--
		}
	}
}

// checkRead reads in in the pieces r gives (its data is set to in) and
// checks the outcome against referenceRead: accepted exactly when
// jsontext accepts, with the same bytes and the members that
// rawjson.Members finds.
func checkRead(t *testing.T, in []byte, r pieces) {
	t.Helper()
	const maxDepth = 64
	r.data = in
	sizes := fmt.Sprintf("first %d, then %v", r.first, r.sizes)
	o, err := ReadObject(&r, -1, maxDepth, "tool_input")
	want, ok, decided := referenceRead(in, maxDepth)
	if err != nil {
		assert.True(t, strings.HasPrefix(err.Error(), "hook: "), err.Error())
		assert.NotContains(t, err.Error(), "not expected")
		if decided {
			assert.False(t, ok, "refused valid input %q in pieces %s: %v", in, sizes, err)
		}
		return
	}
	require.NotNil(t, want, "accepted invalid input %q in pieces %s", in, sizes)
	if decided {
		require.True(t, ok, "accepted invalid input %q in pieces %s", in, sizes)
	}
	require.Equal(t, string(want), string(o.Raw))
	ms, err := rawjson.Members(o.Raw)
	require.NoError(t, err)
	require.Equal(t, ms, o.Members)
	if m, found := rawjson.Find(ms, "tool_input"); found && m.Value[0] == '{' {
		sub, err := rawjson.Members(m.Value)
		require.NoError(t, err)
		require.True(t, o.HasSub)
		require.Equal(t, sub, o.Sub)
	} else {
		require.False(t, o.HasSub)
	}
}

// longText is a string content of more than rawjson.LongString bytes
// with escapes of every kind, so that the strings built of it are
// validated by the reader and stepped over by the splitter.
var longText = strings.Repeat(`caf\u00e9 \"q\" \\ \/ \b\f\n\r\t Zürich \ud800 `, 16)

// TestReadObjectStringsInPieces reads objects with long and short
// strings, valid and not, cut into pieces at every offset: a piece may
// end anywhere in an escape. Each must be read as jsontext reads it
// whole.
func TestReadObjectStringsInPieces(t *testing.T) {
	inputs := []string{
		`{"tool_input":{"notes":"` + longText + `","n":1},"s":"` + longText + `"}`,
		`{"` + longText + `":1,"b":"` + longText + `"}`,
		`{"a":"` + longText + `\u00g0"}`,
		`{"a":"` + longText + `\x"}`,
		`{"a":"` + longText + "\x01" + `"}`,
		`{"a":"` + longText + `\u12"}`,
		`{"a":"` + longText + `\`,
		`{"a":"` + longText + `","a":"` + longText + `"}`,
		`{"a":"\u00e9\n","b":"\ud83d\ude00"}`,
		`{"a":"\u00E9","b":[1,"x\"y"]}   `,
	}
	for _, in := range inputs {
		for cut := 1; cut < len(in); cut++ {
			// One piece of cut bytes, then the rest in pieces of 7.
			checkRead(t, []byte(in), pieces{first: cut, sizes: []byte{6}})
		}
		checkRead(t, []byte(in), pieces{}) // a byte at a time
	}
}

// FuzzReadObject reads random input in random pieces and checks it
// against jsontext (see checkRead).
func FuzzReadObject(f *testing.F) {
	f.Add([]byte(`{"tool_input":{"a":"`+longText+`"},"x":"y"}`), []byte{3, 200, 17})
	f.Add([]byte(`{"a":"\u00e9"}`), []byte{0})
	f.Add([]byte(`{"a":"\u0`+"0"+`e9","b":{"c":[true,null,-1.5e3]}}`), []byte{2, 5})
	f.Add([]byte("\xEF\xBB\xBF {\"a\":\"\\\"\"} \n"), []byte{1})
	f.Fuzz(func(t *testing.T, in, sizes []byte) {
		checkRead(t, in, pieces{sizes: sizes})
	})
}
