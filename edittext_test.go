package hook_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

var textSecret = regexp.MustCompile(`sk-live-[0-9A-Za-z]+`)

// redactText is a text edit that changes only the texts with a secret.
func redactText(s string) (string, error) { return textSecret.ReplaceAllString(s, "[redacted]"), nil }

func TestEditText(t *testing.T) {
	for _, c := range []struct{ name, orig, want string }{
		{"string", `"KEY=sk-live-9f3a\n"`, `"KEY=[redacted]\n"`},
		{"string with escapes, changed", `"K\u00f6ln sk-live-1 \/"`, `"Köln [redacted] /"`},
		{"string with escapes, unchanged", `"K\u00f6ln \ud800 \/"`, `"K\u00f6ln \ud800 \/"`},
		{"empty string", `""`, `""`},
		{"content blocks: only the text of text blocks",
			`[{"type":"text","text":"token sk-live-77","annotations":{"audience":["user"]}},{"type":"image","data":"sk-live-in-base64","mimeType":"image/png"},{"type":"text","text":"expires in 3 days"}]`,
			`[{"type":"text","text":"token [redacted]","annotations":{"audience":["user"]}},{"type":"image","data":"sk-live-in-base64","mimeType":"image/png"},{"type":"text","text":"expires in 3 days"}]`},
		{"content blocks: unknown members before and after the text, big numbers",
			`[{"_meta":{"n":12345678901234567890},"text":"sk-live-1","x\u0079":2.50,"type":"text"}]`,
			`[{"_meta":{"n":12345678901234567890},"text":"[redacted]","x\u0079":2.50,"type":"text"}]`},
		{"content blocks: an embedded text resource",
			`[{"type":"resource","resource":{"uri":"file:///sk-live-uri","mimeType":"text/plain","text":"sk-live-2"}},{"type":"resource","resource":{"uri":"file:///b","blob":"c2stbGl2ZS0z"}},{"type":"resource_link","uri":"sk-live-4","name":"n"}]`,
			`[{"type":"resource","resource":{"uri":"file:///sk-live-uri","mimeType":"text/plain","text":"[redacted]"}},{"type":"resource","resource":{"uri":"file:///b","blob":"c2stbGl2ZS0z"}},{"type":"resource_link","uri":"sk-live-4","name":"n"}]`},
		{"content blocks: an escaped type name and value are read as the client reads them",
			`[{"t\u0079pe":"t\u0065xt","te\u0078t":"sk-live-5"}]`,
			`[{"t\u0079pe":"t\u0065xt","te\u0078t":"[redacted]"}]`},
		{"content blocks: a text that is not a string, a block without type, other elements",
			`[{"type":"text","text":7},{"text":"sk-live-6"},"sk-live-7",null,[{"type":"text","text":"sk-live-8"}]]`,
			`[{"type":"text","text":7},{"text":"sk-live-6"},"sk-live-7",null,[{"type":"text","text":"sk-live-8"}]]`},
		{"content blocks: whitespace everywhere kept", "[ {\n \"type\" : \"text\" ,\n \"text\" : \"sk-live-9\" } ,\t{ \"type\":\"text\" } ]",
			"[ {\n \"type\" : \"text\" ,\n \"text\" : \"[redacted]\" } ,\t{ \"type\":\"text\" } ]"},
		{"empty array", `[]`, `[]`},
		{"MCP result object (Codex)", `{"content":[{"type":"text","text":"rows: sk-live-a"}],"isError":false,"_meta":{"sk-live-b":"id"}}`,
			`{"content":[{"type":"text","text":"rows: [redacted]"}],"isError":false,"_meta":{"sk-live-b":"id"}}`},
		{"MCP result object with structuredContent: its string values, not its names",
			`{"structuredContent":{"sk-live-k":"sk-live-v","rows":[{"key":"sk-live-r","n":12345678901234567890}],"ok":true},"content":[{"type":"text","text":"{\"key\":\"sk-live-r\"}"}]}`,
			`{"structuredContent":{"sk-live-k":"[redacted]","rows":[{"key":"[redacted]","n":12345678901234567890}],"ok":true},"content":[{"type":"text","text":"{\"key\":\"[redacted]\"}"}]}`},
		{"MCP result object with a null structuredContent", `{"content":[],"structuredContent":null}`, `{"content":[],"structuredContent":null}`},
		{"MCP result object with only a structuredContent string", `{"structuredContent":"sk-live-s"}`, `{"structuredContent":"[redacted]"}`},
		{"Agent result: its content blocks, not its prompt",
			`{"status":"completed","prompt":"find sk-live-p","agentId":"a1","content":[{"type":"text","text":"found sk-live-q"}],"totalTokens":12}`,
			`{"status":"completed","prompt":"find sk-live-p","agentId":"a1","content":[{"type":"text","text":"found [redacted]"}],"totalTokens":12}`},
		{"whitespace around is dropped", " \"sk-live-w\"\n", `"[redacted]"`},
		{"null", `null`, `null`},
		{"number", `12345678901234567890`, `12345678901234567890`},
		{"boolean", `false`, `false`},
		{"nothing to redact is the original", `[{"type":"text","text":"caf\u00e9"}]`, `[{"type":"text","text":"caf\u00e9"}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := hook.EditText(jsontext.Value(c.orig), redactText)
			require.NoError(t, err)
			assert.Equal(t, c.want, string(got))
			assert.True(t, jsontext.Value(got).IsValid(jsontext.AllowInvalidUTF8(true)), "invalid: %s", got)
		})
	}
}

func TestEditTextCallsTheEditWithEveryTextInOrder(t *testing.T) {
	var seen []string
	orig := `{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"resource","resource":{"text":"b"}},{"type":"text","text":"c\u00e9"}],"structuredContent":{"x":["d",{"y":"\ud800"}]}}`
	got, err := hook.EditText(jsontext.Value(orig), func(s string) (string, error) {
		seen = append(seen, s)
		return s, nil
	})
	require.NoError(t, err)
	assert.Equal(t, orig, string(got), "an edit that changes nothing returns the original")
	assert.Equal(t, []string{"a", "b", "cé", "d", "\ufffd"}, seen)
}

func TestEditTextErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := hook.EditText(jsontext.Value(`[{"type":"text","text":"a"}]`), func(string) (string, error) { return "", boom })
	assert.Equal(t, boom, err, "the edit's error, as it is")

	for _, c := range []struct{ name, orig, want string }{
		{"empty", ``, "empty"},
		{"invalid", `["a",]`, "not one valid JSON value"},
		{"a name twice", `{"content":[],"content":[]}`, "twice"},
		{"a Bash result", `{"stdout":"sk-live-1","stderr":"","interrupted":false}`, "hook.Edit"},
		{"a Write result, whose content is a string", `{"type":"create","filePath":"a","content":"sk-live-1"}`, "hook.Edit"},
		{"an object without texts", `{}`, "neither"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := hook.EditText(jsontext.Value(c.orig), func(s string) (string, error) {
				t.Fatalf("the edit ran with %q", s)
				return s, nil
			})
			assert.ErrorContains(t, err, c.want)
		})
	}
	_, err = hook.EditText(jsontext.Value(`"a"`), nil)
	assert.ErrorContains(t, err, "nil")
}

// TestEditTextNoOpIsNoAnswer: a PostToolUse answer whose rewrite
// EditText or Edit built without changing anything writes nothing, on
// every shape of result and in either field; a real change is written.
func TestEditTextNoOpIsNoAnswer(t *testing.T) {
	post := func(tool, response string) string {
		return badEvent("PostToolUse", `,"tool_name":"`+tool+`","tool_input":{"q":"x"},"tool_response":`+response+`,"tool_use_id":"toolu_1"`)
	}
	var codexBash jsontext.Value
	for _, f := range hooktest.CodexFixtures() {
		if f.Name == "codex/post-tool-use" {
			codexBash = f.JSON
		}
	}
	require.NotNil(t, codexBash)
	codexMCP := string(hooktest.WithField(hooktest.WithField(codexBash, "tool_name", "mcp__db__query"), "tool_response",
		jsontext.Value(`{"content":[{"type":"text","text":"3 rows"}],"structuredContent":{"rows":3}}`)))
	text := func(mcpField bool) hook.Handler {
		return hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			out, err := hook.EditText(e.ToolResponse, redactText)
			if mcpField {
				return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, err
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		})
	}
	blocks := hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		out, err := hook.Edit(e.ToolResponse, func(bs *[]hook.ContentBlock) error {
			for i := range *bs {
				(*bs)[i].Text, _ = redactText((*bs)[i].Text)
			}
			return nil
		})
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
	})
	for _, c := range []struct {
		name, stdin string
		h           hook.Handler
		want        string
	}{
		{"MCP blocks, nothing to redact", post("mcp__vault__read", `[{"type":"text","text":"expires in 3 days"}]`), text(false), ""},
		{"MCP blocks, nothing to redact, legacy field", post("mcp__vault__read", `[{"type":"text","text":"expires"}]`), text(true), ""},
		{"MCP blocks, spaced, nothing to redact", post("mcp__vault__read", `[ {"type": "text", "text": "x"} ]`), text(false), ""},
		{"MCP string, nothing to redact", post("mcp__vault__read", `"expires"`), text(false), ""},
		{"MCP blocks with Edit, nothing to redact", post("mcp__vault__read", `[{"type":"text","text":"x","id":1}]`), blocks, ""},
		{"Codex shell string, nothing to redact", string(codexBash), text(false), ""},
		{"Codex MCP object, nothing to redact", codexMCP, text(true), ""},
		{"MCP blocks, a secret", post("mcp__vault__read", `[{"type":"text","text":"sk-live-1","id":1},{"type":"image","data":"x"}]`), text(false),
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":[{"type":"text","text":"[redacted]","id":1},{"type":"image","data":"x"}]}}`},
		{"MCP blocks with Edit, a secret", post("mcp__vault__read", `[{"type":"text","text":"sk-live-1","id":1}]`), blocks,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":[{"type":"text","text":"[redacted]","id":1}]}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := hook.Serve(context.Background(), strings.NewReader(c.stdin), &stdout, &stderr, c.h)
			assert.Equal(t, hook.ExitOK, code, stderr.String())
			assert.Empty(t, stderr.String())
			want := c.want
			if want != "" {
				want += "\n"
			}
			assert.Equal(t, want, stdout.String())
		})
	}
}

