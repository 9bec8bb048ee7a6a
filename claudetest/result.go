package claudetest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/clientrun"
)

// Result is what one run did: per tool call, what the hooks received and
// answered, what the tool received and what the model was then told; and
// for the whole run, every hook run in order, the permission denials,
// the final text and the debug log's lines about hooks.
type Result struct {
	// Project is the project folder, Claude Code's working directory
	// (symbolic links resolved), as hooks see it in their cwd.
	Project string
	// Home is the run's fresh HOME.
	Home string
	// Dir holds everything of the run: home/, proj/, the hook records
	// (cap/), the fake API's log (api.log), Claude Code's output and
	// debug log. It is removed after the test unless $HOOK_E2E_WORK is
	// set.
	Dir string

	// Calls are the script's tool calls, in order.
	Calls []*ToolCall
	// Hooks are every hook run, in the order they started: the hook
	// events that fired, with what each hook received and answered.
	// Only the session's hooks are recorded; a recorder, Hook{Event: e},
	// shows whether and when e fires.
	Hooks []HookRun
	// MCPCalls are every call the session's MCP servers received, per
	// server in the order received, servers in Session order.
	MCPCalls []MCPCall
	// Denials are the tool calls the permission system refused (the -p
	// result's permission_denials).
	Denials []Denial
	// Text is the final assistant text (the -p result's "result").
	Text string
	// Requests are the bodies of the main-loop requests the fake model
	// got, in order, exactly as sent: what the model was told.
	Requests []jsontext.Value
	// DebugHooks are the lines of Claude Code's debug log that are about
	// hooks, in order.
	DebugHooks []string
	// OutsideTries are the hosts something tried to reach through the
	// fake API as a proxy. [Run] fails the test when there are any.
	OutsideTries []string

	// Interrupted reports that the turn was interrupted as
	// [Session].InterruptWhen asked: the file appeared and Claude Code
	// took the interrupt request.
	Interrupted bool

	// ExitCode is claude's exit code (-1 when it was killed).
	ExitCode int
	// Stdout and Stderr are claude's output; Stdout holds its JSON result
	// (with [Session].InterruptWhen, its stream-json messages, one a line,
	// the result last).
	Stdout, Stderr []byte
	// Elapsed is the wall time of the claude process.
	Elapsed time.Duration
}

// ToolCall is one tool call of the script and what became of it.
type ToolCall struct {
	// N numbers the script's calls from 1, across turns in order.
	N int
	// ID is the call's tool_use_id, as hooks see it.
	ID string
	// Tool is the tool's name; Input the input the model wrote (with
	// [ProjectDir] replaced).
	Tool, Input string
	// Hooks are the hook runs whose payload names this call's
	// tool_use_id (PreToolUse, PermissionRequest, PostToolUse, …), in
	// the order they started. To see the input a built-in tool ran with
	// (after a hook's updatedInput) and what it returned, add a recorder,
	// Hook{Event: "PostToolUse"}: its payload has both.
	Hooks []HookRun
	// MCP is what the MCP server received for the call, nil when it
	// received nothing (not an MCP tool, or the call was blocked).
	MCP *MCPCall
	// Result is what the model was told about the call: its tool_result
	// in the first main-loop request that carries one; nil when none
	// did.
	Result *ToolResult
	// Denied says the call is among the run's permission denials.
	Denied bool
}

// Hook returns the call's first run of the hook named name for event, and
// whether there is one.
func (c *ToolCall) Hook(name, event string) (HookRun, bool) {
	if hs := clientrun.HooksOf(c.Hooks, hookKey, name, event); len(hs) > 0 {
		return hs[0], true
	}
	return HookRun{}, false
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
	// With are the texts Claude Code sent with the result, up to the
	// next assistant message: the other text blocks of its message and
	// the messages after it, where hook messages go (a PostToolUse
	// block's reason, additionalContext). Where Claude Code names a
	// command hook by its command there, it shows the recorder's command
	// line in front of the hook's argv.
	With []string
}

// MCPCall is one call an MCP server of the session received.
type MCPCall struct {
	// Server and Tool name the server and the tool on it.
	Server, Tool string
	// Arguments are the call's arguments exactly as Claude Code sent
	// them, byte for byte.
	Arguments jsontext.Value
}

