package clientrun

// Tests of the fake chat-completions API. They need neither Copilot nor
// the network.

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatChunk is one streamed chunk of the fake's answer.
type chatChunk struct {
	Choices []struct {
		Delta struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

// postChat posts body to the fake and returns its chunks, in order,
// requiring the stream to end with [DONE].
func postChat(t *testing.T, api *FakeChat, body string) []chatChunk {
	t.Helper()
	resp, err := http.Post(api.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("content-type"))
	var out []chatChunk
	done := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if d == "[DONE]" {
			done = true
			continue
		}
		var c chatChunk
		require.NoError(t, Unmarshal([]byte(d), &c), d)
		out = append(out, c)
	}
	require.True(t, done, "the stream ends with [DONE]")
	return out
}

// finish returns the finish reason of the last chunk.
func finish(t *testing.T, cs []chatChunk) string {
	t.Helper()
	require.NotEmpty(t, cs)
	last := cs[len(cs)-1]
	require.Len(t, last.Choices, 1)
	require.NotNil(t, last.Choices[0].FinishReason)
	return *last.Choices[0].FinishReason
}

func TestFakeChatPlaysTheScript(t *testing.T) {
	var log bytes.Buffer
	api, err := StartFakeChat(Script{Turns: [][]Call{{{Tool: "bash", Input: `{"command":"ls"}`}, {Tool: "view", Input: `{"path":"a"}`}}, {{Tool: "bash", Input: `{"command":"pwd"}`}}}, Final: "bye"}, &log)
	require.NoError(t, err)
	defer api.Close()
	tools := `"tools":[{"type":"function","function":{"name":"bash"}}]`

	// First turn: both calls, ids 1 and 2.
	cs := postChat(t, api, `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"go"}]}`)
	assert.Equal(t, "tool_calls", finish(t, cs))
	var names, ids []string
	for _, c := range cs {
		for _, tc := range c.Choices[0].Delta.ToolCalls {
			names, ids = append(names, tc.Function.Name), append(ids, tc.ID)
		}
	}
	assert.Equal(t, []string{"bash", "view"}, names)
	assert.Equal(t, []string{ChatCallID(1), ChatCallID(2)}, ids)

	// Asked again with the first turn made: the second turn, id 3.
	second := `{"model":"m","stream":true,` + tools + `,"messages":[{"role":"user","content":"go"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_chat_1","type":"function","function":{"name":"bash","arguments":"{}"}},{"id":"call_chat_2","type":"function","function":{"name":"view","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"call_chat_1","content":"out 1"},{"role":"tool","tool_call_id":"call_chat_2","content":[{"type":"text","text":"out 2"}]}]}`
	cs = postChat(t, api, second)
	assert.Equal(t, "tool_calls", finish(t, cs))
	assert.Equal(t, ChatCallID(3), cs[1].Choices[0].Delta.ToolCalls[0].ID)
	// The same request again (a retry) gets the same answer.
	cs = postChat(t, api, second)
	assert.Equal(t, ChatCallID(3), cs[1].Choices[0].Delta.ToolCalls[0].ID)

	// Every turn made: the final text.
	final := strings.TrimSuffix(second, `]}`) + `,{"role":"assistant","content":null,"tool_calls":[{"id":"call_chat_3","type":"function","function":{"name":"bash","arguments":"{}"}}]}]}`
	cs = postChat(t, api, final)
	assert.Equal(t, "stop", finish(t, cs))
	text := ""
	for _, c := range cs {
		text += c.Choices[0].Delta.Content
	}
	assert.Equal(t, "bye", text)

	out, ok := api.ToolResult(ChatCallID(2))
	assert.True(t, ok)
	assert.Equal(t, "out 2", out)
	_, ok = api.ToolResult(ChatCallID(9))
	assert.False(t, ok)
	assert.Len(t, api.MainRequests(), 4)
	assert.Equal(t, 4, strings.Count(log.String(), "\n"), "one log line a request")
}

func TestFakeChatSideAndOther(t *testing.T) {
	api, err := StartFakeChat(Script{Turns: [][]Call{{{Tool: "bash", Input: `{}`}}}}, nil)
	require.NoError(t, err)
	defer api.Close()
	// No tools offered: a side request (a title), short text, not a call.
	resp, err := http.Post(api.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"title?"}]}`))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(b), `"finish_reason":"stop"`)
	assert.NotContains(t, string(b), "tool_calls")
	// Broken JSON: 400; another path: 404.
	resp, err = http.Post(api.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	resp, err = http.Get(api.URL + "/v1/nope")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	rs := api.Requests()
	require.Len(t, rs, 3)
	assert.Equal(t, []string{"side", "400", "404"}, []string{rs[0].Answered, rs[1].Answered, rs[2].Answered})
	assert.Empty(t, api.MainRequests())
}
