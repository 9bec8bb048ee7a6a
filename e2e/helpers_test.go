package e2e_test

// Tests of the harness itself. They need neither Claude Code nor the
// network, and run without HOOK_E2E.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
	"github.com/gohooks/hook/hooktest"
)

func TestJSStringRoundTrip(t *testing.T) {
	tests := []struct{ in, stringify string }{
		{`"abc"`, `"abc"`},
		{`"\u0041\u0062c"`, `"Abc"`},
		{`"a\/b"`, `"a/b"`},
		{`"\ud800"`, `"\ud800"`},
		{`"x\uDFFFy"`, `"x\udfffy"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"😀"`, `"😀"`},
		{`"\u0000\u001F\b\f\n\r\t\u007f"`, "\"\\u0000\\u001f\\b\\f\\n\\r\\t\u007f\""},
		{"\"line\u2028para\"", "\"line\u2028para\""},
		{`"\u2028"`, "\"\u2028\""},
		{`"q\"b\\"`, `"q\"b\\"`},
		{`"K\u00f6ln"`, `"Köln"`},
		{`"\u003cb\u003e"`, `"<b>"`},
	}
	for _, tt := range tests {
		s, err := e2e.ParseJSString([]byte(tt.in))
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.stringify, string(s.Stringify()), tt.in)
		again, err := e2e.ParseJSString(s.Stringify())
		require.NoError(t, err)
		assert.True(t, s.Equal(again), tt.in)
	}
	hi, _ := e2e.ParseJSString([]byte(`"\ud800"`))
	lo, _ := e2e.ParseJSString([]byte(`"\udc00"`))
	assert.False(t, hi.Equal(lo), "different lone surrogates differ (as Go strings both are U+FFFD)")
	assert.Equal(t, hi.String(), lo.String())
	for _, bad := range []string{``, `"`, `abc`, `"a"b"`, "\"a\nb\"", `"\x"`, `"\u12"`, `"\u12zz"`, "\"\xff\"", `"a\"`} {
		_, err := e2e.ParseJSString([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestJSStringMatchesTheCorpus checks every string of the corpus: its
// JSON.stringify form parses back to the same string.
func TestJSStringMatchesTheCorpus(t *testing.T) {
	n := 0
	for _, tv := range hooktest.TrickyValues() {
		if tv.JSON[0] != '"' {
			continue
		}
		n++
		s, err := e2e.ParseJSString(tv.JSON)
		require.NoError(t, err, tv.Name)
		back, err := e2e.ParseJSString(s.Stringify())
		require.NoError(t, err, tv.Name)
		assert.True(t, s.Equal(back), tv.Name)
	}
	assert.GreaterOrEqual(t, n, 20)
}

func TestMemberAndPath(t *testing.T) {
	obj := []byte(`{"a":1,"hookSpecificOutput":{"updatedInput":{"room":"\ud800"}},"b":"x"}`)
	v, ok := e2e.Member(obj, "b")
	assert.True(t, ok)
	assert.Equal(t, `"x"`, string(v))
	v, ok = e2e.Path(obj, "hookSpecificOutput", "updatedInput", "room")
	assert.True(t, ok)
	assert.Equal(t, `"\ud800"`, string(v), "raw bytes kept")
	_, ok = e2e.Member(obj, "missing")
	assert.False(t, ok)
	_, ok = e2e.Member([]byte(`[1]`), "a")
	assert.False(t, ok)
}

// sseEvents reads a server-sent event stream into its data lines.
func sseEvents(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestFakeAPIPlaysTheScript(t *testing.T) {
	input := `{"room":"\ud800 K\u00f6ln 😀","n":12345678901234567890}`
	var log bytes.Buffer
	api, err := e2e.StartFakeAPI(e2e.Script{Turns: []e2e.Turn{
		{{Tool: "Bash", Input: input}, {Tool: "Read", Input: `{"file_path":"/x"}`}},
	}, FinalText: "bye"}, &log)
	require.NoError(t, err)
	defer api.Close()

	// First main-loop request: both tool calls, streamed.
	resp := post(t, api.URL, `{"model":"m","stream":true,"tools":[{"name":"Bash"},{"name":"Read"}],"messages":[{"role":"user","content":"go"}]}`)
	assert.Equal(t, "text/event-stream", resp.Header.Get("content-type"))
	var partial [2]string
	var types []string
	for _, d := range sseEvents(t, resp.Body) {
		var ev struct {
			Type  string `json:"type"`
			Index int    `json:"index"`
			Delta struct {
				Type        string `json:"type"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		require.NoError(t, json.Unmarshal([]byte(d), &ev), d)
		types = append(types, ev.Type)
		if ev.Delta.Type == "input_json_delta" {
			partial[ev.Index] += ev.Delta.PartialJSON
		}
		if ev.Type == "message_delta" {
			assert.Equal(t, "tool_use", ev.Delta.StopReason)
		}
	}
	assert.Equal(t, input, partial[0], "the input text arrives exactly, split in deltas")
	assert.Equal(t, `{"file_path":"/x"}`, partial[1])
	assert.Equal(t, "message_start", types[0])
	assert.Equal(t, "message_stop", types[len(types)-1])

	// A side request gets a short text; the script is not advanced.
	resp = post(t, api.URL, `{"model":"m","stream":false,"messages":[{"role":"user","content":"title?"}]}`)
	var msg struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	require.NoError(t, json.UnmarshalRead(resp.Body, &msg))
	assert.Equal(t, "ok", msg.Content[0].Text)

	// After the tool results: the final text.
	resp = post(t, api.URL, `{"model":"m","stream":false,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_1","name":"Bash","input":{}},{"type":"tool_use","id":"toolu_e2e_2","name":"Read","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_1","is_error":true,"content":"PreToolUse:Bash hook error: no"},{"type":"tool_result","tool_use_id":"toolu_e2e_2","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}]}`)
	require.NoError(t, json.UnmarshalRead(resp.Body, &msg))
	assert.Equal(t, "bye", msg.Content[0].Text)

	res, ok := api.ToolResult(e2e.CallID(1))
	require.True(t, ok)
	assert.True(t, res.IsError)
	assert.Equal(t, "PreToolUse:Bash hook error: no", res.ContentText())
	res, ok = api.ToolResult(e2e.CallID(2))
	require.True(t, ok)
	assert.False(t, res.IsError)
	assert.Equal(t, "a\nb", res.ContentText())
	assert.True(t, api.ModelSaw("hook error: no"))
	assert.False(t, api.ModelSaw("title?"), "side requests are not the model's main loop")

	var answered []string
	for _, r := range api.Requests() {
		answered = append(answered, r.Answered)
	}
	assert.Equal(t, []string{"main-tool_use#1", "side", "main-final"}, answered)
	assert.Equal(t, 3, strings.Count(log.String(), "\n"), "one log line per request")
	assert.Empty(t, api.OutsideTries())
}

func TestFakeAPIRefusesProxying(t *testing.T) {
	api, err := e2e.StartFakeAPI(e2e.Script{}, nil)
	require.NoError(t, err)
	defer api.Close()
	host := strings.TrimPrefix(api.URL, "http://")

	conn, err := net.Dial("tcp", host)
	require.NoError(t, err)
	fmt.Fprintf(conn, "CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	conn.Close()

	conn, err = net.Dial("tcp", host)
	require.NoError(t, err)
	fmt.Fprintf(conn, "GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\n\r\n")
	resp, err = http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	conn.Close()

	assert.Equal(t, []string{"api.anthropic.com:443", "http://example.com/x"}, api.OutsideTries())
}

func TestFakeAPIWithoutToolsAnswersText(t *testing.T) {
	api, err := e2e.StartFakeAPI(e2e.Script{FinalText: "only text"}, nil)
	require.NoError(t, err)
	defer api.Close()
	resp := post(t, api.URL, `{"model":"m","messages":[{"role":"user","content":"go"}]}`)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	content, ok := e2e.Member(b, "content")
	require.True(t, ok)
	assert.JSONEq(t, `[{"text":"only text","type":"text"}]`, string(jsontext.Value(content)))
}