// HookRun is one run of a hook under test, as its recorder saw it.
type HookRun struct {
	// Seq numbers the hook runs of a session from 1, in start order.
	Seq int
	// Name is the [Hook]'s name.
	Name string
	// Event, Tool and ToolUseID are the payload's hook_event_name,
	// tool_name and tool_use_id ("" when it has none).
	Event, Tool, ToolUseID string
	// In is the payload exactly as Claude Code wrote it.
	In []byte
	// Out and Err are the hook's stdout and stderr (an http hook's
	// response body, and nothing).
	Out, Err []byte
	// Code is a command hook's exit code, or an http hook's HTTP status;
	// -1 when the hook did not finish (it was killed at its timeout).
	Code int
	// HTTP says the hook is an http hook.
	HTTP bool
}

// Input returns the raw value at the member names path inside the
// payload, e.g. Input("tool_input", "command"), exactly as written, and
// whether it is there.
func (h HookRun) Input(names ...string) (jsontext.Value, bool) {
	return clientrun.ValueAt(h.In, names...)
}

// Output returns the raw value at the member names path inside the hook's
// JSON answer, e.g. Output("hookSpecificOutput", "updatedInput"), and
// whether it is there. No names is the whole answer, when Out holds one
// JSON value.
func (h HookRun) Output(names ...string) (jsontext.Value, bool) {
	return clientrun.ValueAt(h.Out, names...)
}

// Denial is one entry of the -p result's permission_denials.
type Denial struct {
	// Tool and ToolUseID name the call.
	Tool, ToolUseID string
	// Input is the call's input as Claude Code reported it.
	Input jsontext.Value
}

// Call returns the script's n-th tool call (1-based, across turns); it
// panics when there is none, as an index out of range would.
func (r *Result) Call(n int) *ToolCall { return clientrun.NthCall("claudetest", r.Calls, n) }

// HooksOf returns the runs of the hook named name for event, in start
// order.
func (r *Result) HooksOf(name, event string) []HookRun {
	return clientrun.HooksOf(r.Hooks, hookKey, name, event)
}

// Events returns the events of the hook runs, in start order, as
// "Event" or "Event:Tool".
func (r *Result) Events() []string { return clientrun.Events(r.Hooks, hookKey) }

// hookKey is what the methods look a hook run up by.
func hookKey(h HookRun) clientrun.HookKey {
	return clientrun.HookKey{Name: h.Name, Event: h.Event, Tool: h.Tool}
}

// Told reports whether any main-loop request carries text (in its
// messages or system prompt, as sent: JSON-escaped), that is, whether the
// model was told it.
func (r *Result) Told(text string) bool { return clientrun.Told(r.Requests, text) }

// File returns the content of the project file rel (slash-separated), and
// whether it exists.
func (r *Result) File(rel string) (string, bool) { return clientrun.ReadProjectFile(r.Project, rel) }

// collect reads what the run left into the Result.
func (r *run) collect() error {
	for _, q := range r.api.Requests() {
		if q.Main() {
			r.Requests = append(r.Requests, q.Body)
		}
	}
	r.OutsideTries = r.api.OutsideTries()
	hooks, err := readHookRuns(r.f.CapDir())
	if err != nil {
		return err
	}
	r.Hooks = hooks
	if err := r.readOutput(); err != nil {
		return err
	}
	mcp, err := r.readProbes()
	if err != nil {
		return err
	}
	r.DebugHooks = r.debugHookLines()
	main := r.api.MainRequests()
	for i, c := range r.calls {
		tc := &ToolCall{N: i + 1, ID: clientrun.CallID(i + 1), Tool: c.Tool, Input: c.Input}
		for _, h := range r.Hooks {
			if h.ToolUseID == tc.ID {
				tc.Hooks = append(tc.Hooks, h)
			}
		}
		if pc, ok := mcp[tc.ID]; ok {
			tc.MCP = pc
		}
		tc.Result = toolResult(main, tc.ID)
		for _, d := range r.Denials {
			if d.ToolUseID == tc.ID {
				tc.Denied = true
			}
		}
		r.Calls = append(r.Calls, tc)
	}
	return nil
}

