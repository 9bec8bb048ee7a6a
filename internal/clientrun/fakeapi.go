package clientrun

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// Script is what the fake model does in the main loop: one assistant
// message per turn, each answered with tool_use blocks (stop reason
// tool_use), and then Final with stop reason end_turn, which it also
// answers to every later main-loop request (after a Stop hook blocked).
type Script struct {
	// Turns are the assistant messages, each making its calls together.
	Turns [][]Call
	// Final is the last text ("done" when empty).
	Final string
}

// Call is one tool call the fake model makes.
type Call struct {
	// Tool is the tool's name as the model calls it.
	Tool string
	// Input is the exact JSON text of the call's input object.
	Input string
}

// CallID returns the tool_use id the fake model gives to the n-th call of
// a script (1-based, counted across turns in order).
func CallID(n int) string { return fmt.Sprintf("toolu_claudetest_%d", n) }

// FakeAPI is a fake Anthropic Messages API on 127.0.0.1. It plays a
// script for main-loop requests (those whose tools offer the script's
// first tool, or every request when the script has no tool call),
// answers any other /v1/messages request with a short text, streams
// server-sent events when the request asks for stream:true, and logs every
// request. Pointed at as an HTTP(S) proxy, it logs and refuses each
// request, so the log shows any attempt to reach another host.
type FakeAPI struct {
	fakeServer // URL, CloseLog, Requests, MainRequests, OutsideTries, Close

	// Script is what it plays.
	Script Script
}

// Request is one request the fake API received.
type Request struct {
	// Seq numbers the requests from 1 in arrival order.
	Seq int
	// Method and Target are the request line's method and target (the
	// path, or an absolute URL or host:port when sent to a proxy).
	Method, Target string
	// Answered says how it was answered: "main-tool_use#<turn>",
	// "main-final", "side", "count_tokens", "models", "root", "404",
	// "refused-proxy" or "refused-connect".
	Answered string
	// Body is the request body, exactly as received.
	Body []byte
	// Messages is the decoded body of a /v1/messages request, else nil.
	Messages *MessagesRequest
	// Responses is the decoded body of a /v1/responses request (see
	// [FakeResponses]), else nil.
	Responses *ResponsesRequest
	// Chat is the decoded body of a /v1/chat/completions request (see
	// [FakeChat]), else nil.
	Chat *ChatRequest
}

// Main reports whether the request was answered from the script.
func (r *Request) Main() bool { return strings.HasPrefix(r.Answered, "main-") }

// Outside reports whether the request tried to reach another host through
// the fake API as a proxy.
func (r *Request) Outside() bool { return strings.HasPrefix(r.Answered, "refused-") }

// MessagesRequest is the part of a Messages API request body the tests
// read.
type MessagesRequest struct {
	// Model is the model the client asked for.
	Model string `json:"model"`
	// Stream says the client wants server-sent events.
	Stream bool `json:"stream"`
	// Tools are the tools offered to the model.
	Tools []ToolDef `json:"tools"`
	// System is the system prompt, as sent.
	System jsontext.Value `json:"system"`
	// Messages is the conversation so far.
	Messages []Message `json:"messages"`
}

// ToolDef is one tool offered in a request.
type ToolDef struct {
	// Name is the tool's name.
	Name string `json:"name"`
}

// Message is one conversation message of a request.
type Message struct {
	// Role is "user" or "assistant".
	Role string `json:"role"`
	// Content is a string or an array of content blocks.
	Content jsontext.Value `json:"content"`
}

// Block is one content block of a message.
type Block struct {
	// Type is "text", "tool_use", "tool_result", ….
	Type string `json:"type"`
	// Text is a text block's text.
	Text string `json:"text"`
	// ID, Name and Input are a tool_use block's call id, tool and input.
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input jsontext.Value `json:"input"`
	// ToolUseID, Content and IsError are a tool_result block's call id,
	// content (a string or an array of blocks, see [Block.ContentText])
	// and error flag.
	ToolUseID string         `json:"tool_use_id"`
	Content   jsontext.Value `json:"content"`
	IsError   bool           `json:"is_error"`
}

// Blocks returns the message's content blocks; a string content is one
// text block.
func (m Message) Blocks() []Block {
	if len(m.Content) > 0 && m.Content[0] == '"' {
		var s string
		if Unmarshal(m.Content, &s) == nil {
			return []Block{{Type: "text", Text: s}}
		}
		return nil
	}
	var bs []Block
	if Unmarshal(m.Content, &bs) != nil {
		return nil
	}
	return bs
}

// ContentText flattens a tool_result's content (a string or an array of
// blocks) to text, as [ResponsesItem.OutputText] does: text blocks are
// joined with newlines, other blocks are written as their JSON.
func (b Block) ContentText() string { return partsText(b.Content) }

