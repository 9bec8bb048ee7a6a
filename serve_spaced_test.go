package hook_test

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/testutil"
)

// Input with whitespace between its tokens (issue 32, item 6): a
// pretty-printed event, Python's json.dumps separators, CRLF, tabs. Its
// answers must be the answers to the same event compact, byte for byte,
// and a Merge of it must keep every untouched member byte for byte.

// compactJSON returns text without the whitespace between its tokens
// (encoding/json keeps the bytes of strings).
func compactJSON(t testing.TB, text []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, stdjson.Compact(&b, text))
	return b.Bytes()
}

// spacedForms returns the forms of the compact JSON text c with
// whitespace between its tokens: indented by json.Indent with two spaces
// and with tabs and CRLF, Python's separators, one member a line with
// every kind of whitespace, and whitespace around every token.
func spacedForms(t testing.TB, c []byte) map[string][]byte {
	t.Helper()
	indent := func(prefix, in string, crlf bool) []byte {
		var b bytes.Buffer
		require.NoError(t, stdjson.Indent(&b, c, prefix, in))
		if crlf {
			return bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))
		}
		return b.Bytes()
	}
	return map[string][]byte{
		"indent2":        indent("", "  ", false),
		"tabs CRLF":      indent(" ", "\t", true),
		"python":         benchpayload.Spaced(c),
		"indented mixed": benchpayload.Indented(c),
		"every token":    spaceEverywhere(c, []byte(" \t\r\n")),
	}
}

// spaceEverywhere returns the compact JSON text c with whitespace before
// and after every token, taken in turn from ws (which must be JSON
// whitespace; an empty ws inserts none).
func spaceEverywhere(c, ws []byte) []byte {
	var out []byte
	k := 0
	space := func() {
		if len(ws) > 0 {
			out = append(out, ws[k%len(ws)])
			k++
		}
	}
	in := false
	space()
	for i := 0; i < len(c); i++ {
		b := c[i]
		if in {
			out = append(out, b)
			if b == '\\' {
				i++
				out = append(out, c[i])
			} else if b == '"' {
				in = false
			}
			continue
		}
		switch b {
		case '{', '}', '[', ']', ',', ':':
			space()
			out = append(out, b)
			space()
		case '"':
			in = true
			out = append(out, b)
		default:
			out = append(out, b)
		}
	}
	space()
	return out
}

// withPad returns the compact event c with a member of a string of n
// bytes added to its tool_input, so that its Merge results are large
// enough to be spliced into the answer, over several blocks.
func withPad(t testing.TB, c []byte, n int) []byte {
	t.Helper()
	ms, err := rawjson.Members(c)
	require.NoError(t, err)
	var out []rawjson.Member
	for _, m := range ms {
		if m.Key == "tool_input" {
			v, err := hook.Merge(m.Value, map[string]string{"zz_pad": strings.Repeat("K\u00f6ln \"q\" \\ caf\u00e9 ", n/20)})
			require.NoError(t, err)
			m.Value = v
		}
		out = append(out, m)
	}
	return rawjson.AppendObject(nil, out)
}

// mergeAnswer returns a handler of PreToolUse and PermissionRequest that
// answers with a Merge of patch into the tool_input: the event's Merge,
// whose result the invocation vouches for, when vouched is set, else the
// package Merge on a copy, checked all the way. It checks that every
// member of the tool_input that patch does not name is in the result
// byte for byte.
func mergeAnswer(t *testing.T, patch jsontext.Value, vouched bool) hook.Handler {
	ps, err := rawjson.Members(patch)
	require.NoError(t, err)
	var named []string
	for _, p := range ps {
		named = append(named, p.Key)
	}
	merge := func(in jsontext.Value, eventMerge func(any) (jsontext.Value, error)) (jsontext.Value, error) {
		var upd jsontext.Value
		var err error
		if vouched {
			upd, err = eventMerge(patch)
		} else {
			upd, err = copyMerge(in, patch)
		}
		if err == nil {
			assert.NoError(t, hooktest.CheckPreserved(in, upd, named...))
		}
		return upd, err
	}
	pre := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := merge(e.ToolInput, e.Merge)
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "ok", UpdatedInput: upd}, nil
	})
	perm := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := merge(e.ToolInput, e.Merge)
		if err != nil {
			return nil, err
		}
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	return hook.HandlerFunc(func(ctx context.Context, e *hook.Event) (hook.Output, error) {
		if e.HookEventName == hook.EventPermissionRequest {
			return perm.ServeHook(ctx, e)
		}
		return pre.ServeHook(ctx, e)
	})
}

