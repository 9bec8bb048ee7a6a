package rawjson_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// checkSame checks that the fast scanners agree with the jsontext-based
// reference on raw: the validating scanner accepts raw exactly when the
// reference does, both split it the same way, and the trusted scanner
// splits every accepted input the same way too. It returns whether raw was
// accepted.
func checkSame(t testing.TB, raw []byte) bool {
	t.Helper()
	checkValid(t, raw)
	want, werr := rawjson.MembersReference(raw)
	got, _, ok := rawjson.MembersFast(raw)
	if !assert.Equal(t, werr == nil, ok, "validating scanner disagrees with jsontext on %q (jsontext: %v)", clip(raw), werr) {
		return false
	}
	pub, perr := rawjson.Members(raw)
	assert.Equal(t, werr, perr, "Members error on %q", clip(raw))
	if werr != nil {
		return false
	}
	// MembersCompact is the same split, and its compact flag is Valid's.
	cms, compact, cerr := rawjson.MembersCompact(raw)
	assert.NoError(t, cerr)
	assertMembers(t, raw, want, cms, "MembersCompact")
	_, validCompact := rawjson.Valid(raw)
	assert.Equal(t, validCompact, compact, "MembersCompact's compact flag on %q", clip(raw))
	// HasKey finds every key the split has.
	for _, m := range want {
		found, ok := rawjson.HasKey(raw, []string{m.Key})
		assert.True(t, ok && found, "HasKey(%q) on %q", m.Key, clip(raw))
	}
	// MembersSub splits every member's object value as Members does.
	for _, m := range want {
		if m.Key == "" {
			continue // MembersSub's sub "" names no member
		}
		sms, subMs, found, scompact, serr := rawjson.MembersSub(raw, m.Key, 1<<30)
		if !assert.NoError(t, serr) {
			continue
		}
		assertMembers(t, raw, want, sms, "MembersSub")
		assert.Equal(t, compact, scompact, "MembersSub's compact flag")
		isObj := rawjson.KindName(m.Value) == "object"
		assert.Equal(t, isObj, found, "MembersSub found %q in %q", m.Key, clip(raw))
		if isObj {
			wantSub, err := rawjson.MembersReference(m.Value)
			require.NoError(t, err)
			assertMembers(t, m.Value, wantSub, subMs, "MembersSub's sub object")
		}
	}
	if _, subMs, found, _, err := rawjson.MembersSub(raw, "\x00none", 1<<30); assert.NoError(t, err) {
		assert.False(t, found)
		assert.Nil(t, subMs)
	}
	assertMembers(t, raw, want, got, "validating scanner")
	assertMembers(t, raw, want, pub, "Members")
	tr, tok := rawjson.MembersTrustedOK(raw)
	if assert.True(t, tok, "trusted scanner refused valid %q", clip(raw)) {
		assertMembers(t, raw, want, tr, "trusted scanner")
	}
	checkWalk(t, raw, want)
	return true
}

// checkWalk checks that a TrustedWalk of the valid object raw meets the
// members want, names and values as the same bytes, and then stays done.
func checkWalk(t testing.TB, raw []byte, want []rawjson.Member) {
	t.Helper()
	w, ok := rawjson.NewTrustedWalk(raw)
	if !assert.True(t, ok, "TrustedWalk refused valid %q", clip(raw)) {
		return
	}
	for i := 0; ; i++ {
		name, value, done, bad := w.Next()
		if !assert.False(t, bad, "TrustedWalk: bad at member %d of %q", i, clip(raw)) {
			return
		}
		if done {
			assert.Equal(t, len(want), i, "TrustedWalk: members of %q", clip(raw))
			break
		}
		if !assert.Less(t, i, len(want), "TrustedWalk: too many members in %q", clip(raw)) {
			return
		}
		assert.Equal(t, string(want[i].Name), string(name), "TrustedWalk: name %d of %q", i, clip(raw))
		assert.Equal(t, string(want[i].Value), string(value), "TrustedWalk: value %d of %q", i, clip(raw))
	}
	_, _, done, bad := w.Next()
	assert.True(t, done && !bad, "TrustedWalk: not done after the end of %q", clip(raw))
}

