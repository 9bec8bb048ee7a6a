package codextest

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/clientrun"
)

// Result is what one run did: per tool call, what the hooks received and
// answered, what an MCP server received and what the model was then told;
// and for the whole run, every hook run in order, the final text and
// what Codex said about its hooks.
type Result struct {
	// Project is the project folder, Codex's working directory (symbolic
	// links resolved), as hooks see it in their cwd.
	Project string
	// Home is the run's fresh CODEX_HOME, also its HOME: config.toml,
	// hooks.json, and the sessions/ Codex writes (a payload's
	// transcript_path is under it).
	Home string
	// Dir holds everything of the run: home/, proj/, the hook records
	// (cap/), the fake API's log (api.log), Codex's output. It is removed
	// after the test unless $HOOK_E2E_WORK is set.
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
	// Text is the model's last message, as codex exec reports it.
	Text string
	// Requests are the bodies of the Responses API requests the fake
	// model got, in order, exactly as sent: what the model was told.
	Requests []jsontext.Value
	// OutsideTries are the hosts something tried to reach through the
	// fake API as a proxy. [Run] fails the test when there are any.
	OutsideTries []string

	// ExitCode is codex's exit code (-1 when it was killed).
	ExitCode int
	// Stdout and Stderr are codex's output; Stderr has its account of
	// the session, with a line per hook run (see [Result.HookStatuses]).
	Stdout, Stderr []byte
	// Elapsed is the wall time of the codex process.
	Elapsed time.Duration
}

// ToolCall is one tool call of the script and what became of it.
type ToolCall struct {
	// N numbers the script's calls from 1, across turns in order.
	N int
	// ID is the call's call_id, "call_<N>", which hooks see as
	// tool_use_id.
	ID string
	// Tool is the tool's name as the model called it; Input the input
	// the model wrote (with [ProjectDir] replaced).
	Tool, Input string
	// Hooks are the hook runs whose payload names this call's
	// tool_use_id (PreToolUse, PostToolUse, …), in the order they
	// started. To see the input a tool ran with (after a hook's
	// updatedInput) and what it returned, add a recorder,
	// Hook{Event: "PostToolUse"}: its payload has both.
	Hooks []HookRun
	// MCP is what the MCP server received for the call, nil when it
	// received nothing (not an MCP tool, or the call was blocked).
	MCP *MCPCall
	// Result is what the model was told about the call: its
	// function_call_output in the first request that carries one; nil
	// when none did.
	Result *ToolResult
}

// Hook returns the call's first run of the hook named name for event, and
// whether there is one.
func (c *ToolCall) Hook(name, event string) (HookRun, bool) {
	if hs := clientrun.HooksOf(c.Hooks, hookKey, name, event); len(hs) > 0 {
		return hs[0], true
	}
	return HookRun{}, false
}

// ToolResult is a function_call_output as the model got it.
type ToolResult struct {
	// Text is the output as text: a string output as is, the text parts
	// of an array joined with newlines, other parts as their JSON. For a
	// shell call Codex writes the command's output after a header
	// ("Process exited with code 0", "Output:"); for a call a hook
	// blocked, the hook's reason ("Command blocked by PreToolUse hook:
	// …").
	Text string
	// Output is the output exactly as sent.
	Output jsontext.Value
}