// mergeFixtures returns the compact payloads of the fixtures whose event
// carries an object tool_input that an answer can update.
func mergeFixtures(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range hooktest.Fixtures() {
		if f.Event != hook.EventPreToolUse && f.Event != hook.EventPermissionRequest {
			continue
		}
		c := compactJSON(t, f.JSON)
		ms, err := rawjson.Members(c)
		require.NoError(t, err, f.Name)
		if in, ok := rawjson.Find(ms, "tool_input"); ok && rawjson.KindName(in.Value) == "object" {
			out[f.Name] = c
		}
	}
	require.NotEmpty(t, out)
	return out
}

// TestSpacedInputAnswersAsCompact serves every fixture that carries a
// tool_input, compact and in every spaced form, small and padded to one
// and to several blocks of the vouched writer, with Merges that append a
// member, replace the first one, set a nested value and change nothing:
// the answer to every form is the answer to the compact one byte for
// byte, the vouched answer is the fully checked one, and every member
// the patch does not name is kept byte for byte in the Merge result.
func TestSpacedInputAnswersAsCompact(t *testing.T) {
	patches := []string{
		`{"fingerprint":"6689668a49dc648b"}`,
		`{"zz_pad":"short","extra":{"a":[1,{"b":null}]}}`,
		`{"x": [1, 2], "y" : {"z" : "lobby"}}`, // a patch with whitespace
		`{}`,
	}
	sizes := []int{0, 8 << 10, 600 << 10}
	if testing.Short() {
		sizes = sizes[:2]
	}
	fixtures := mergeFixtures(t)
	n := 0
	for name, c := range fixtures {
		for _, size := range sizes {
			if size > 0x2000 && n%4 != 0 {
				continue // the large sizes on a quarter of the fixtures
			}
			compact := c
			if size > 0 {
				compact = withPad(t, c, size)
			}
			forms := spacedForms(t, compact)
			for _, patch := range patches {
				// The first member's name is the patch's for a replacement.
				ps := patch
				if patch == patches[3] {
					ps = `{}`
				}
				code, want, stderr := testutil.Serve(t, mergeAnswer(t, jsontext.Value(ps), true), append(bytes.Clone(compact), '\n'))
				require.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
				for form, spaced := range forms {
					for _, vouched := range []bool{true, false} {
						code, got, stderr := testutil.Serve(t, mergeAnswer(t, jsontext.Value(ps), vouched), spaced)
						require.Equal(t, hook.ExitOK, code, "%s %s: %s", name, form, stderr)
						require.Equal(t, want, got, "%s %s size %d patch %s vouched %v", name, form, size, ps, vouched)
						if got != "" {
							assert.True(t, jsontext.Value(strings.TrimSuffix(got, "\n")).IsValid(jsonopts.Lenient()))
						}
					}
				}
			}
		}
		n++
	}
}

// spaceAt returns the compact JSON text c with whitespace inserted before
// and after tokens as seed says: each byte of seed in turn picks what
// goes at the next place (nothing, a space, a tab, CRLF, a newline and
// indent); once seed is used up, nothing more is inserted.
func spaceAt(c, seed []byte) []byte {
	kinds := []string{"", " ", "\t", "\r\n", "\n    ", "", "  \t"}
	var out []byte
	k := 0
	space := func() {
		if k < len(seed) {
			out = append(out, kinds[int(seed[k])%len(kinds)]...)
			k++
		}
	}
	in := false
	space()
	for i := 0; i < len(c); i++ {
		b := c[i]
		if in {
			out = append(out, b)
			if b == '\\' && i+1 < len(c) {
				i++
				out = append(out, c[i])
			} else if b == '"' {
				in = false
			}
			continue
		}
		switch b {
		case '{', '}', '[', ']', ',', ':':
			space()
			out = append(out, b)
			space()
		case '"':
			in = true
			out = append(out, b)
		default:
			out = append(out, b)
		}
	}
	space()
	return out
}