// checkValid checks Valid against jsontext on raw: a value is valid
// exactly when jsontext reads it, and compact exactly when an encoder with
// the library's output options writes it back unchanged.
func checkValid(t testing.TB, raw []byte) {
	t.Helper()
	valid, compact := rawjson.Valid(raw)
	// jsontext's duplicate check compares names after U+FFFD replacement;
	// the reference compares them as JavaScript does (CheckNames).
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsonopts.Read())
	_, err := dec.ReadValue()
	if err == nil {
		err = rawjson.CheckNames(raw)
	}
	if err == nil {
		if _, e := dec.ReadToken(); e != io.EOF {
			err = fmt.Errorf("after the value: %v", e)
		}
	}
	if !assert.Equal(t, err == nil, valid, "Valid disagrees with jsontext on %q (jsontext: %v)", clip(raw), err) || !valid {
		return
	}
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, jsonopts.Preserve())
	require.NoError(t, enc.WriteValue(raw))
	same := bytes.Equal(bytes.TrimRight(out.Bytes(), "\n"), bytes.Trim(raw, " \t\r\n"))
	assert.Equal(t, same, compact, "compact on %q (encoded: %q)", clip(raw), clip(out.Bytes()))
}

func assertMembers(t testing.TB, raw []byte, want, got []rawjson.Member, who string) {
	t.Helper()
	if !assert.Len(t, got, len(want), "%s: member count on %q", who, clip(raw)) {
		return
	}
	for i := range want {
		assert.Equal(t, want[i].Key, got[i].Key, "%s: key of member %d of %q", who, i, clip(raw))
		assert.Equal(t, string(want[i].Name), string(got[i].Name), "%s: name of member %d of %q", who, i, clip(raw))
		assert.Equal(t, string(want[i].Value), string(got[i].Value), "%s: value of member %d of %q", who, i, clip(raw))
	}
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// cases are objects valid and invalid; each comment says what is tested.
var cases = []string{
	`{}`, ` { } `, "\t{\r\n}\n", `{"a":1}`, ` {"a" : 1 , "b":[ 1 , 2 ] } `,
	`{"a":{"b":{"c":[{}, [], "x", 1, true, false, null]}}}`,
	`{"empty":"","sp":" ","uni":"\u00f6\u00F6","pair":"\ud83d\ude00","lone":"\ud800","low":"x\udfffy"}`,
	`{"esc":"\"\\\/\b\f\n\r\t\u0000\u001f"}`,
	"{\"raw\":\"\x7f\x80\xff\xc3\xa9\xed\xa0\x80\"}", // DEL, invalid UTF-8, encoded surrogate
	`{"n":0,"n2":-0,"n3":1.5,"n4":-1.5e10,"n5":2E-3,"n6":1e+9,"n7":123456789012345678901234567890,"n8":2.50,"n9":1e400}`,
	// Invalid numbers.
	`{"n":01}`, `{"n":-}`, `{"n":1.}`, `{"n":.5}`, `{"n":1e}`, `{"n":1e+}`, `{"n":+1}`, `{"n":1.5.2}`, `{"n":0x10}`, `{"n":--1}`, `{"n":1ee2}`, `{"n":NaN}`, `{"n":Infinity}`,
	// Invalid literals.
	`{"a":tru}`, `{"a":nul}`, `{"a":falsey}`, `{"a":True}`, `{"a":truefalse}`, `{"a":null1}`,
	// Invalid strings.
	"{\"a\":\"x\ny\"}", "{\"a\":\"\x00\"}", "{\"a\":\"\x1f\"}", `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":"\U0041"}`, `{"a":"\'"}`, `{"a":"abc}`, `{"a":"abc\"}`, `{"a":'x'}`,
	// Duplicate names, at every depth and through escapes.
	`{"a":1,"a":2}`, `{"a":1,"b":2,"a":3}`, `{"a":{"b":1,"b":2}}`, `{"a":[{"x":1},{"x":1,"x":2}]}`,
	`{"a":1,"\u0061":2}`, `{"\ud800":1,"\ud800":2}`, `{"\udc00":1,"x":2,"\uDC00":3}`, "{\"\xff\":1,\"\\ufffd\":2}", "{\"\xff\":1,\"\xfe\":2}",
	`{"a/b":1,"a\/b":2}`, `{"é":1,"\u00e9":2}`, `{"é":1,"\u00c9":2}`,
	// The same name in different objects is not a duplicate.
	`{"a":{"a":{"a":1}},"b":{"a":1},"c":[{"a":1},{"a":2}]}`, `{"x":{"k":1},"y":{"k":1}}`,
	// Not objects, more than one value, broken structure.
	``, ` `, `[]`, `"x"`, `1`, `null`, `true`, `{}{}`, `{} {}`, `{}x`, `{},`, `{"a":1}]`, `{"a":1`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{a:1}`, `{1:1}`, `{"a":1,}`, `{,"a":1}`, `{"a":1 "b":2}`,
	` "x" `, `[1, 2]`, `[1,2]`, ` -1.5 `, `[{"a":1,"a":2}]`, `[{"a":"x"} , "y"]`, `"\u0000\/"`, `[]]`, `"a" "b"`,
	`{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`, `{"a":[}`, `{"a":{]}`, `{"a":[1}]}`, `{"a":{"b":1]}`, `{"a":1}}`, "\xef\xbb\xbf{}", "{\"a\":1}\x00", "{\"a\":\v1}",
}

func TestMembersAgreesWithJSONText(t *testing.T) {
	for _, c := range cases {
		checkSame(t, []byte(c))
	}
}

func TestMembersRefusesWhatItMust(t *testing.T) {
	for _, c := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":1,"\u0061":2}`, `[]`, `{"n":01}`, "{\"a\":\"\x01\"}", `{}{}`} {
		_, err := rawjson.Members([]byte(c))
		assert.Error(t, err, c)
	}
	_, err := rawjson.Members([]byte(`[1]`))
	assert.ErrorIs(t, err, rawjson.ErrNotObject)
	_, err = rawjson.Members([]byte(`{"a":1,"a":2}`))
	assert.ErrorContains(t, err, "duplicate")
}