// MCPCall is one call an MCP server of the session received.
type MCPCall struct {
	// Server and Tool name the server and the tool on it.
	Server, Tool string
	// Arguments are the call's arguments exactly as Codex sent them,
	// byte for byte.
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
	// In is the payload exactly as Codex wrote it.
	In []byte
	// Out and Err are the hook's stdout and stderr.
	Out, Err []byte
	// Code is the hook's exit code; -1 when it did not finish (it was
	// killed at its timeout).
	Code int
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

// Call returns the script's n-th tool call (1-based, across turns); it
// panics when there is none, as an index out of range would.
func (r *Result) Call(n int) *ToolCall { return clientrun.NthCall("codextest", r.Calls, n) }

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

// HookStatuses returns what Codex reported of each run of a hook for
// event, in order, from its account on stderr ("hook: PreToolUse
// Blocked"): "Completed", "Blocked", "Failed", …. It covers every hook
// Codex ran, those of Session.Setup too.
func (r *Result) HookStatuses(event string) []string {
	return hookStatuses(r.Stderr, event)
}

// hookStatuses parses codex's stderr for [Result.HookStatuses].
func hookStatuses(stderr []byte, event string) []string {
	var st []string
	prefix := "hook: " + event + " "
	for _, line := range strings.Split(string(stderr), "\n") {
		if s, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), prefix); ok {
			if f := strings.Fields(s); len(f) > 0 {
				st = append(st, f[0])
			}
		}
	}
	return st
}

// Told reports whether any request carries text (in its input or
// instructions, as sent: JSON-escaped), that is, whether the model was
// told it.
func (r *Result) Told(text string) bool { return clientrun.Told(r.Requests, text) }

// File returns the content of the project file rel (slash-separated), and
// whether it exists.
func (r *Result) File(rel string) (string, bool) { return clientrun.ReadProjectFile(r.Project, rel) }

// collect reads what the run left into the Result.
func (r *run) collect() error {
	main := r.api.MainRequests()
	for _, q := range main {
		r.Requests = append(r.Requests, q.Body)
	}
	r.OutsideTries = r.api.OutsideTries()
	hooks, err := readHookRuns(r.f.CapDir())
	if err != nil {
		return err
	}
	r.Hooks = hooks
	if b, err := os.ReadFile(filepath.Join(r.Dir, "last-message.txt")); err == nil {
		r.Text = strings.TrimRight(string(b), "\n")
	}
	for i, c := range r.calls {
		tc := &ToolCall{N: i + 1, ID: clientrun.ResponsesCallID(i + 1), Tool: c.Tool, Input: c.Input}
		for _, h := range r.Hooks {
			if h.ToolUseID == tc.ID {
				tc.Hooks = append(tc.Hooks, h)
			}
		}
		if out := clientrun.FindFunctionOutput(main, tc.ID); out != nil {
			tc.Result = &ToolResult{Text: out.Text, Output: out.Output}
		}
		r.Calls = append(r.Calls, tc)
	}
	return r.readProbes()
}

// blocked reports whether what the model was told about a call says a
// hook blocked it.
func blocked(res *ToolResult) bool {
	return res != nil && strings.Contains(res.Text, "blocked by") && strings.Contains(res.Text, "hook")
}

// readProbes reads what the MCP servers received into MCPCalls and each
// call's MCP. Codex does not name the call in its request to the server,
// so the calls a server received are matched in order with the script's
// calls of that tool that Codex did not report blocked by a hook.
func (r *run) readProbes() error {
	for _, m := range r.mcp {
		calls, err := r.f.ReadProbeLog(m.Name)
		if err != nil {
			return err
		}
		got := map[string][]*MCPCall{}
		for _, c := range calls {
			pc := &MCPCall{Server: m.Name, Tool: c.Tool, Arguments: c.Arguments}
			r.MCPCalls = append(r.MCPCalls, *pc)
			got[pc.Tool] = append(got[pc.Tool], pc)
		}
		for _, tc := range r.Calls {
			tool, ok := strings.CutPrefix(tc.Tool, "mcp__"+m.Name+"__")
			if !ok || len(got[tool]) == 0 || blocked(tc.Result) {
				continue
			}
			tc.MCP = got[tool][0]
			got[tool] = got[tool][1:]
		}
	}
	return nil
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
			In: h.In, Out: h.Out, Err: h.Err, Code: h.Code})
	}
	return out, nil
}

// diagnose returns a short account of the run for a failure message.
func (r *run) diagnose() string {
	var api clientrun.Requester
	if r.api != nil {
		api = r.api
	}
	return harness.Diagnose(r.f, clientrun.Proc{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode, Elapsed: r.Elapsed}, api)
}