// FuzzSpacedInput puts fuzzed JSON into a tool_input, small and large
// enough to be spliced, inserts whitespace between the tokens of the
// whole event where the fuzzer says, and checks that the answers to the
// spaced event built with the event's Merge (vouched) and with the
// package Merge on a copy (checked) are the answer to the compact event:
// exit code, stdout byte for byte, stderr.
//
//	go test . -run '^$' -fuzz FuzzSpacedInput -fuzztime 1m
func FuzzSpacedInput(f *testing.F) {
	for _, s := range [][3]string{
		{`"x"`, `{"a":1}`, "\x01\x02\x03\x04"},
		{`{"b":[1,{"c":"\u00e9 \" "}],"d":{}}`, `{"room":null}`, "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"},
		{`[[],[{}],""]`, `{"fuzzed":[ 1 ]}`, "\x03\x04\x03\x04\x03\x04\x03\x04\x03\x04\x03\x04\x03\x04\x03\x04"},
		{`"\ud800"`, `{}`, "\x02"},
		{`12345678901234567890`, `{"fuzzed":12345678901234567890}`, "\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06"},
	} {
		f.Add(s[0], s[1], []byte(s[2]))
	}
	pad := vouchInput(8 << 10)
	f.Fuzz(func(t *testing.T, member, patch string, seed []byte) {
		for _, in := range []string{`{"room":"x","fuzzed":` + member + `}`, pad[:len(pad)-1] + `,"fuzzed":` + member + `}`} {
			var b bytes.Buffer
			if stdjson.Compact(&b, []byte(in)) != nil {
				return
			}
			compact := testutil.PreToolUse("mcp__probe__listen_here", b.String())
			if ok, _ := rawjson.Valid(compact); !ok || !utf8.Valid(compact) {
				return // refused at the read, with the offset of the bad byte
			}
			spaced := append(spaceAt(bytes.TrimSuffix(compact, []byte("\n")), seed), '\n')
			serve := func(payload []byte, vouched bool) (int, string, string) {
				h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
					var upd jsontext.Value
					var err error
					if vouched {
						upd, err = e.Merge(jsontext.Value(patch))
					} else {
						upd, err = copyMerge(e.ToolInput, jsontext.Value(patch))
					}
					if err != nil {
						return nil, err
					}
					return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
				})
				return testutil.Serve(t, h, payload)
			}
			wcode, want, wstderr := serve(compact, true)
			for _, vouched := range []bool{true, false} {
				code, got, stderr := serve(spaced, vouched)
				if code != wcode || got != want || stderr != wstderr {
					t.Fatalf("spaced (vouched %v): %d %.300q %q\ncompact: %d %.300q %q\nspaced input: %.300q", vouched, code, got, stderr, wcode, want, wstderr, spaced)
				}
			}
			if wcode == hook.ExitOK && want != "" && !jsontext.Value(strings.TrimSuffix(want, "\n")).IsValid(jsonopts.Lenient()) {
				t.Fatalf("stdout is not valid JSON: %.300q", want)
			}
		}
	})
}

// TestSpacedInputThroughChainAndFailClosed serves a Merge answer inside
// FailClosed and Chain, on inputs below and above the size from which the
// vouched value is spliced, compact and spaced: the answers to the spaced
// forms are the compact one's.
func TestSpacedInputThroughChainAndFailClosed(t *testing.T) {
	patch := map[string]string{"fingerprint": "6689668a49dc648b", "room": "lobby"}
	vouched := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(patch)
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	second := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{AdditionalContext: "second"}, nil
	})
	for _, size := range []int{200, 5 << 10, 300 << 10} {
		compact := testutil.PreToolUse("mcp__probe__listen_here", vouchInput(size))
		for name, h := range map[string]hook.Handler{"FailClosed": hook.FailClosed(vouched), "Chain": hook.Chain(vouched, second), "Chain of FailClosed": hook.Chain(second, hook.FailClosed(vouched))} {
			code, want, stderr := testutil.Serve(t, h, compact)
			require.Equal(t, hook.ExitOK, code, stderr)
			require.Contains(t, want, `"fingerprint":"6689668a49dc648b"`)
			for form, spaced := range spacedForms(t, compact) {
				code, got, stderr := testutil.Serve(t, h, spaced)
				require.Equal(t, hook.ExitOK, code, stderr)
				require.Equal(t, want, got, "%s %s %s", name, sizeName(size), form)
			}
		}
	}
}