func TestMembersDepthLimit(t *testing.T) {
	for _, n := range []int{1, rawjson.MaxDepth - 2, rawjson.MaxDepth - 1, rawjson.MaxDepth, rawjson.MaxDepth + 1} {
		arrays := `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
		objects := strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
		ok := checkSame(t, []byte(arrays))
		assert.Equal(t, n < rawjson.MaxDepth, ok, "nested arrays %d deep", n)
		ok = checkSame(t, []byte(objects))
		assert.Equal(t, n <= rawjson.MaxDepth, ok, "nested objects %d deep", n)
	}
}

func TestMembersLargeObjects(t *testing.T) {
	// Objects around the size where the duplicate check switches to a map,
	// at the top and nested, with and without a duplicate at the end.
	for _, n := range []int{30, 31, 32, 33, 100} {
		for _, nested := range []bool{false, true} {
			for _, dup := range []string{"", "k0", "k31", fmt.Sprintf("k%d", n-1), `\u006b5`} {
				var b strings.Builder
				b.WriteString("{")
				for i := range n {
					fmt.Fprintf(&b, `"k%d":%d,`, i, i)
				}
				if dup != "" {
					fmt.Fprintf(&b, `"%s":0,`, dup)
				}
				b.WriteString(`"last":0}`)
				obj := b.String()
				if nested {
					obj = `{"outer":1,"in":` + obj + `,"k0":{"k0":1},"after":[` + obj + `]}`
				}
				key := strings.Replace(dup, `\u006b`, "k", 1)
				var isDup bool
				for i := range n {
					isDup = isDup || key == fmt.Sprintf("k%d", i)
				}
				assert.Equal(t, !isDup, checkSame(t, []byte(obj)), "%d names, %q added, nested %v", n, dup, nested)
			}
		}
	}
}

// tricky returns objects built from the hooktest corpus: every tricky value
// as a member, as the whole input, nested, and surrounded by whitespace.
func tricky() [][]byte {
	var out [][]byte
	var all strings.Builder
	all.WriteString("{")
	for i, v := range hooktest.TrickyValues() {
		out = append(out, []byte(`{"v":`+string(v.JSON)+`}`))
		out = append(out, []byte(" {\n\t\"before\" : 1 ,\r\n\"v\" :\t"+string(v.JSON)+" , \"after\":[ "+string(v.JSON)+" ]}\n"))
		if i > 0 {
			all.WriteString(",")
		}
		fmt.Fprintf(&all, "%q:%s", v.Name, v.JSON)
	}
	all.WriteString("}")
	out = append(out, []byte(all.String()))
	for _, p := range benchpayload.All() {
		out = append(out, p.Data)
	}
	return out
}

func TestMembersCorpus(t *testing.T) {
	for _, raw := range tricky() {
		require.True(t, checkSame(t, raw), "refused %q", clip(raw))
	}
}

// TestMembersMutations checks agreement on many near-valid inputs: every
// prefix of a set of valid objects, and each of them with one byte
// replaced, removed or doubled.
func TestMembersMutations(t *testing.T) {
	seeds := []string{
		`{"a":1,"b":[true,false,null],"c":{"d":"e\"\\\u00f6\ud800"},"n":-1.5e+3}`,
		` { "x" : [ { "y" : { } } , [ ] ] , "z" : "\t" } `,
		`{"room":"Ops \"war room\" \\ Zürich\tnight","k":"\u0061","a":0}`,
	}
	subst := []byte("\"\\{}[],: \t\n0123456789-+.eEtrufalsn\x00\x1f\x7f\x80\xffxu/bf")
	n := 0
	for _, s := range seeds {
		for i := 0; i <= len(s); i++ {
			checkSame(t, []byte(s[:i]))
			n++
			if i == len(s) {
				break
			}
			checkSame(t, []byte(s[:i]+s[i+1:]))
			checkSame(t, []byte(s[:i]+s[i:i+1]+s[i:]))
			n += 2
			for _, c := range subst {
				checkSame(t, []byte(s[:i]+string(c)+s[i+1:]))
				n++
			}
		}
	}
	t.Logf("%d inputs", n)
}

func TestMembersTrustedNeverPanics(t *testing.T) {
	walk := func(raw []byte) (n int) {
		w, ok := rawjson.NewTrustedWalk(raw)
		for ok {
			_, _, done, bad := w.Next()
			if done || bad {
				break
			}
			n++
		}
		return n
	}
	for _, c := range cases {
		assert.NotPanics(t, func() { rawjson.MembersTrusted([]byte(c)) }, c)
		assert.NotPanics(t, func() { walk([]byte(c)) }, c)
	}
	// What is not shaped like an object is bad, never done.
	for _, c := range []string{`{"a":1`, `{"a":1 "b":2}`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{,"a":1}`, `{"a`} {
		w, ok := rawjson.NewTrustedWalk([]byte(c))
		require.True(t, ok, c)
		var done, bad bool
		for !done && !bad {
			_, _, done, bad = w.Next()
		}
		assert.True(t, bad, "TrustedWalk of %q", c)
	}
	for _, c := range []string{``, ` `, `[1]`, `"a"`, `1`} {
		_, ok := rawjson.NewTrustedWalk([]byte(c))
		assert.False(t, ok, "NewTrustedWalk(%q)", c)
	}
	_, err := rawjson.MembersTrusted([]byte(`[1]`))
	assert.Error(t, err)
	ms, err := rawjson.MembersTrusted([]byte(` {"a" : "b\"}" , "c":{"d":[1,"]"]}} `))
	require.NoError(t, err)
	require.Len(t, ms, 2)
	assert.Equal(t, `"b\"}"`, string(ms[0].Value))
	assert.Equal(t, `{"d":[1,"]"]}`, string(ms[1].Value))
}

