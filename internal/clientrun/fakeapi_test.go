package clientrun

// Tests of the fake Messages API. They need neither Claude Code nor the
// network.

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
)

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
	api, err := StartFakeAPI(Script{Turns: [][]Call{
		{{Tool: "Bash", Input: input}, {Tool: "Read", Input: `{"file_path":"/x"}`}},
	}, Final: "bye"}, &log)
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
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_claudetest_1","name":"Bash","input":{}},{"type":"tool_use","id":"toolu_claudetest_2","name":"Read","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_claudetest_1","is_error":true,"content":"PreToolUse:Bash hook error: no"},{"type":"tool_result","tool_use_id":"toolu_claudetest_2","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}]}`)
	require.NoError(t, json.UnmarshalRead(resp.Body, &msg))
	assert.Equal(t, "bye", msg.Content[0].Text)

	main := api.MainRequests()
	res := FindToolResult(main, CallID(1))
	require.NotNil(t, res)
	assert.True(t, res.IsError)
	assert.Equal(t, "PreToolUse:Bash hook error: no", res.Text)
	res = FindToolResult(main, CallID(2))
	require.NotNil(t, res)
	assert.False(t, res.IsError)
	assert.Equal(t, "a\nb", res.Text)
	assert.Equal(t, `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, string(res.Content))
	assert.Nil(t, FindToolResult(main, CallID(3)))
	for _, q := range main {
		assert.NotContains(t, string(q.Body), "title?", "side requests are not the model's main loop")
	}

	var answered []string
	for _, r := range api.Requests() {
		answered = append(answered, r.Answered)
	}
	assert.Equal(t, []string{"main-tool_use#1", "side", "main-final"}, answered)
	assert.Equal(t, 3, strings.Count(log.String(), "\n"), "one log line per request")
	assert.Empty(t, api.OutsideTries())
	assert.Equal(t, []string{"Bash", "Read"}, api.Offered())
}

func TestFakeAPIRefusesProxying(t *testing.T) {
	api, err := StartFakeAPI(Script{}, nil)
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
	api, err := StartFakeAPI(Script{Final: "only text"}, nil)
	require.NoError(t, err)
	defer api.Close()
	resp := post(t, api.URL, `{"model":"m","messages":[{"role":"user","content":"go"}]}`)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	content, ok := Member(b, "content")
	require.True(t, ok)
	assert.JSONEq(t, `[{"text":"only text","type":"text"}]`, string(jsontext.Value(content)))
}

func TestToolResultWithWhatFollows(t *testing.T) {
	body := []byte(`{"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_claudetest_1","name":"Write","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_claudetest_1","content":"File created"},{"type":"text","text":"ctx"}]},
		{"role":"system","content":"PostToolUse:Write hook blocking error: not formatted"},
		{"role":"system","content":[{"type":"text","text":"more"}]},
		{"role":"assistant","content":[{"type":"text","text":"done"}]},
		{"role":"user","content":"later"}]}`)
	var m MessagesRequest
	require.NoError(t, Unmarshal(body, &m))
	res := FindToolResult([]*Request{{Answered: "main-final", Body: body, Messages: &m}}, CallID(1))
	require.NotNil(t, res)
	assert.Equal(t, "File created", res.Text)
	assert.Equal(t, []string{"ctx", "PostToolUse:Write hook blocking error: not formatted", "more"}, res.With)
}
