package clientrun

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ChatCallID returns the tool call id the fake chat-completions API gives
// to the n-th call of a script (1-based, counted across turns in order):
// "call_chat_1", "call_chat_2", ….
func ChatCallID(n int) string { return "call_chat_" + strconv.Itoa(n) }

// FakeChat is a fake OpenAI chat-completions API on 127.0.0.1, for the
// GitHub Copilot CLI (COPILOT_PROVIDER_BASE_URL = URL + "/v1", provider
// type openai). Every POST /v1/chat/completions that offers tools is
// answered from the script: the calls of the first turn whose first call
// the request's messages do not hold yet, as tool_calls with ids
// [ChatCallID], or the script's Final once every turn is in the messages,
// so a request the client retries gets the same answer again. A request
// that offers no tools (a title, a summary) gets a short text. Answers
// are server-sent events when the request asks for stream:true. Every
// request is logged; pointed at as an HTTP(S) proxy, it logs and refuses
// each request, so the log shows any attempt to reach another host.
//
// Its URL is the server's base URL, http://127.0.0.1:<port>; the client's
// base URL is URL + "/v1".
type FakeChat struct {
	fakeServer // URL, CloseLog, Requests, MainRequests, OutsideTries, Close

	// Script is what it plays.
	Script Script
}

// ChatRequest is the part of a chat-completions request body the tests
// read.
type ChatRequest struct {
	// Model is the model the client asked for.
	Model string `json:"model"`
	// Stream says the client wants server-sent events.
	Stream bool `json:"stream"`
	// Tools are the tools offered to the model.
	Tools []ChatTool `json:"tools"`
	// Messages is the conversation so far.
	Messages []ChatMessage `json:"messages"`
}

// ChatTool is one tool offered in a chat-completions request.
type ChatTool struct {
	// Type is "function".
	Type string `json:"type"`
	// Function names the function.
	Function struct {
		Name string `json:"name"`
	} `json:"function"`
}

// ChatMessage is one message of a chat-completions request.
type ChatMessage struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string `json:"role"`
	// Content is a string or an array of parts.
	Content jsontext.Value `json:"content"`
	// ToolCalls are an assistant message's calls.
	ToolCalls []ChatToolCall `json:"tool_calls"`
	// ToolCallID names the call a tool message answers.
	ToolCallID string `json:"tool_call_id"`
}

// Text returns the message's content as text (see [ResponsesItem.OutputText]).
func (m ChatMessage) Text() string { return partsText(m.Content) }

// ChatToolCall is one tool call of an assistant message.
type ChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// StartFakeChat starts a fake chat-completions API that plays script on
// a free port of 127.0.0.1. Each request is also written to log (if not
// nil) as one JSON line. Close stops it.
func StartFakeChat(script Script, log io.Writer) (*FakeChat, error) {
	f := &FakeChat{Script: script}
	if err := f.start("fake chat-completions API", f.serve, log); err != nil {
		return nil, err
	}
	return f, nil
}

// ToolResult returns what the client told the model about the call id:
// the content of the first tool message that answers it, in the first
// main request that holds one; ok is false when none does.
func (f *FakeChat) ToolResult(id string) (text string, ok bool) {
	for _, q := range f.MainRequests() {
		if q.Chat == nil {
			continue
		}
		for _, m := range q.Chat.Messages {
			if m.Role == "tool" && m.ToolCallID == id {
				return m.Text(), true
			}
		}
	}
	return "", false
}

// serve answers req. The request is recorded before the first byte of
// the answer is written, so that a client that has its answer finds it in
// [FakeChat.Requests].
func (f *FakeChat) serve(w http.ResponseWriter, req *http.Request) {
	const what = "fake chat-completions API"
	f.handle(w, req, func(r *Request) func() {
		switch {
		case req.Method == http.MethodPost && req.URL.Path == "/v1/chat/completions":
			var m ChatRequest
			if err := Unmarshal(r.Body, &m); err != nil {
				return openAIError(w, r, http.StatusBadRequest, "invalid_request_error", what, err.Error())
			}
			r.Chat = &m
			var msg chatReply
			msg, r.Answered = f.plan(&m)
			return func() { chatAnswer(w, &m, msg) }
		case req.Method == http.MethodGet && req.URL.Path == "/v1/models":
			r.Answered = "models"
			return func() {
				writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{map[string]any{"id": "gpt-4.1", "object": "model", "owned_by": "fake"}}})
			}
		}
		return openAIError(w, r, http.StatusNotFound, "not_found_error", what, "no such endpoint")
	})
}

// Turn returns the index of the script's turn that answers a request
// whose messages are m's (the first turn whose first call is not among
// the messages' tool calls), or len(Script.Turns) for the final text, and
// the number of calls made before that turn.
func (f *FakeChat) Turn(m *ChatRequest) (turn, before int) {
	made := map[string]bool{}
	for _, msg := range m.Messages {
		for _, c := range msg.ToolCalls {
			made[c.ID] = true
		}
	}
	return f.Script.turn(func(n int) bool { return made[ChatCallID(n)] })
}

// chatReply is the assistant message the fake model sends.
type chatReply struct {
	content string
	calls   []ChatToolCall
}

// plan returns the message that answers m, and how it is answered:
// "main-tool_calls#<turn>", "main-final" or "side".
func (f *FakeChat) plan(m *ChatRequest) (chatReply, string) {
	if len(m.Tools) == 0 {
		return chatReply{content: "ok"}, "side"
	}
	turn, before := f.Turn(m)
	if turn < len(f.Script.Turns) {
		var calls []ChatToolCall
		for i, c := range f.Script.Turns[turn] {
			var tc ChatToolCall
			tc.ID, tc.Type = ChatCallID(before+i+1), "function"
			tc.Function.Name, tc.Function.Arguments = c.Tool, c.Input
			calls = append(calls, tc)
		}
		return chatReply{calls: calls}, "main-tool_calls#" + strconv.Itoa(turn+1)
	}
	return chatReply{content: f.Script.final()}, "main-final"
}

// chatAnswer writes msg as the answer to m: one chat.completion object,
// or, when m asks for a stream, chunks as server-sent events ending with
// [DONE].
func chatAnswer(w http.ResponseWriter, m *ChatRequest, msg chatReply) {
	id := newID("chatcmpl-")
	model := m.Model
	finish := "stop"
	if len(msg.calls) > 0 {
		finish = "tool_calls"
	}
	usage := map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !m.Stream {
		message := map[string]any{"role": "assistant", "content": nil}
		if msg.content != "" {
			message["content"] = msg.content
		}
		if len(msg.calls) > 0 {
			message["tool_calls"] = msg.calls
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	created := time.Now().Unix()
	send := func(delta map[string]any, finish any, usage any) {
		chunk := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			chunk["usage"] = usage
		}
		b, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	send(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if msg.content != "" {
		send(map[string]any{"content": msg.content}, nil, nil)
	}
	for i, c := range msg.calls {
		send(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Function.Name, "arguments": c.Function.Arguments}}}}, nil, nil)
	}
	send(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}
