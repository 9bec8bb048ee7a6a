package clientrun

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ResponsesCallID returns the call_id the fake Responses API gives to the
// n-th call of a script (1-based, counted across turns in order): "call_1",
// "call_2", …, the shape of the ids OpenAI's models write. Codex hands it
// to hooks as tool_use_id.
func ResponsesCallID(n int) string { return "call_" + strconv.Itoa(n) }

// FakeResponses is a fake OpenAI Responses API on 127.0.0.1, for the
// Codex CLI (a model provider with wire_api = "responses"). Every POST
// /v1/responses is answered from the script with server-sent events: the
// calls of the first turn whose first call the request's input does not
// hold yet, as function_call items with call ids [ResponsesCallID], or
// the script's Final as a message once every turn is in the input. So a
// request the client retries gets the same answer again. A call of a tool
// that the request offers inside a namespace tool, such as an MCP
// server's "mcp__probe" with its tool "listen_here", called
// "mcp__probe__listen_here" in the script, is sent with that namespace.
// Every request is logged; pointed at as an HTTP(S) proxy, it logs and
// refuses each request, so the log shows any attempt to reach another
// host.
//
// Its URL is the server's base URL, http://127.0.0.1:<port>; the client's
// base_url is URL + "/v1".
type FakeResponses struct {
	fakeServer // URL, CloseLog, Requests, MainRequests, OutsideTries, Close

	// Script is what it plays.
	Script Script
}

// ResponsesRequest is the part of a Responses API request body the tests
// read.
type ResponsesRequest struct {
	// Model is the model the client asked for.
	Model string `json:"model"`
	// Stream says the client wants server-sent events.
	Stream bool `json:"stream"`
	// Tools are the tools offered to the model.
	Tools []ResponsesTool `json:"tools"`
	// Input is the conversation so far, item by item.
	Input []ResponsesItem `json:"input"`
}

// ResponsesTool is one tool offered in a Responses request: a function
// ("exec_command"), or a namespace of functions (an MCP server's
// "mcp__<server>"), or a built-in such as web_search (no name).
type ResponsesTool struct {
	// Type is "function", "namespace", "web_search", ….
	Type string `json:"type"`
	// Name is the tool's (or the namespace's) name.
	Name string `json:"name"`
	// Tools are a namespace's functions.
	Tools []ResponsesTool `json:"tools"`
}

// ResponsesItem is one input item of a Responses request.
type ResponsesItem struct {
	// Type is "message", "function_call", "function_call_output", ….
	Type string `json:"type"`
	// Role and Content are a message's role and content (an array of
	// input_text or output_text parts, or a string).
	Role    string         `json:"role"`
	Content jsontext.Value `json:"content"`
	// CallID names a function_call and its function_call_output.
	CallID string `json:"call_id"`
	// Name, Namespace and Arguments are a function_call's function, its
	// namespace ("" for none) and the arguments' JSON text.
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Arguments string `json:"arguments"`
	// Output is a function_call_output's output: a string, or an array
	// of content parts (see [ResponsesItem.OutputText]).
	Output jsontext.Value `json:"output"`
}

// OutputText flattens a function_call_output's output (a string, or an
// array of parts) to text: the text parts joined with newlines, other
// parts as their JSON.
func (it ResponsesItem) OutputText() string {
	return partsText(it.Output)
}

// partsText flattens a string or an array of content parts (Anthropic
// blocks, OpenAI input and output parts) to text: the text of each part
// whose type ends in "text" and that has a text member, each other part
// as its JSON, joined with newlines.
func partsText(v jsontext.Value) string {
	if len(v) == 0 {
		return ""
	}
	if v[0] == '"' {
		var s string
		if Unmarshal(v, &s) == nil {
			return s
		}
	}
	var parts []jsontext.Value
	if Unmarshal(v, &parts) != nil {
		return string(v)
	}
	var out []string
	for _, p := range parts {
		var tp struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if Unmarshal(p, &tp) == nil && tp.Text != nil && strings.HasSuffix(tp.Type, "text") {
			out = append(out, *tp.Text)
		} else {
			out = append(out, string(p))
		}
	}
	return strings.Join(out, "\n")
}

// StartFakeResponses starts a fake Responses API that plays script on a
// free port of 127.0.0.1. Each request is also written to log (if not
// nil) as one JSON line. Close stops it.
func StartFakeResponses(script Script, log io.Writer) (*FakeResponses, error) {
	f := &FakeResponses{Script: script}
	if err := f.start("fake Responses API", f.serve, log); err != nil {
		return nil, err
	}
	return f, nil
}

// Offered returns the names of the tools of the request that offered the
// most, a namespace's functions as "<namespace>__<function>".
func (f *FakeResponses) Offered() []string {
	var most []ResponsesTool
	for _, r := range f.Requests() {
		if r.Responses != nil && len(r.Responses.Tools) > len(most) {
			most = r.Responses.Tools
		}
	}
	var out []string
	for _, t := range most {
		switch {
		case t.Type == "namespace":
			for _, ft := range t.Tools {
				out = append(out, t.Name+"__"+ft.Name)
			}
		case t.Name != "":
			out = append(out, t.Name)
		}
	}
	return out
}