func TestFindAndAppendObject(t *testing.T) {
	ms, err := rawjson.Members([]byte(`{"a" : 1, "b\u0021":"x"}`))
	require.NoError(t, err)
	m, ok := rawjson.Find(ms, "b!")
	require.True(t, ok)
	assert.Equal(t, `"x"`, string(m.Value))
	_, ok = rawjson.Find(ms, "c")
	assert.False(t, ok)
	assert.Equal(t, `{"a":1,"b\u0021":"x"}`, string(rawjson.AppendObject(nil, ms)))
	assert.Equal(t, `{}`, string(rawjson.AppendObject(nil, nil)))
}

func TestPlainPrefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"abc", 3}, {`abc"def`, 3}, {`ab\n`, 2}, {"a\x01", 1}, {"\x1f", 0}, {"\x7fé\xff", 4},
		{strings.Repeat("x", 37) + `"`, 37}, {strings.Repeat("x", 64), 64}, {strings.Repeat("y", 9) + "\t", 9},
	} {
		assert.Equal(t, c.want, rawjson.PlainPrefix([]byte(c.in)), "%q", c.in)
	}
	// Agrees with a byte-by-byte scan at every offset of a benchpayload.
	p := benchpayload.Write(4096)
	for i := range p {
		want := i
		for want < len(p) && p[want] != '"' && p[want] != '\\' && p[want] >= 0x20 {
			want++
		}
		require.Equal(t, want-i, rawjson.PlainPrefix(p[i:]), "at offset %d", i)
	}
}

