package clientrun

// Tests of the fake Responses API. They need neither Codex nor the
// network.

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// responsesEvent is one server-sent event of the fake's answer.
type responsesEvent struct {
	Event string // the event: line
	Type  string `json:"type"`
	Index int    `json:"output_index"`
	Item  struct {
		Type      string  `json:"type"`
		CallID    string  `json:"call_id"`
		Name      string  `json:"name"`
		Namespace *string `json:"namespace"`
		Arguments *string `json:"arguments"`
		Role      string  `json:"role"`
		Content   []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"item"`
	Response struct {
		Status string           `json:"status"`
		Output []jsontext.Value `json:"output"`
	} `json:"response"`
}

// postResponses posts body to the fake and returns its events, in order.
func postResponses(t *testing.T, api *FakeResponses, body string) []responsesEvent {
	t.Helper()
	resp, err := http.Post(api.URL+"/v1/responses", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("content-type"))
	var out []responsesEvent
	sc := bufio.NewScanner(resp.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			continue
		}
		d, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		ev := responsesEvent{Event: event}
		require.NoError(t, Unmarshal([]byte(d), &ev), "%s", d)
		require.Equal(t, ev.Event, ev.Type, "the event: line names the data's type")
		out = append(out, ev)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	assert.Equal(t, "response.created", out[0].Type)
	last := out[len(out)-1]
	assert.Equal(t, "response.completed", last.Type)
	assert.Equal(t, "completed", last.Response.Status)
	assert.Len(t, last.Response.Output, len(out)-2, "the completed response holds every item sent")
	return out
}

// items returns the output items of events.
func items(evs []responsesEvent) []responsesEvent {
	var out []responsesEvent
	for _, e := range evs {
		if e.Type == "response.output_item.done" {
			out = append(out, e)
		}
	}
	return out
}

// tools is what Codex offers: its shell, and an MCP server's tools as a
// namespace.
const tools = `"tools":[{"type":"function","name":"exec_command"},{"type":"namespace","name":"mcp__probe","tools":[{"type":"function","name":"listen_here"}]},{"type":"web_search"}]`

func TestFakeResponsesPlaysTheScript(t *testing.T) {
	input := `{"room":"\ud800 K\u00f6ln 😀","n":12345678901234567890}`
	var log bytes.Buffer
	api, err := StartFakeResponses(Script{Turns: [][]Call{
		{{Tool: "exec_command", Input: `{"cmd":"ls","login":false}`}, {Tool: "mcp__probe__listen_here", Input: input}},
		{{Tool: "mcp__other__x", Input: `{}`}},
	}, Final: "bye"}, &log)
	require.NoError(t, err)
	defer api.Close()

	// First request: both calls of turn 1, the MCP one in its namespace,
	// the input's text exactly as written.
	first := `{"model":"fake-model","stream":true,` + tools + `,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`
	its := items(postResponses(t, api, first))
	require.Len(t, its, 2)
	assert.Equal(t, 0, its[0].Index)
	assert.Equal(t, 1, its[1].Index)
	assert.Equal(t, "function_call", its[0].Item.Type)
	assert.Equal(t, "call_1", its[0].Item.CallID)
	assert.Equal(t, "exec_command", its[0].Item.Name)
	assert.Nil(t, its[0].Item.Namespace, "a plain function has no namespace member")
	assert.Equal(t, `{"cmd":"ls","login":false}`, *its[0].Item.Arguments)
	assert.Equal(t, "call_2", its[1].Item.CallID)
	assert.Equal(t, "listen_here", its[1].Item.Name)
	require.NotNil(t, its[1].Item.Namespace)
	assert.Equal(t, "mcp__probe", *its[1].Item.Namespace)
	assert.Equal(t, input, *its[1].Item.Arguments, "arguments are the input's text byte for byte")

	// The same request again (a retry) gets the same turn.
	again := items(postResponses(t, api, first))
	require.Len(t, again, 2)
	assert.Equal(t, "call_1", again[0].Item.CallID)

	// With turn 1's calls in the input: turn 2, numbered on; a tool in no
	// offered namespace goes by its name as written.
	second := `{"model":"fake-model",` + tools + `,"input":[{"type":"function_call","call_id":"call_1","name":"exec_command","arguments":"{}"},{"type":"function_call_output","call_id":"call_1","output":"ok"},{"type":"function_call","call_id":"call_2","name":"listen_here","namespace":"mcp__probe","arguments":"{}"},{"type":"function_call_output","call_id":"call_2","output":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"},{"type":"input_image","image_url":"x"}]}]}`
	its = items(postResponses(t, api, second))
	require.Len(t, its, 1)
	assert.Equal(t, "call_3", its[0].Item.CallID)
	assert.Equal(t, "mcp__other__x", its[0].Item.Name)
	assert.Nil(t, its[0].Item.Namespace)

	// Every turn in the input: the final text, and for every later request.
	third := strings.Replace(second, `"input":[`, `"input":[{"type":"function_call","call_id":"call_3","name":"x","arguments":"{}"},`, 1)
	for range 2 {
		its = items(postResponses(t, api, third))
		require.Len(t, its, 1)
		assert.Equal(t, "message", its[0].Item.Type)
		assert.Equal(t, "assistant", its[0].Item.Role)
		require.Len(t, its[0].Item.Content, 1)
		assert.Equal(t, "output_text", its[0].Item.Content[0].Type)
		assert.Equal(t, "bye", its[0].Item.Content[0].Text)
	}

	reqs := api.Requests()
	require.Len(t, reqs, 5)
	var answered []string
	for _, q := range reqs {
		answered = append(answered, q.Answered)
		assert.True(t, q.Main())
		require.NotNil(t, q.Responses)
	}
	assert.Equal(t, []string{"main-function_call#1", "main-function_call#1", "main-function_call#2", "main-final", "main-final"}, answered)
	assert.Equal(t, []string{"exec_command", "mcp__probe__listen_here"}, api.Offered())
	assert.Equal(t, 5, bytes.Count(log.Bytes(), []byte("\n")), "one log line per request")

	// What the client told the model about each call.
	main := api.MainRequests()
	out := FindFunctionOutput(main, "call_1")
	require.NotNil(t, out)
	assert.Equal(t, "ok", out.Text)
	assert.Equal(t, `"ok"`, string(out.Output))
	out = FindFunctionOutput(main, "call_2")
	require.NotNil(t, out)
	assert.Equal(t, "a\nb\n"+`{"type":"input_image","image_url":"x"}`, out.Text)
	assert.Nil(t, FindFunctionOutput(main, "call_3"), "no output for call_3 was sent")
}

func TestFakeResponsesEmptyScriptAnswersDone(t *testing.T) {
	api, err := StartFakeResponses(Script{}, nil)
	require.NoError(t, err)
	defer api.Close()
	its := items(postResponses(t, api, `{"model":"m","input":[]}`))
	require.Len(t, its, 1)
	assert.Equal(t, "done", its[0].Item.Content[0].Text)
}

func TestFakeResponsesRefusesOthers(t *testing.T) {
	api, err := StartFakeResponses(Script{}, nil)
	require.NoError(t, err)
	defer api.Close()

	// Not JSON: 400, and no turn is used up.
	resp, err := http.Post(api.URL+"/v1/responses", "application/json", strings.NewReader(`{"input":`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	// Another endpoint: 404.
	resp, err = http.Get(api.URL + "/v1/models")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	// As a proxy, for plain HTTP and for a tunnel: refused and logged.
	conn, err := net.Dial("tcp", strings.TrimPrefix(api.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte("GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\n\r\nCONNECT api.openai.com:443 HTTP/1.1\r\nHost: api.openai.com:443\r\n\r\n"))
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	for range 2 {
		resp, err := http.ReadResponse(br, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		resp.Body.Close()
	}
	assert.Equal(t, []string{"http://example.com/x", "api.openai.com:443"}, api.OutsideTries())
	assert.Empty(t, api.MainRequests())
}

func TestResponsesOutputText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{``, ``},
		{`"plain \u00e9"`, "plain é"},
		{`[]`, ``},
		{`[{"type":"output_text","text":"a"},{"type":"input_text","text":""}]`, "a\n"},
		{`[{"type":"input_text"}]`, `{"type":"input_text"}`},
		{`{"odd":1}`, `{"odd":1}`},
		{`[1,`, `[1,`},
	} {
		assert.Equal(t, tt.want, ResponsesItem{Output: jsontext.Value(tt.in)}.OutputText(), "%s", tt.in)
	}
}
