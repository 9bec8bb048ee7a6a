package hook

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// The input side's properties, on tool results of every shape: a string,
// an array of content blocks, an MCP result object, null and numbers,
// with tricky spellings, unknown members and whitespace everywhere.

// resultGen writes random tool results.
type resultGen struct {
	r      *rand.Rand
	spaced bool
}

// ws returns whitespace or nothing between two tokens.
func (g *resultGen) ws() string {
	if !g.spaced || g.r.Intn(3) > 0 {
		return ""
	}
	return []string{" ", "\n", "\t ", "\r\n  "}[g.r.Intn(4)]
}

// object writes a JSON object of the members, in order, with unknown
// members at random places.
func (g *resultGen) object(members []string, depth int) string {
	used := map[string]bool{}
	for _, m := range members {
		name, _, _ := strings.Cut(m, ":")
		used[string(rawjson.AppendExactUnquote(nil, []byte(name)))] = true
	}
	for range g.r.Intn(3) {
		n := fuzzNames[g.r.Intn(len(fuzzNames))]
		key := string(rawjson.AppendExactUnquote(nil, []byte(n)))
		if used[key] || key == "text" || key == "type" {
			continue
		}
		used[key] = true
		at := g.r.Intn(len(members) + 1)
		members = append(members[:at], append([]string{n + ":" + genAny(g.r, depth+1)}, members[at:]...)...)
	}
	parts := make([]string, len(members))
	for i, m := range members {
		name, value, _ := strings.Cut(m, ":")
		parts[i] = g.ws() + name + g.ws() + ":" + g.ws() + value + g.ws()
	}
	return "{" + strings.Join(parts, ",") + g.ws() + "}"
}

// array writes a JSON array of the elements.
func (g *resultGen) array(elems []string) string {
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = g.ws() + e + g.ws()
	}
	return "[" + strings.Join(parts, ",") + g.ws() + "]"
}

func (g *resultGen) str() string { return fuzzStrings[g.r.Intn(len(fuzzStrings))] }

// block writes a content block: mostly text blocks, with the neighbours
// a result holds (images, resources, links) and odd ones.
func (g *resultGen) block(depth int) string {
	switch g.r.Intn(10) {
	case 0:
		return g.object([]string{`"type":"image"`, `"data":` + g.str(), `"mimeType":"image/png"`}, depth)
	case 1:
		res := g.object([]string{`"uri":` + g.str(), `"text":` + g.str()}, depth+1)
		return g.object([]string{`"type":"resource"`, `"resource":` + res}, depth)
	case 2:
		res := g.object([]string{`"uri":` + g.str(), `"blob":` + g.str()}, depth+1)
		return g.object([]string{`"type":"resource"`, `"resource":` + res}, depth)
	case 3:
		return g.object([]string{`"type":"resource_link"`, `"uri":` + g.str(), `"name":` + g.str()}, depth)
	case 4:
		// Escaped names and type, as the client reads them.
		return g.object([]string{`"t\u0079pe":"t\u0065xt"`, `"te\u0078t":` + g.str()}, depth)
	case 5:
		return g.object([]string{`"type":"text"`, `"text":` + fuzzNumbers[g.r.Intn(len(fuzzNumbers))]}, depth)
	case 6:
		return genAny(g.r, depth+1)
	}
	return g.object([]string{`"type":"text"`, `"text":` + g.str()}, depth)
}

// result writes a tool result of a random shape.
func (g *resultGen) result() string {
	blocks := func() string {
		n := g.r.Intn(5)
		elems := make([]string, n)
		for i := range elems {
			elems[i] = g.block(1)
		}
		return g.array(elems)
	}
	var v string
	switch g.r.Intn(8) {
	case 0:
		v = g.str()
	case 1, 2, 3:
		v = blocks()
	case 4, 5:
		ms := []string{`"content":` + blocks()}
		switch g.r.Intn(3) {
		case 0:
			ms = append(ms, `"structuredContent":`+genAny(g.r, 1))
		case 1:
			ms = append(ms, `"structuredContent":null`)
		}
		if g.r.Intn(2) == 0 {
			ms = append(ms, `"isError":false`)
		}
		g.r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		v = g.object(ms, 0)
	case 6:
		v = `{"structuredContent":` + genAny(g.r, 1) + `}`
	default:
		v = []string{"null", "true", fuzzNumbers[g.r.Intn(len(fuzzNumbers))]}[g.r.Intn(3)]
	}
	return g.ws() + v + g.ws()
}