// TestSameTokens holds SameTokens to the compactor: a text and its
// compact form are the same tokens, and any other change is not.
func TestSameTokens(t *testing.T) {
	for _, c := range prettyCases {
		text := []byte(c)
		compact := rawjson.AppendCompact(nil, text)
		require.True(t, rawjson.SameTokens(text, compact), c)
		require.True(t, rawjson.SameTokens(compact, text), c)
		require.True(t, rawjson.SameTokens(text, text), c)
	}
	for _, c := range [][2]string{
		{`{"a":1}`, `{"a":2}`},
		{`{"a":1}`, `{"a":1,"b":2}`},
		{`{"a b":1}`, `{"ab":1}`},
		{`{"a":"x y"}`, `{"a":"x  y"}`},
		{`{"a":"x\" y"}`, `{"a":"x\"  y"}`},
		{`[1,2]`, `[12]`},
		{`"abc"`, `"ab"`},
		{`{"a":1}`, `{"a":1}x`},
		{`{"a":1}`, `{"a":1`},
	} {
		assert.False(t, rawjson.SameTokens([]byte(c[0]), []byte(c[1])), "%s %s", c[0], c[1])
		assert.False(t, rawjson.SameTokens([]byte(c[1]), []byte(c[0])), "%s %s", c[1], c[0])
	}
	// Cut input: no panic.
	assert.False(t, rawjson.SameTokens([]byte(`"abc`), []byte(`"abc"`)))
}

func TestElementsTrusted(t *testing.T) {
	for raw, want := range map[string][]string{
		`[]`:                                    nil,
		` [ ] `:                                 nil,
		`[1]`:                                   {`1`},
		`[ 1 , "a,]" ,{"k":[1,2]}, [[]] ,null]`: {`1`, `"a,]"`, `{"k":[1,2]}`, `[[]]`, `null`},
		`["\ud800","caf\u00e9",2.50]`:           {`"\ud800"`, `"caf\u00e9"`, `2.50`},
	} {
		got, ok := rawjson.ElementsTrusted([]byte(raw))
		require.True(t, ok, raw)
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
			assert.Equal(t, len(g), cap(g))
		}
		assert.Equal(t, want, gs, raw)
	}
	for _, raw := range []string{``, `{}`, `[1,`, `[1 2]`, `"x"`, `[`} {
		_, ok := rawjson.ElementsTrusted([]byte(raw))
		assert.False(t, ok, raw)
	}
}

