package hook_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/testutil"
)

// vouchInput returns a compact tool_input of at least size bytes whose
// values are the kind JSON libraries rewrite: escapes, non-ASCII text, a
// big integer, a trailing zero, a lone surrogate.
func vouchInput(size int) string {
	var b strings.Builder
	b.WriteString(`{"room":"Z\u00fcrich \"war room\" C:\\ops\tnight","n":12345678901234567890,"f":2.50,"s":"\ud800","notes":"`)
	for b.Len() < size {
		b.WriteString(`K\u00f6ln \"q\" \\ \t caf\u00e9 ☕ plain text. `)
	}
	b.WriteString(`","nested":{"a":[1,{"b":"\u00e9"}],"z":null}}`)
	return b.String()
}

// permissionRequest returns a PermissionRequest payload for tool with the
// raw tool_input toolInput.
func permissionRequest(tool, toolInput string) []byte {
	return []byte(`{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"` + tool + `","tool_input":` + toolInput + `}` + "\n")
}

// copyMerge merges patch into a copy of orig with the package function,
// which no invocation vouches for: the answer the vouched path must equal.
func copyMerge(orig jsontext.Value, patch any) (jsontext.Value, error) {
	return hook.Merge(append(jsontext.Value(nil), orig...), patch)
}

// TestVouchedAnswersEqualCheckedOnes serves the same answers built with
// the event's Merge (whose result the invocation vouches for, so it is
// not validated again and is spliced into the answer) and with the
// package Merge on a copy of the input (checked all the way), on inputs
// below and above the size from which inputs are vouched for, on both
// events that carry an updatedInput, bare and inside FailClosed and
// Chain: stdout must be byte for byte the same, one valid answer that
// keeps every member.
func TestVouchedAnswersEqualCheckedOnes(t *testing.T) {
	patch := map[string]string{"fingerprint": "6689668a49dc648b", "room": "lobby"}
	pre := func(merge func(e *hook.PreToolUse) (jsontext.Value, error)) hook.Handler {
		return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := merge(e)
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "ok", UpdatedInput: upd, AdditionalContext: "added"}, nil
		})
	}
	vouched := pre(func(e *hook.PreToolUse) (jsontext.Value, error) { return e.Merge(patch) })
	checked := pre(func(e *hook.PreToolUse) (jsontext.Value, error) { return copyMerge(e.ToolInput, patch) })
	permVouched := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := e.Merge(patch)
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	permChecked := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := copyMerge(e.ToolInput, patch)
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	second := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{AdditionalContext: "second"}, nil
	})
	for _, size := range []int{200, 5 << 10, 300 << 10} {
		in := vouchInput(size)
		for _, c := range []struct {
			name              string
			payload           []byte
			vouched, checked  hook.Handler
			wantUpdatedInput  bool
			wantMemberChanged []string
		}{
			{"PreToolUse", testutil.PreToolUse("mcp__probe__listen_here", in), vouched, checked, true, nil},
			{"PreToolUse FailClosed", testutil.PreToolUse("mcp__probe__listen_here", in), hook.FailClosed(vouched), hook.FailClosed(checked), true, nil},
			{"PreToolUse Chain", testutil.PreToolUse("mcp__probe__listen_here", in), hook.Chain(vouched, second), hook.Chain(checked, second), true, nil},
			{"PermissionRequest", permissionRequest("mcp__probe__listen_here", in), permVouched, permChecked, true, nil},
		} {
			t.Run(c.name+"/"+sizeName(len(in)), func(t *testing.T) {
				code, got, stderr := testutil.Serve(t, c.vouched, c.payload)
				require.Equal(t, hook.ExitOK, code, stderr)
				wcode, want, _ := testutil.Serve(t, c.checked, c.payload)
				require.Equal(t, hook.ExitOK, wcode)
				require.Equal(t, want, got, "the vouched answer differs from the checked one")
				assert.NotContains(t, got, "hook-vouched", "a placeholder reached stdout")
				assert.True(t, jsontext.Value(strings.TrimSuffix(got, "\n")).IsValid(jsonopts.Lenient()))
				upd := answerUpdatedInput(t, got)
				assert.NoError(t, hooktest.CheckPreserved(jsontext.Value(in), upd, "room"))
			})
		}
	}
}