// serve answers req. The request is recorded before the first byte of
// the answer is written, so that a client that has its answer finds it in
// [FakeResponses.Requests].
func (f *FakeResponses) serve(w http.ResponseWriter, req *http.Request) {
	const what = "fake Responses API"
	f.handle(w, req, func(r *Request) func() {
		if req.Method != http.MethodPost || req.URL.Path != "/v1/responses" {
			return openAIError(w, r, http.StatusNotFound, "not_found_error", what, "no such endpoint")
		}
		var m ResponsesRequest
		if err := Unmarshal(r.Body, &m); err != nil {
			return openAIError(w, r, http.StatusBadRequest, "invalid_request_error", what, err.Error())
		}
		r.Responses = &m
		var items []responsesItem
		items, r.Answered = f.plan(&m)
		return func() { stream(w, m.Model, items) }
	})
}

// Turn returns the index of the script's turn that answers a request
// whose input is m's (the first turn whose first call is not among the
// input's function calls), or len(Script.Turns) for the final text, and
// the number of calls made before that turn.
func (f *FakeResponses) Turn(m *ResponsesRequest) (turn, before int) {
	made := map[string]bool{}
	for _, it := range m.Input {
		if it.Type == "function_call" {
			made[it.CallID] = true
		}
	}
	return f.Script.turn(func(n int) bool { return made[ResponsesCallID(n)] })
}

// responsesItem is one output item the fake model sends.
type responsesItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Status    string          `json:"status"`
	CallID    string          `json:"call_id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Namespace string          `json:"namespace,omitempty"`
	Arguments *string         `json:"arguments,omitempty"`
	Role      string          `json:"role,omitempty"`
	Content   []responsesPart `json:"content,omitempty"`
}

type responsesPart struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations"`
}

// split returns the namespace and function a call of tool goes to, given
// the tools offered: ("mcp__probe", "listen_here") for
// "mcp__probe__listen_here" when the namespace mcp__probe offers
// listen_here, else ("", tool).
func split(tools []ResponsesTool, tool string) (string, string) {
	for _, t := range tools {
		if t.Type != "namespace" {
			continue
		}
		fn, ok := strings.CutPrefix(tool, t.Name+"__")
		if !ok {
			continue
		}
		for _, ft := range t.Tools {
			if ft.Name == fn {
				return t.Name, fn
			}
		}
	}
	return "", tool
}

// plan returns the output items that answer m, and how it is answered:
// "main-function_call#<turn>" or "main-final".
func (f *FakeResponses) plan(m *ResponsesRequest) ([]responsesItem, string) {
	turn, before := f.Turn(m)
	if turn < len(f.Script.Turns) {
		var items []responsesItem
		for i, c := range f.Script.Turns[turn] {
			ns, name := split(m.Tools, c.Tool)
			args := c.Input
			items = append(items, responsesItem{Type: "function_call", ID: newID("fc_"), Status: "completed",
				CallID: ResponsesCallID(before + i + 1), Name: name, Namespace: ns, Arguments: &args})
		}
		return items, "main-function_call#" + strconv.Itoa(turn+1)
	}
	return []responsesItem{{Type: "message", ID: newID("msg_"), Status: "completed", Role: "assistant",
		Content: []responsesPart{{Type: "output_text", Text: f.Script.final(), Annotations: []any{}}}}}, "main-final"
}

// stream writes items as a streamed response of model: response.created,
// one response.output_item.done per item, response.completed.
func stream(w http.ResponseWriter, model string, items []responsesItem) {
	id := newID("resp_")
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(typ string, data map[string]any) {
		data["type"] = typ
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	send("response.created", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "in_progress", "model": model, "output": []any{}}})
	for i, it := range items {
		send("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	send("response.completed", map[string]any{"response": map[string]any{"id": id, "object": "response", "status": "completed", "model": model, "output": items,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
			"input_tokens_details": map[string]int{"cached_tokens": 0}, "output_tokens_details": map[string]int{"reasoning_tokens": 0}}}})
}

// FunctionOutput is what a Responses client told the model about one
// function call: its function_call_output item.
type FunctionOutput struct {
	// Text is the output as text (see [ResponsesItem.OutputText]).
	Text string
	// Output is the item's output exactly as sent.
	Output jsontext.Value
}

// FindFunctionOutput returns the function_call_output for the call id in
// the first of the requests main that has one; nil when none has one.
func FindFunctionOutput(main []*Request, id string) *FunctionOutput {
	for _, q := range main {
		if q.Responses == nil {
			continue
		}
		for _, it := range q.Responses.Input {
			if it.Type == "function_call_output" && it.CallID == id {
				return &FunctionOutput{Text: it.OutputText(), Output: it.Output}
			}
		}
	}
	return nil
}