// StartFakeAPI starts a fake API that plays script on a free port of
// 127.0.0.1. Each request is also written to log (if not nil) as one JSON
// line. Close stops it.
func StartFakeAPI(script Script, log io.Writer) (*FakeAPI, error) {
	f := &FakeAPI{Script: script}
	if err := f.start("fake API", f.serve, log); err != nil {
		return nil, err
	}
	return f, nil
}

// Offered returns the tool names of the request that offered the most
// tools.
func (f *FakeAPI) Offered() []string {
	var most []ToolDef
	for _, r := range f.Requests() {
		if r.Messages != nil && len(r.Messages.Tools) > len(most) {
			most = r.Messages.Tools
		}
	}
	out := make([]string, 0, len(most))
	for _, t := range most {
		out = append(out, t.Name)
	}
	return out
}

// logLine returns r as one JSON line of a fake API's request log: its
// sequence number, time, request line, how it was answered and its body
// (compacted when it is JSON, else as a string).
func logLine(r *Request) []byte {
	var line bytes.Buffer
	enc := jsontext.NewEncoder(&line, jsonopts.Read())
	body := jsontext.Value(r.Body)
	if err := body.Compact(jsonopts.Read()); err != nil || len(body) == 0 {
		b, _ := json.Marshal(string(r.Body))
		body = b
	}
	json.MarshalEncode(enc, struct {
		Seq      int            `json:"seq"`
		Time     string         `json:"t"`
		Method   string         `json:"method"`
		Target   string         `json:"target"`
		Answered string         `json:"answered"`
		Body     jsontext.Value `json:"body"`
	}{r.Seq, time.Now().UTC().Format(time.RFC3339Nano), r.Method, r.Target, r.Answered, body})
	return line.Bytes()
}

// serve answers req. The request is recorded before the first byte of
// the answer is written, so that a client that has its answer finds it in
// [FakeAPI.Requests].
func (f *FakeAPI) serve(w http.ResponseWriter, req *http.Request) {
	f.handle(w, req, func(r *Request) func() {
		switch {
		case req.Method == http.MethodPost && req.URL.Path == "/v1/messages":
			var m MessagesRequest
			if err := Unmarshal(r.Body, &m); err != nil {
				return anthropicError(w, r, http.StatusBadRequest, "invalid_request_error", "fake API: "+err.Error())
			}
			r.Messages = &m
			var rep reply
			rep, r.Answered = f.plan(&m)
			return func() { messagesAnswer(w, &m, rep) }
		case req.Method == http.MethodPost && req.URL.Path == "/v1/messages/count_tokens":
			r.Answered = "count_tokens"
			return func() { writeJSON(w, http.StatusOK, map[string]int{"input_tokens": 100}) }
		case req.Method == http.MethodGet && req.URL.Path == "/v1/models":
			r.Answered = "models"
			return func() { writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "has_more": false}) }
		case req.Method == http.MethodHead || (req.Method == http.MethodGet && req.URL.Path == "/"):
			r.Answered = "root"
			return func() { w.WriteHeader(http.StatusOK) }
		}
		return anthropicError(w, r, http.StatusNotFound, "not_found_error", "fake API: no such endpoint")
	})
}

