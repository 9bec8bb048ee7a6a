package hooktest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func memberErrors(t *testing.T, err error) []*hooktest.MemberError {
	t.Helper()
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "%v", err)
	var out []*hooktest.MemberError
	for _, e := range j.Unwrap() {
		me, ok := e.(*hooktest.MemberError)
		require.True(t, ok, "%T", e)
		out = append(out, me)
	}
	return out
}

func TestCheckPreserved(t *testing.T) {
	in := jsontext.Value(`{"room":"Bob's \"war room\"","n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2}}`)
	type want struct{ ptr, problem string }
	cases := []struct {
		name    string
		out     string
		changed []string
		want    []want
	}{
		{name: "same bytes", out: string(in)},
		{name: "added member", out: `{"room":"Bob's \"war room\"","n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2},"fingerprint":"abc"}`},
		{name: "whitespace", out: "{ \"room\" : \"Bob's \\\"war room\\\"\",\n \"n\": 12345678901234567890, \"price\": 2.50, \"city\": \"K\\u00f6ln\", \"odd\": \"\\ud800\", \"nested\": { \"b\": 1, \"a\": 2 } }"},
		{name: "changed on purpose", changed: []string{"room"}, out: `{"room":"lobby","n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2}}`},
		{name: "lost", out: `{"fingerprint":"abc"}`, want: []want{
			{"/room", hooktest.ProblemLost}, {"/n", hooktest.ProblemLost}, {"/price", hooktest.ProblemLost},
			{"/city", hooktest.ProblemLost}, {"/odd", hooktest.ProblemLost}, {"/nested", hooktest.ProblemLost},
		}},
		{name: "changed", out: `{"room":"lobby","n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2}}`,
			want: []want{{"/room", hooktest.ProblemChanged}}},
		{name: "rewritten", out: `{"room":"Bob's \"war room\"","n":12345678901234567000,"price":2.5,"city":"Köln","odd":"\ufffd","nested":{"a":2,"b":1}}`,
			want: []want{
				{"/n", hooktest.ProblemRewritten}, {"/price", hooktest.ProblemRewritten}, {"/city", hooktest.ProblemRewritten},
				{"/odd", hooktest.ProblemRewritten}, {"/nested", hooktest.ProblemRewritten},
			}},
		{name: "name rewritten", out: `{"\u0072oom":"Bob's \"war room\"","n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2}}`,
			want: []want{{"/room", hooktest.ProblemRewritten}}},
		{name: "moved", out: `{"n":12345678901234567890,"price":2.50,"city":"K\u00f6ln","odd":"\ud800","nested":{"b":1,"a":2},"room":"Bob's \"war room\""}`,
			want: []want{{"/room", hooktest.ProblemMoved}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := hooktest.CheckPreserved(in, jsontext.Value(tc.out), tc.changed...)
			mes := memberErrors(t, err)
			require.Len(t, mes, len(tc.want), "%v", err)
			for i, w := range tc.want {
				assert.Equal(t, w.ptr, mes[i].Pointer)
				assert.Equal(t, w.problem, mes[i].Problem)
			}
		})
	}
}

func TestCheckPreservedMessages(t *testing.T) {
	in := jsontext.Value(`{"room":"Probe","price":2.50,"a/b~c":1}`)
	err := hooktest.CheckPreserved(in, jsontext.Value(`{"price":2.5,"fingerprint":"abc","a/b~c":2}`))
	assert.EqualError(t, err, "/room: member lost (a hook must keep every tool_input member it did not change)\n"+
		"/price: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)\n"+
		"/a~1b~0c: member changed from 1 to 2 (a hook must keep every tool_input member it did not change)")
}

func TestCheckPreservedIsNotJSONEq(t *testing.T) {
	// The values a map[string]any round trip produces are JSONEq-equal,
	// and still broken.
	in := jsontext.Value(`{"z":1,"price":2.50,"html":"\u003cb\u003e"}`)
	var m map[string]any
	require.NoError(t, json.Unmarshal(in, &m))
	out, err := json.Marshal(m)
	require.NoError(t, err)
	assert.JSONEq(t, string(in), string(out))
	assert.EqualError(t, hooktest.CheckPreserved(in, out),
		"/z: member moved (a hook must keep every tool_input member it did not change)\n"+
			"/price: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)\n"+
			"/price: member moved (a hook must keep every tool_input member it did not change)")
}

func TestCheckPreservedMergeKeepsEverything(t *testing.T) {
	for _, v := range hooktest.TrickyValues() {
		in := jsontext.Value(`{"room":` + string(v.JSON) + `,"n":1}`)
		out, err := hook.Merge(in, map[string]string{"fingerprint": "abc"})
		require.NoError(t, err, v.Name)
		assert.NoError(t, hooktest.CheckPreserved(in, out), v.Name)
	}
}

func TestCheckPreservedBadObjects(t *testing.T) {
	ok := jsontext.Value(`{"a":1}`)
	for _, bad := range []string{`[1]`, `{"a":1,"a":2}`, `{"a":`, ``} {
		err := hooktest.CheckPreserved(jsontext.Value(bad), ok)
		assert.ErrorContains(t, err, "the input", bad)
		err = hooktest.CheckPreserved(ok, jsontext.Value(bad))
		assert.ErrorContains(t, err, "the output", bad)
		var me *hooktest.MemberError
		assert.False(t, errors.As(err, &me))
	}
}

// BenchmarkCheckPreserved checks objects of 1k, 10k and 100k members in
// which one member changed: time must grow linearly with the count.
func BenchmarkCheckPreserved(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		var in, out strings.Builder
		in.WriteString("{")
		out.WriteString("{")
		for i := range n {
			if i > 0 {
				in.WriteString(",")
				out.WriteString(",")
			}
			fmt.Fprintf(&in, `"k%d":%d`, i, i)
			if i == n/2 {
				fmt.Fprintf(&out, `"k%d":"changed"`, i)
			} else {
				fmt.Fprintf(&out, `"k%d":%d`, i, i)
			}
		}
		in.WriteString("}")
		out.WriteString("}")
		iv, ov := jsontext.Value(in.String()), jsontext.Value(out.String())
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := hooktest.CheckPreserved(iv, ov, fmt.Sprintf("k%d", n/2)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