// readOutput decodes claude's JSON result.
func (r *run) readOutput() error {
	var res struct {
		Result            string `json:"result"`
		PermissionDenials []struct {
			ToolName  string         `json:"tool_name"`
			ToolUseID string         `json:"tool_use_id"`
			ToolInput jsontext.Value `json:"tool_input"`
		} `json:"permission_denials"`
	}
	out := bytes.TrimSpace(r.Stdout)
	if len(out) == 0 {
		return nil // the exit code tells
	}
	if r.stream {
		out = resultLine(out)
		if out == nil {
			return errors.New("claude's stream-json output has no result message")
		}
	}
	if err := clientrun.Unmarshal(out, &res); err != nil {
		return fmt.Errorf("claude's output is not its JSON result: %w", err)
	}
	r.Text = res.Result
	for _, d := range res.PermissionDenials {
		r.Denials = append(r.Denials, Denial{Tool: d.ToolName, ToolUseID: d.ToolUseID, Input: d.ToolInput})
	}
	return nil
}

// resultLine returns the last line of stream-json output whose message
// type is "result", or nil.
func resultLine(out []byte) []byte {
	var found []byte
	for line := range bytes.Lines(out) {
		var m struct {
			Type string `json:"type"`
		}
		if clientrun.Unmarshal(bytes.TrimSpace(line), &m) == nil && m.Type == "result" {
			found = bytes.TrimSpace(line)
		}
	}
	return found
}

// readProbes returns what the MCP servers received, by tool_use_id.
// Claude Code names the call in each request's _meta; a call without that
// id is matched in order with the script's calls of that tool that were
// not refused (the probe itself never answers an error).
func (r *run) readProbes() (map[string]*MCPCall, error) {
	out := map[string]*MCPCall{}
	main := r.api.MainRequests()
	for _, m := range r.mcp {
		calls, err := r.f.ReadProbeLog(m.Name)
		if err != nil {
			return nil, err
		}
		unnamed := map[string][]*MCPCall{}
		for _, c := range calls {
			pc := &MCPCall{Server: m.Name, Tool: c.Tool, Arguments: c.Arguments}
			r.MCPCalls = append(r.MCPCalls, *pc)
			if c.ToolUseID != "" {
				if _, dup := out[c.ToolUseID]; !dup {
					out[c.ToolUseID] = pc
				}
				continue
			}
			unnamed[pc.Tool] = append(unnamed[pc.Tool], pc)
		}
		for i, c := range r.calls {
			id := clientrun.CallID(i + 1)
			tool, ok := strings.CutPrefix(c.Tool, "mcp__"+m.Name+"__")
			if _, done := out[id]; !ok || done || len(unnamed[tool]) == 0 {
				continue
			}
			if res := toolResult(main, id); res != nil && res.IsError {
				continue // blocked, or refused before it reached the server
			}
			out[id] = unnamed[tool][0]
			unnamed[tool] = unnamed[tool][1:]
		}
	}
	return out, nil
}

// toolResult returns what the model was told about the call id (see
// [ToolCall.Result]).
func toolResult(main []*clientrun.Request, id string) *ToolResult {
	res := clientrun.FindToolResult(main, id)
	if res == nil {
		return nil
	}
	return (*ToolResult)(res)
}

// readHookRuns reads the hook records in dir, in start order.
func readHookRuns(dir string) ([]HookRun, error) {
	recs, err := clientrun.ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	out := make([]HookRun, 0, len(recs))
	for _, h := range recs {
		out = append(out, HookRun{Seq: h.Seq, Name: h.Label, Event: h.Event, Tool: h.Tool, ToolUseID: h.ToolUseID,
			In: h.In, Out: h.Out, Err: h.Err, Code: h.Code, HTTP: h.HTTP})
	}
	return out, nil
}

// debugNoise marks debug lines that mention hooks but are about Claude
// Code's own plugins or telemetry.
var debugNoise = []string{"hooks module ", "hooks native host", " telemetry]", " hooks from "}

// debugHookLines returns the lines of the debug log that are about hooks,
// with the recorder's part of each hook command left out, so that a
// command reads as the hook's argv.
func (r *run) debugHookLines() []string {
	b, err := os.ReadFile(filepath.Join(r.Dir, "debug.log"))
	if err != nil {
		return nil
	}
	var out []string
lines:
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(strings.ToLower(line), "hook") {
			continue
		}
		for _, n := range debugNoise {
			if strings.Contains(line, n) {
				continue lines
			}
		}
		out = append(out, r.f.WithoutRecorder(line))
	}
	return out
}

// diagnose returns a short account of the run for a failure message.
func (r *run) diagnose() string {
	var api clientrun.Requester
	if r.api != nil {
		api = r.api
	}
	return harness.Diagnose(r.f, clientrun.Proc{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode, Elapsed: r.Elapsed}, api)
}