// TestEditTextErrNoTexts: a hook registered for every tool tells an
// object result whose texts EditText cannot know (a built-in tool's)
// from a failure with errors.Is, and only those:
// the edit's own errors and a broken original are not ErrNoTexts.
func TestEditTextErrNoTexts(t *testing.T) {
	keep := func(s string) (string, error) { return s, nil }
	for _, orig := range []string{
		`{"stdout":"sk-live-1","stderr":"","interrupted":false}`,
		`{"content":"a string","structuredContent":null}`,
		`{}`,
	} {
		_, err := hook.EditText(jsontext.Value(orig), keep)
		assert.ErrorIs(t, err, hook.ErrNoTexts, orig)
	}
	for _, orig := range []string{``, `{"a":1,"a":2}`, `[`} {
		_, err := hook.EditText(jsontext.Value(orig), keep)
		require.Error(t, err, orig)
		assert.NotErrorIs(t, err, hook.ErrNoTexts, orig)
	}
	_, err := hook.EditText(jsontext.Value(`"a"`), func(string) (string, error) { return "", errors.New("boom") })
	assert.NotErrorIs(t, err, hook.ErrNoTexts)
}

// TestEditTextCopilotResult: the GitHub Copilot CLI's tool_result, of
// any tool, is an object whose text_result_for_llm is what its model
// reads: that string is its text, and every other byte is kept. (Copilot
// drops a rewritten result, so the answer is refused; the edit tells the
// hook that the result holds what it looks for.)
func TestEditTextCopilotResult(t *testing.T) {
	orig := `{"result_type":"success", "text_result_for_llm":"KEY=sk-live-1\u00e9\n","session_log":"sk-live-1"}`
	got, err := hook.EditText(jsontext.Value(orig), func(s string) (string, error) {
		return strings.ReplaceAll(s, "sk-live-1", "[redacted]"), nil
	})
	require.NoError(t, err)
	assert.Equal(t, `{"result_type":"success", "text_result_for_llm":"KEY=[redacted]é\n","session_log":"sk-live-1"}`, string(got))

	got, err = hook.EditText(jsontext.Value(orig), func(s string) (string, error) { return s, nil })
	require.NoError(t, err)
	assert.Equal(t, orig, string(got), "no change, no rewrite")

	_, err = hook.EditText(jsontext.Value(`{"result_type":"failure","text_result_for_llm":null}`), func(s string) (string, error) { return s, nil })
	assert.ErrorIs(t, err, hook.ErrNoTexts, "a text_result_for_llm that is no string is no text")
}