// TestMembersSubMax: MembersSub splits the sub object when it has at most
// max members, and not beyond; the top-level split is the same either
// way.
func TestMembersSubMax(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100} {
		var b strings.Builder
		b.WriteString(`{"a":1,"in":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":[%d,{"x":"\u00e9"}]`, i, i)
		}
		b.WriteString(`},"z":"end"}`)
		raw := []byte(b.String())
		want, err := rawjson.Members(raw)
		require.NoError(t, err)
		for _, max := range []int{0, 8, 1 << 20} {
			ms, subMs, found, compact, err := rawjson.MembersSub(raw, "in", max)
			require.NoError(t, err)
			assert.True(t, compact)
			assertMembers(t, raw, want, ms, "MembersSub")
			assert.Equal(t, n <= max, found, "%d members, max %d", n, max)
			if n <= max {
				wantSub, err := rawjson.Members(want[1].Value)
				require.NoError(t, err)
				assertMembers(t, want[1].Value, wantSub, subMs, "sub object")
			} else {
				assert.Nil(t, subMs)
			}
		}
	}
}

// TestMembersLargeObjectNames checks the duplicate check of large nested
// objects, whose names the scanner keeps by reference into the input
// (or, for names that are not their own unquoted form, copied), on names
// of every kind, added before and after the object became large: an
// escape of an ASCII name, raw UTF-8 and its escape, two different
// invalid UTF-8 bytes (both read as U+FFFD, so the same name), a lone
// surrogate and U+FFFD (different names), and large objects inside large
// objects and inside the split sub object.
func TestMembersLargeObjectNames(t *testing.T) {
	pairs := []struct {
		a, b string
		dup  bool
	}{
		{`kk`, `\u006bk`, true},
		{`é`, `\u00e9`, true},
		{`\u00e9`, `é`, true},
		{"\xff", "\xfe", true},
		{`\ud800`, `\ufffd`, false},
		{`\ud800`, `\uD800`, true},
		{`a\"b`, `a\u0022b`, true},
		{`x`, `y`, false},
	}
	for _, p := range pairs {
		for _, at := range []int{0, 5, 40, 200} { // where a comes among the others
			var b strings.Builder
			b.WriteString("{")
			for i := range 300 {
				if i == at {
					fmt.Fprintf(&b, `"%s":0,`, p.a)
				}
				if i == 150 { // a large object inside the large one
					fmt.Fprintf(&b, `"inner":{`)
					for j := range 100 {
						fmt.Fprintf(&b, `"k%d":%d,`, j, j)
					}
					fmt.Fprintf(&b, `"%s":0},`, p.a)
				}
				fmt.Fprintf(&b, `"k%d":%d,`, i, i)
			}
			fmt.Fprintf(&b, `"%s":1}`, p.b)
			obj := b.String()
			for _, raw := range []string{
				`{"outer":1,"in":` + obj + `,"after":[` + obj + `]}`,
				`{"tool_input":` + obj + `}`, // a sub object keeps its names
				`{"tool_input":{"a":` + obj + `}}`,
			} {
				assert.Equal(t, !p.dup, checkSame(t, []byte(raw)), "%q then %q, a at %d: %.80s", p.a, p.b, at, raw)
			}
		}
	}
}

// TestHasKey: HasKey finds exactly the keys Members finds, as Member.Key
// holds them (escapes unquoted, lone surrogates kept), on the corpus and
// on names spelled with escapes, and no others.
func TestHasKey(t *testing.T) {
	inputs := append(tricky(), []byte(`{"\u006b7":1,"\ud800":2,"caf\u00e9":3,"a\"b":4}`), []byte(` { } `))
	for _, raw := range inputs {
		ms, err := rawjson.Members(raw)
		require.NoError(t, err)
		for _, m := range ms {
			found, ok := rawjson.HasKey(raw, []string{"not a key \x00", m.Key})
			assert.True(t, ok && found, "%q in %.80q", m.Key, raw)
		}
		found, ok := rawjson.HasKey(raw, []string{"not a key \x00", "\ufffd\ufffd"})
		assert.True(t, ok, "%.80q", raw)
		assert.False(t, found, "%.80q", raw)
	}
	found, ok := rawjson.HasKey([]byte(`{"\u006b7":1}`), []string{"k7"})
	assert.True(t, ok && found)
	_, ok = rawjson.HasKey([]byte(`[1]`), []string{"k7"})
	assert.False(t, ok)
}