// sizeName names a byte count for a subtest.
func sizeName(n int) string {
	if n >= 1<<10 {
		return strconv.Itoa(n>>10) + "KiB"
	}
	return strconv.Itoa(n) + "B"
}

// answerUpdatedInput returns the updatedInput of a PreToolUse or
// PermissionRequest answer.
func answerUpdatedInput(t *testing.T, answer string) jsontext.Value {
	t.Helper()
	var a struct {
		HookSpecificOutput struct {
			UpdatedInput jsontext.Value `json:"updatedInput"`
			Decision     struct {
				UpdatedInput jsontext.Value `json:"updatedInput"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(answer), &a, jsonopts.Lenient()), "%.300s", answer)
	if a.HookSpecificOutput.UpdatedInput != nil {
		return a.HookSpecificOutput.UpdatedInput
	}
	require.NotNil(t, a.HookSpecificOutput.Decision.UpdatedInput, "no updatedInput in %.200s", answer)
	return a.HookSpecificOutput.Decision.UpdatedInput
}

// allowUpdate returns a PreToolUse hook that allows the call with the
// updatedInput f builds.
func allowUpdate(f func(e *hook.PreToolUse) (jsontext.Value, error)) hook.Handler {
	return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := f(e)
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
}

// TestVouchingEndsWhenBytesChange: a handler that writes into the bytes
// of the input it was given, or of the Merge result it answers with,
// gets the full checks, not the vouching: an input broken in place is
// refused by Merge, a member renamed in place in the result is a partial
// answer, and a change that keeps both valid is written as made.
func TestVouchingEndsWhenBytesChange(t *testing.T) {
	in := vouchInput(64 << 10)
	payload := testutil.PreToolUse("mcp__probe__listen_here", in)
	patch := jsontext.Value(`{"fingerprint":"x"}`)
	at := func(v []byte, s string) int {
		i := strings.Index(string(v), s)
		require.GreaterOrEqual(t, i, 0, s)
		return i
	}

	t.Run("input broken in place", func(t *testing.T) {
		code, stdout, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			e.ToolInput[at(e.ToolInput, `,"n":`)] = ' ' // {"room":"…" "n":…}
			return e.Merge(patch)
		}), payload)
		assert.Equal(t, hook.ExitError, code)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "Merge: the original")
	})
	t.Run("input changed validly in place", func(t *testing.T) {
		var want jsontext.Value
		code, stdout, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			e.ToolInput[at(e.ToolInput, `night`)] = 'N'
			var err error
			want, err = copyMerge(e.ToolInput, patch)
			require.NoError(t, err)
			return e.Merge(patch)
		}), payload)
		require.Equal(t, hook.ExitOK, code, stderr)
		assert.Equal(t, string(want), string(answerUpdatedInput(t, stdout)))
		assert.Contains(t, stdout, `Night`)
	})
	t.Run("result's member renamed in place", func(t *testing.T) {
		code, stdout, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			upd, err := e.Merge(patch)
			if err == nil {
				upd[at(upd, `"room"`)+4] = 'n' // "roon": valid, but room is lost
			}
			return upd, err
		}), payload)
		assert.Equal(t, hook.ExitError, code)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "updatedInput is partial: it lacks /room")
	})
	t.Run("result broken in place", func(t *testing.T) {
		code, stdout, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			upd, err := e.Merge(patch)
			if err == nil {
				upd[len(upd)-1] = ','
			}
			return upd, err
		}), payload)
		assert.Equal(t, hook.ExitError, code)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "updatedInput must be one JSON object")
	})
}

// TestVouchingCornerCases: answers that could confuse the placeholder a
// vouched updatedInput travels as are still written exactly: a reason
// that holds the placeholder's text, an answer built from an old Merge
// result after many more, an input with whitespace (which is not
// vouched), and a patch with whitespace inside its values.
func TestVouchingCornerCases(t *testing.T) {
	in := vouchInput(16 << 10)
	compactPayload := testutil.PreToolUse("mcp__probe__listen_here", in)
	spacedPayload := testutil.PreToolUse("mcp__probe__listen_here", strings.Replace(in, `,"n":`, `, "n" : `, 1))
	cases := []struct {
		name    string
		payload []byte
		build   func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error)
	}{
		{"reason with the placeholder's text", compactPayload, func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			upd, err := merge(map[string]int{"x": 1})
			return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "\x00hook-vouched-0-0 \"\\u0000hook-vouched-", UpdatedInput: upd, AdditionalContext: "\x00hook-vouched-"}, err
		}},
		{"the first of twenty Merge results", compactPayload, func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			first, err := merge(map[string]int{"x": 0})
			for i := 1; i < 20 && err == nil; i++ {
				_, err = merge(map[string]int{"x": i})
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: first}, err
		}},
		{"input with whitespace", spacedPayload, func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			upd, err := merge(map[string]int{"x": 1})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}},
		{"patch with whitespace", compactPayload, func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			upd, err := merge(jsontext.Value(`{"x": [1, 2], "room" : "lobby"}`))
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}},
		{"patch with invalid UTF-8", compactPayload, func(e *hook.PreToolUse, merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			upd, err := merge(jsontext.Value("{\"x\":\"\xff\"}"))
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vouched := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return c.build(e, e.Merge)
			})
			checked := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				orig := append(jsontext.Value(nil), e.ToolInput...)
				return c.build(e, func(p any) (jsontext.Value, error) { return hook.Merge(orig, p) })
			})
			code, got, stderr := testutil.Serve(t, vouched, c.payload)
			wcode, want, wstderr := testutil.Serve(t, checked, c.payload)
			assert.Equal(t, wcode, code, "exit code; stderr %s", stderr)
			assert.Equal(t, want, got)
			assert.Equal(t, wstderr, stderr)
			if code == hook.ExitOK {
				assert.True(t, jsontext.Value(strings.TrimSuffix(got, "\n")).IsValid(jsonopts.Lenient()))
			}
		})
	}
}

// FuzzVouchedMerge puts fuzzed JSON into a tool_input large enough to be
// vouched for (as one more member) and into the patch, and checks that
// the answer built with the event's Merge (vouched, spliced) and with the
// package Merge on a copy of the input (checked all the way) are the
// same: exit code, stdout byte for byte, stderr.
func FuzzVouchedMerge(f *testing.F) {
	for _, s := range [][2]string{
		{`"x"`, `{"a":1}`},
		{`{"b":[1,{"c":"\u00e9"}]}`, `{"room":null}`},
		{`"\ud800"`, `{"a": 1}`},
		{`12345678901234567890`, "{\"a\":\"\xff\"}"},
		{`"\u0000hook-vouched-"`, `{"r":"\u0000hook-vouched-x-0"}`},
		{`[]`, `{}`},
		{`1`, `[1]`},
	} {
		f.Add(s[0], s[1])
	}
	pad := vouchInput(8 << 10) // above the 4 KiB from which inputs are vouched for
	f.Fuzz(func(t *testing.T, member, patch string) {
		in := pad[:len(pad)-1] + `,"fuzzed":` + member + `}`
		payload := testutil.PreToolUse("mcp__probe__listen_here", in)
		answer := func(merge func(any) (jsontext.Value, error)) (*hook.PreToolUseOutput, error) {
			upd, err := merge(jsontext.Value(patch))
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: patch, UpdatedInput: upd}, nil
		}
		vouched := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return answer(e.Merge)
		})
		checked := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			orig := append(jsontext.Value(nil), e.ToolInput...)
			return answer(func(p any) (jsontext.Value, error) { return hook.Merge(orig, p) })
		})
		code, got, stderr := testutil.Serve(t, vouched, payload)
		wcode, want, wstderr := testutil.Serve(t, checked, payload)
		if code != wcode || got != want || stderr != wstderr {
			t.Fatalf("vouched: %d %.300q %q\nchecked: %d %.300q %q", code, got, stderr, wcode, want, wstderr)
		}
		if code == hook.ExitOK && got != "" && !jsontext.Value(strings.TrimSuffix(got, "\n")).IsValid(jsonopts.Lenient()) {
			t.Fatalf("stdout is not valid JSON: %.300q", got)
		}
	})
}

// manyMembersRoom returns a compact tool_input with a room member and n
// more, above the count that the read splits as it reads (4096), so that
// the members are split when an answer needs them.
func manyMembersRoom(n int) string {
	var b strings.Builder
	b.WriteString(`{"room":"Z\u00fcrich"`)
	for i := range n {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	b.WriteString(`}`)
	return b.String()
}

// TestInputOfManyMembers: a tool_input of more members than the read
// keeps is split when an answer needs it, with the same answers and
// refusals as a small one: a Merge is written whole, a partial answer is
// refused naming the lost member, and an answer of a handler that wrote
// into the input's bytes first is refused, as its members can no longer
// be known (the small input's keys, read at once, still are).
func TestInputOfManyMembers(t *testing.T) {
	in := manyMembersRoom(5000)
	payload := testutil.PreToolUse("mcp__probe__listen_here", in)

	code, got, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return e.Merge(map[string]string{"fingerprint": "f"})
	}), payload)
	require.Equal(t, hook.ExitOK, code, stderr)
	_, want, _ := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return copyMerge(e.ToolInput, map[string]string{"fingerprint": "f"})
	}), payload)
	assert.Equal(t, want, got)
	assert.NoError(t, hooktest.CheckPreserved(jsontext.Value(in), answerUpdatedInput(t, got), "fingerprint"))

	code, got, stderr = testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return hook.Remove(append(jsontext.Value(nil), e.ToolInput...), "k4321")
	}), payload)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, got)
	assert.Contains(t, stderr, "updatedInput is partial: it lacks /k4321")

	code, got, stderr = testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
		copy(e.ToolInput[2:], "x") // "room" becomes "xoom"
		return jsontext.Value(`{"room":"lobby"}`), nil
	}), payload)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, got)
	assert.Contains(t, stderr, "wrote into the bytes of the tool_input")
}

// TestMergeOfManyMembers: the event's Merge of a tool_input the read did
// not split (more than wire.MaxSub members) appends a patch of new members
// to the input's bytes and splits the input only for a patch that
// replaces one of its members; either way the answer is the package
// Merge's of a copy, byte for byte. The input's names include escaped
// ones ("\u006b7" is "k7"), and so do the patches.
func TestMergeOfManyMembers(t *testing.T) {
	in := strings.Replace(manyMembersRoom(5000), `"k7":`, `"\u006b7":`, 1)
	payload := testutil.PreToolUse("mcp__probe__listen_here", in)
	for _, patch := range []string{
		`{"fingerprint":"f"}`,          // new
		`{"fingerprint":"f","g":[1]}`,  // new, two
		`{}`,                           // nothing
		`{"k4999":"last"}`,             // replaces the last member
		`{"room":"lobby"}`,             // replaces the first
		`{"k7":"seven"}`,               // replaces one spelled with an escape
		`{"\u006b8":"eight"}`,          // an escape in the patch
		`{"new":1,"k100":2}`,           // new and replaced
		`{"\ud800":1}`,                 // a lone surrogate: new
		`{"fingerprint":"f","x":null}`, // new, null
	} {
		var twice jsontext.Value
		code, got, stderr := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			upd, err := e.Merge(jsontext.Value(patch))
			if err == nil {
				twice, err = e.Merge(jsontext.Value(patch)) // the input is split by now, or not
			}
			return upd, err
		}), payload)
		require.Equal(t, hook.ExitOK, code, "%s: %s", patch, stderr)
		_, want, _ := testutil.Serve(t, allowUpdate(func(e *hook.PreToolUse) (jsontext.Value, error) {
			return copyMerge(e.ToolInput, jsontext.Value(patch))
		}), payload)
		assert.Equal(t, want, got, patch)
		if string(twice) == in {
			// A Merge that changes nothing is no rewrite (TestNoOpRewrite).
			assert.NotContains(t, got, "updatedInput", patch)
			continue
		}
		assert.Equal(t, string(answerUpdatedInput(t, got)), string(twice), patch)
	}
}

// TestVouchedAnswerOverHTTP: an http hook's reply carries a spliced answer as
// one body, the command hook's stdout without its newline, for a large
// Merge result and for one above the member count the read splits.
func TestVouchedAnswerOverHTTP(t *testing.T) {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": "f"})
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	for _, in := range []string{vouchInput(64 << 10), manyMembersRoom(5000)} {
		payload := testutil.PreToolUse("mcp__probe__listen_here", in)
		code, stdout, stderr := testutil.Serve(t, h, payload)
		require.Equal(t, hook.ExitOK, code, stderr)
		rep := (&hook.Server{}).ServeHTTPBody(context.Background(), bytes.NewReader(payload), int64(len(payload)), h)
		assert.Equal(t, 200, rep.Status)
		assert.Equal(t, strings.TrimSuffix(stdout, "\n"), string(rep.Body))
	}
}