// anthropicError marks r answered with code and returns the function
// that writes an Anthropic-style error of type typ.
func anthropicError(w http.ResponseWriter, r *Request, code int, typ, msg string) func() {
	r.Answered = strconv.Itoa(code)
	return func() {
		writeJSON(w, code, map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	}
}

// proxyKind returns how a request sent to the fake API as a proxy is
// answered: "refused-connect" for a client that uses it as its HTTPS
// proxy (a tunnel), "refused-proxy" for plain HTTP sent to it as a proxy
// (an absolute-form request line); "" for a request to the API itself.
func proxyKind(req *http.Request) string {
	switch {
	case req.Method == http.MethodConnect:
		return "refused-connect"
	case strings.Contains(req.RequestURI, "://"):
		return "refused-proxy"
	}
	return ""
}

// refuse answers a request for another host.
func refuse(w http.ResponseWriter) {
	http.Error(w, "fake API: no outside hosts", http.StatusForbidden)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("content-type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}

// reply is one assistant message to send.
type reply struct {
	blocks     []replyBlock
	stopReason string
}

type replyBlock struct {
	text      string // a text block when id is empty
	id, name  string
	inputJSON string
}

// plan picks the answer to a /v1/messages request and names it.
func (f *FakeAPI) plan(m *MessagesRequest) (reply, string) {
	if !f.isMain(m) {
		return reply{blocks: []replyBlock{{text: "ok"}}, stopReason: "end_turn"}, "side"
	}
	done := 0
	for _, msg := range m.Messages {
		if msg.Role != "assistant" {
			continue
		}
		for _, b := range msg.Blocks() {
			if b.Type == "tool_use" {
				done++
				break
			}
		}
	}
	if done < len(f.Script.Turns) {
		n := 0
		for _, t := range f.Script.Turns[:done] {
			n += len(t)
		}
		var rep reply
		for _, c := range f.Script.Turns[done] {
			n++
			rep.blocks = append(rep.blocks, replyBlock{id: CallID(n), name: c.Tool, inputJSON: c.Input})
		}
		rep.stopReason = "tool_use"
		return rep, fmt.Sprintf("main-tool_use#%d", done+1)
	}
	return reply{blocks: []replyBlock{{text: f.Script.final()}}, stopReason: "end_turn"}, "main-final"
}

func (f *FakeAPI) isMain(m *MessagesRequest) bool {
	if len(f.Script.Turns) == 0 || len(f.Script.Turns[0]) == 0 {
		return true
	}
	first := f.Script.Turns[0][0].Tool
	for _, t := range m.Tools {
		if t.Name == first {
			return true
		}
	}
	return false
}

func newID(prefix string) string {
	b := make([]byte, 12)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// messagesAnswer writes rep as the answer to m: one message object, or,
// when m asks for a stream, its server-sent events.
func messagesAnswer(w http.ResponseWriter, m *MessagesRequest, rep reply) {
	model := m.Model
	if model == "" {
		model = "claude-fake"
	}
	id := newID("msg_")
	w.Header().Set("request-id", newID("req_"))
	w.Header().Set("anthropic-organization-id", "00000000-0000-0000-0000-000000000000")
	if !m.Stream {
		content := make([]any, 0, len(rep.blocks))
		for _, b := range rep.blocks {
			if b.id == "" {
				content = append(content, map[string]string{"type": "text", "text": b.text})
			} else {
				content = append(content, map[string]any{"type": "tool_use", "id": b.id, "name": b.name, "input": jsontext.Value(b.inputJSON)})
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model, "content": content,
			"stop_reason": rep.stopReason, "stop_sequence": nil,
			"usage": usage{InputTokens: 10, OutputTokens: 5},
		})
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
	sse := func(event string, data any) {
		b, err := json.Marshal(data)
		if err != nil {
			panic(err) // our own data: a bug
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	sse("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage{InputTokens: 10, OutputTokens: 1},
	}})
	for i, b := range rep.blocks {
		if b.id == "" {
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]string{"type": "text", "text": ""}})
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "text_delta", "text": b.text}})
		} else {
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b.id, "name": b.name, "input": map[string]any{}}})
			// Two deltas, so that Claude Code has to join partial JSON.
			cut := len(b.inputJSON) / 2
			for cut > 0 && !utf8.RuneStart(b.inputJSON[cut]) {
				cut--
			}
			for _, part := range []string{b.inputJSON[:cut], b.inputJSON[cut:]} {
				sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "input_json_delta", "partial_json": part}})
			}
		}
		sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sse("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": rep.stopReason, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 5}})
	sse("message_stop", map[string]string{"type": "message_stop"})
}

// ToolResult is a tool_result block as the model got it.
type ToolResult struct {
	// Text is the content as text: a string content as is, text blocks
	// joined with newlines, other blocks as their JSON.
	Text string
	// IsError is the block's is_error.
	IsError bool
	// Content is the block's content exactly as sent.
	Content jsontext.Value
	// With are the texts sent with the result, up to the next assistant
	// message: the other text blocks of its message and the messages
	// after it, where hook messages go.
	With []string
}

// FindToolResult returns the tool_result for the call id in the first of
// the main-loop requests main that has one, with the text of what follows
// it up to the next assistant message; nil when none has one.
func FindToolResult(main []*Request, id string) *ToolResult {
	for _, q := range main {
		if q.Messages == nil {
			continue
		}
		msgs := q.Messages.Messages
		for i, m := range msgs {
			if m.Role != "user" {
				continue
			}
			blocks := m.Blocks()
			for _, b := range blocks {
				if b.Type != "tool_result" || b.ToolUseID != id {
					continue
				}
				res := &ToolResult{Text: b.ContentText(), IsError: b.IsError, Content: b.Content}
				for _, o := range blocks {
					if o.Type == "text" {
						res.With = append(res.With, o.Text)
					}
				}
				for _, next := range msgs[i+1:] {
					if next.Role == "assistant" {
						break
					}
					for _, o := range next.Blocks() {
						if o.Type == "text" {
							res.With = append(res.With, o.Text)
						}
					}
				}
				return res
			}
		}
	}
	return nil
}