// textPointers lists the JSON pointers of the texts of the result v, as
// hook.EditText documents them, read from the decoded members (an
// oracle written apart from the engine).
func textPointers(t *testing.T, v []byte) []string {
	var ptrs []string
	var walkAll func(v []byte, ptr string)
	walkAll = func(v []byte, ptr string) {
		switch jsontext.Value(v).Kind() {
		case '"':
			ptrs = append(ptrs, ptr)
		case '[':
			es, _ := rawjson.ElementsTrusted(v)
			for i, e := range es {
				walkAll(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		case '{':
			ms, err := rawjson.Members(v)
			require.NoError(t, err)
			for _, m := range ms {
				walkAll(m.Value, ptr+"/"+rawjson.PointerToken(m.Key))
			}
		}
	}
	blockTexts := func(v []byte, ptr string) {
		es, _ := rawjson.ElementsTrusted(v)
		for i, e := range es {
			var b struct {
				Type     jsontext.Value `json:"type"`
				Text     jsontext.Value `json:"text"`
				Resource struct {
					Text jsontext.Value `json:"text"`
				} `json:"resource"`
			}
			if jsontext.Value(e).Kind() != '{' || wire.Unmarshal(e, &b) != nil {
				continue
			}
			var typ string
			if b.Type.Kind() == '"' {
				typ, _ = wire.Unquote(b.Type)
			}
			switch {
			case typ == "text" && b.Text.Kind() == '"':
				ptrs = append(ptrs, fmt.Sprintf("%s/%d/text", ptr, i))
			case typ == "resource" && b.Resource.Text.Kind() == '"':
				ptrs = append(ptrs, fmt.Sprintf("%s/%d/resource/text", ptr, i))
			}
		}
	}
	v = bytes.TrimSpace(v)
	switch jsontext.Value(v).Kind() {
	case '"':
		ptrs = append(ptrs, "")
	case '[':
		blockTexts(v, "")
	case '{':
		ms, err := rawjson.Members(v)
		require.NoError(t, err)
		for _, m := range ms {
			switch {
			case m.Key == "content" && jsontext.Value(m.Value).Kind() == '[':
				blockTexts(m.Value, "/content")
			case m.Key == "structuredContent" && jsontext.Value(m.Value).Kind() != 'n':
				walkAll(m.Value, "/structuredContent")
			}
		}
	}
	return ptrs
}

// keptBut checks that in and out agree everywhere except at the JSON
// pointers changed, where out's string must be what want makes of in's:
// every other value has the same bytes, and objects and arrays on the
// way have the same members and elements in the same order.
func keptBut(t *testing.T, in, out []byte, ptr string, changed map[string]bool, want func(string) string) {
	t.Helper()
	in, out = bytes.TrimSpace(in), bytes.TrimSpace(out)
	if changed[ptr] {
		was, _ := wire.Unquote(in)
		got, ok := wire.Unquote(out)
		require.True(t, ok, "%s: not a string: %s", ptr, out)
		require.Equal(t, want(was), got, "%s", ptr)
		return
	}
	on := false
	for c := range changed {
		if strings.HasPrefix(c, ptr+"/") {
			on = true
			break
		}
	}
	if !on {
		require.Equal(t, string(in), string(out), "%s changed", ptr)
		return
	}
	switch in[0] {
	case '{':
		ims, err := rawjson.Members(in)
		require.NoError(t, err)
		oms, err := rawjson.Members(out)
		require.NoError(t, err)
		require.Equal(t, len(ims), len(oms), "%s: member count", ptr)
		for i := range ims {
			require.Equal(t, string(ims[i].Name), string(oms[i].Name), "%s: member %d", ptr, i)
			keptBut(t, ims[i].Value, oms[i].Value, ptr+"/"+rawjson.PointerToken(ims[i].Key), changed, want)
		}
	case '[':
		ies, _ := rawjson.ElementsTrusted(in)
		oes, _ := rawjson.ElementsTrusted(out)
		require.Equal(t, len(ies), len(oes), "%s: element count", ptr)
		for i := range ies {
			keptBut(t, ies[i], oes[i], fmt.Sprintf("%s/%d", ptr, i), changed, want)
		}
	default:
		t.Fatalf("%s: a %s on the way to a changed text", ptr, rawjson.KindName(in))
	}
}

// FuzzEditAnyValue edits random tool results of every shape with
// EditText and with Edit's typed views, and checks the input side's
// properties: the edited texts hold the change, every other byte is
// kept, and an edit that changes nothing returns the original.
func FuzzEditAnyValue(f *testing.F) {
	for i := range 16 {
		f.Add(int64(i), uint8(i), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, seed int64, pick uint8, spaced bool) { fuzzEditAnyValue(t, seed, pick, spaced) })
}

// TestEditAnyValueExercises runs the fuzz body on many seeds and checks
// that most of them reach the checks, so that the fuzz target cannot pass
// by skipping.
func TestEditAnyValueExercises(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	texts, typed := 0, 0
	for i := range n {
		c := fuzzEditAnyValue(t, int64(i), uint8(i*7), i%3 == 0)
		if c.texts {
			texts++
		}
		if c.typed {
			typed++
		}
	}
	require.Greater(t, texts, n*3/10, "results with a text edited by EditText")
	require.Greater(t, typed, n/5, "results edited with a typed view")
	t.Logf("%d of %d edited by EditText, %d with a typed view", texts, n, typed)
}

// anyValueChecked says which of fuzzEditAnyValue's checks changed a text.
type anyValueChecked struct{ texts, typed bool }

func fuzzEditAnyValue(t *testing.T, seed int64, pick uint8, spaced bool) (c anyValueChecked) {
	g := &resultGen{r: rand.New(rand.NewSource(seed)), spaced: spaced}
	in := []byte(g.result())
	if !wire.Valid(in) {
		return c // a duplicate name the generator made: not a result
	}
	trimmed := bytes.TrimSpace(in)
	ptrs := textPointers(t, in)

	// EditText, changing nothing: the original, and every text seen.
	calls := 0
	same, err := EditText(in, func(s string) (string, error) { calls++; return s, nil })
	if jsontext.Value(trimmed).Kind() == '{' && len(ptrs) == 0 {
		if _, ok := rawjson.Find(mustMembers(t, trimmed), "content"); !ok {
			if sc, ok := rawjson.Find(mustMembers(t, trimmed), "structuredContent"); !ok || sc.Value[0] == 'n' {
				require.Error(t, err, "an object without texts: %s", in)
				return c
			}
		}
	}
	require.NoError(t, err, "%s", in)
	require.Equal(t, string(trimmed), string(same), "a no-op EditText")
	require.Equal(t, len(ptrs), calls, "texts of %s: %v", in, ptrs)

	// EditText, changing the texts whose pointer pick selects (every
	// text for some picks): they change, nothing else does.
	changed := map[string]bool{}
	for i, p := range ptrs {
		if pick%4 == 0 || i%3 == int(pick)%3 {
			changed[p] = true
		}
	}
	mark := func(s string) string { return s + "\\\"é\u2028" }
	i := 0
	out, err := EditText(in, func(s string) (string, error) {
		defer func() { i++ }()
		if changed[ptrs[i]] {
			return mark(s), nil
		}
		return s, nil
	})
	require.NoError(t, err)
	require.True(t, wire.Valid(out), "invalid %s", out)
	keptBut(t, in, out, "", changed, mark)
	if len(changed) == 0 {
		require.Equal(t, string(trimmed), string(out))
	} else {
		c.texts = true
		// Only the texts' bytes differ: whitespace between tokens is
		// kept.
		require.Equal(t, strings.Count(string(trimmed), "\n")+strings.Count(string(trimmed), "\t"),
			strings.Count(string(out), "\n")+strings.Count(string(out), "\t"), "whitespace of %s\nin %s", in, out)
	}
	again, err := EditText(out, func(s string) (string, error) { return s, nil })
	require.NoError(t, err)
	require.Equal(t, string(out), string(again), "a no-op EditText of the edited result")

	// Edit with the view of the result's kind.
	switch jsontext.Value(trimmed).Kind() {
	case '"':
		same, err := Edit(in, func(s *string) error { return nil })
		require.NoError(t, err)
		require.Equal(t, string(trimmed), string(same))
		got, err := Edit(in, func(s *string) error { *s = mark(*s); return nil })
		require.NoError(t, err)
		keptBut(t, in, got, "", map[string]bool{"": true}, mark)
		c.typed = true
	case '[':
		var view []ContentBlock
		if wire.Unmarshal(trimmed, &view) != nil {
			return c // an element that is no block
		}
		same, err := Edit(in, func(bs *[]ContentBlock) error { return nil })
		require.NoError(t, err)
		require.Equal(t, string(trimmed), string(same))
		if len(view) == 0 {
			return c
		}
		k := int(pick) % len(view)
		if ies, _ := rawjson.ElementsTrusted(trimmed); ies[k][0] != '{' {
			return c // a null block: there is nothing to keep, it is written whole
		}
		got, err := Edit(in, func(bs *[]ContentBlock) error { (*bs)[k].Text = mark((*bs)[k].Text); return nil })
		require.NoError(t, err)
		require.True(t, wire.Valid(got), "invalid %s", got)
		var back []ContentBlock
		require.NoError(t, wire.Unmarshal(got, &back))
		view[k].Text = mark(view[k].Text)
		require.Equal(t, view, back, "in %s\nout %s", in, got)
		keptBytes(t, trimmed, got, "", fmt.Sprintf("/%d/text", k))
		// Deleting the block keeps every other one's bytes.
		del, err := Edit(in, func(bs *[]ContentBlock) error { *bs = append((*bs)[:k], (*bs)[k+1:]...); return nil })
		require.NoError(t, err)
		ies, _ := rawjson.ElementsTrusted(trimmed)
		des, _ := rawjson.ElementsTrusted(del)
		require.Equal(t, len(ies)-1, len(des), "%s", del)
		// The elements around the deleted one are matched by the equal
		// prefix and suffix, or by place, and a block equal to its
		// neighbour may be the one dropped: compare the decoded blocks,
		// and the bytes of the prefix.
		var left []ContentBlock
		require.NoError(t, wire.Unmarshal(del, &left))
		require.Equal(t, append(append([]ContentBlock{}, view[:k]...), view[k+1:]...), left)
		for j := range k {
			require.Equal(t, string(ies[j]), string(des[j]), "element %d before the deleted %d", j, k)
		}
		c.typed = true
	}
	return c
}

func mustMembers(t *testing.T, v []byte) []rawjson.Member {
	ms, err := rawjson.Members(v)
	require.NoError(t, err)
	return ms
}

// FuzzEditTextBytes gives EditText arbitrary bytes: it refuses what is not
// one valid JSON value, never panics, and on a valid value keeps every
// byte but the texts it changes, as the oracle finds them.
func FuzzEditTextBytes(f *testing.F) {
	for _, s := range []string{
		`"a"`, `[{"type":"text","text":"a"}]`, `{"content":[{"type":"text","text":"a"}],"structuredContent":{"k":["v"]}}`,
		`[{"type":"resource","resource":{"text":"r"}}]`, `{"stdout":"x"}`, `null`, ` [ ] `, `[{"type":"text","text":"\ud800"}]`,
		`{"content":[],"content":[]}`, `[1,`, "\"\xff\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		mark := func(s string) string { return s + "!" }
		out, err := EditText(in, func(s string) (string, error) { return mark(s), nil })
		if !wire.Valid(in) {
			require.Error(t, err)
			return
		}
		if err != nil {
			require.Equal(t, byte('{'), bytes.TrimSpace(in)[0], "only an object is refused: %v", err)
			return
		}
		require.True(t, wire.Valid(out), "invalid %q", out)
		ptrs := textPointers(t, in)
		changed := map[string]bool{}
		for _, p := range ptrs {
			changed[p] = true
		}
		keptBut(t, in, out, "", changed, mark)
		same, err := EditText(in, func(s string) (string, error) { return s, nil })
		require.NoError(t, err)
		require.Equal(t, string(bytes.TrimSpace(in)), string(same))
	})
}
