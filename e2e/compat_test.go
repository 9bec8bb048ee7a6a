package e2e_test

// The helpers of the e2e package before it became a claudetest user, for
// tests written against them: a test that imported
// github.com/gohooks/hook/e2e drops that import and the "e2e." qualifier
// (Case, Script, Turn, Hook, Run, Capture, CallID, ProbeTool, Member,
// Path, ParseJSString …) and keeps run, needE2E, hook, captures, bash,
// field, str and jsonText. Each Case runs through claudetest.Run, with the
// probe MCP server (listen_here {room, fingerprint}) offered as before.
// New tests use claudetest directly.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/internal/jsonopts"
)

// ProbeTool is the name under which the model calls the probe MCP
// server's listen_here tool.
const ProbeTool = "mcp__probe__listen_here"

// ProjectPlaceholder in a Call's Input stands for the run's project folder.
const ProjectPlaceholder = "@PROJ@"

// DefaultAllow is the permissions.allow list of a Case that sets none.
var DefaultAllow = []string{"Bash", "Read", "Write", "Edit", ProbeTool}

// probeServer is the MCP server every Case offers.
var probeServer = claudetest.MCPServer{Name: "probe", Tools: []claudetest.MCPTool{{
	Name:        "listen_here",
	Description: "Register a listener in a room.",
	Schema:      `{"type":"object","properties":{"room":{"type":"string"},"fingerprint":{"type":"string"}}}`,
	Reply:       "listening",
}}}

// Call, Turn, Script, Hook and Case describe one run as before.
type (
	Call   = claudetest.Call
	Turn   = claudetest.Turn
	Script struct {
		Turns     []Turn
		FinalText string
	}
	Hook struct {
		Event, Matcher string
		Command        []string
		Label          string
	}
	Case struct {
		Script Script
		Hooks  []Hook
		Allow  []string
		Setup  func(r *Run) error
	}
)

// CallID returns the tool_use id of the n-th call of a script.
func CallID(n int) string { return fmt.Sprintf("toolu_claudetest_%d", n) }

// Run is one finished run, seen as before.
type Run struct {
	Dir, Home, Project string
	ExitCode           int
	Stdout, Stderr     []byte
	Elapsed            time.Duration
	API                apiView
	res                *claudetest.Result
}

// File returns the content of the project file rel, and whether it exists.
func (r *Run) File(rel string) (string, bool) { return r.res.File(rel) }

// Capture is one hook invocation.
type Capture struct {
	Seq                int
	Label, Event, Tool string
	In, Out, Err       []byte
	Code               int
}

// Field returns the raw value of the payload's top-level member name.
func (c Capture) Field(name string) (jsontext.Value, bool) {
	return Member(bytes.TrimSpace(c.In), name)
}

// ProbeCall is one call the probe MCP server received.
type ProbeCall struct {
	Name      string
	Arguments jsontext.Value
}

// Block is what the model was told about a call.
type Block struct {
	IsError bool
	text    string
}

// ContentText returns the tool_result's content as text.
func (b Block) ContentText() string { return b.text }

// APIRequest is one main-loop request.
type APIRequest struct{ Body []byte }

// apiView answers the old questions about the fake API's requests.
type apiView struct{ r *claudetest.Result }

// ToolResult returns what the model was told about the call id.
func (a apiView) ToolResult(id string) (Block, bool) {
	for _, c := range a.r.Calls {
		if c.ID == id && c.Result != nil {
			return Block{IsError: c.Result.IsError, text: c.Result.Text}, true
		}
	}
	return Block{}, false
}

// ModelSaw reports whether any main-loop request carries text.
func (a apiView) ModelSaw(text string) bool { return a.r.Told(text) }

// MainRequests returns the main-loop requests.
func (a apiView) MainRequests() []*APIRequest {
	var out []*APIRequest
	for _, b := range a.r.Requests {
		out = append(out, &APIRequest{Body: b})
	}
	return out
}

// OutsideTries returns the hosts something tried to reach.
func (a apiView) OutsideTries() []string { return a.r.OutsideTries }

// Captures returns the recorded hook invocations, in start order.
func (r *Run) Captures() ([]Capture, error) {
	var out []Capture
	for _, h := range r.res.Hooks {
		out = append(out, Capture{Seq: h.Seq, Label: h.Name, Event: h.Event, Tool: h.Tool, In: h.In, Out: h.Out, Err: h.Err, Code: h.Code})
	}
	return out, nil
}

// CapturesOf returns the recorded invocations of event by the hook label.
func (r *Run) CapturesOf(label, event string) ([]Capture, error) {
	all, _ := r.Captures()
	var out []Capture
	for _, c := range all {
		if c.Label == label && c.Event == event {
			out = append(out, c)
		}
	}
	return out, nil
}

// Probe returns the calls the probe MCP server received, in order.
func (r *Run) Probe() ([]ProbeCall, error) {
	var out []ProbeCall
	for _, c := range r.res.Calls {
		if c.MCP != nil {
			out = append(out, ProbeCall{Name: c.MCP.Tool, Arguments: c.MCP.Arguments})
		}
	}
	return out, nil
}

// Denied returns the tool names of the permission denials.
func (r *Run) Denied() []string {
	var out []string
	for _, d := range r.res.Denials {
		out = append(out, d.Tool)
	}
	return out
}

// Result is the part of claude's --output-format json result the tests
// read.
type Result struct {
	Type              string `json:"type"`
	Subtype           string `json:"subtype"`
	IsError           bool   `json:"is_error"`
	Result            string `json:"result"`
	StopReason        string `json:"stop_reason"`
	NumTurns          int    `json:"num_turns"`
	PermissionDenials []struct {
		ToolName  string         `json:"tool_name"`
		ToolUseID string         `json:"tool_use_id"`
		ToolInput jsontext.Value `json:"tool_input"`
	} `json:"permission_denials"`
}

// Result decodes claude's output.
func (r *Run) Result() (*Result, error) {
	var res Result
	if err := json.Unmarshal(bytes.TrimSpace(r.Stdout), &res, jsonopts.Lenient()); err != nil {
		return nil, fmt.Errorf("e2e: claude's output is not its JSON result: %w", err)
	}
	return &res, nil
}

// toSession translates a Case.
func toSession(c Case) claudetest.Session {
	s := claudetest.Session{Final: c.Script.FinalText, MCP: []claudetest.MCPServer{probeServer}, Allow: c.Allow}
	if s.Allow == nil {
		s.Allow = DefaultAllow
	}
	for _, turn := range c.Script.Turns {
		var nt Turn
		for _, call := range turn {
			call.Input = strings.ReplaceAll(call.Input, ProjectPlaceholder, claudetest.ProjectDir)
			nt = append(nt, call)
		}
		s.Turns = append(s.Turns, nt)
	}
	for _, h := range c.Hooks {
		s.Hooks = append(s.Hooks, claudetest.Hook{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Name: h.Label})
	}
	if c.Setup != nil {
		s.Setup = func(project string) error {
			return c.Setup(&Run{Project: project, Dir: filepath.Dir(project), Home: filepath.Join(filepath.Dir(project), "home")})
		}
	}
	return s
}

// needE2E skips the test unless the end-to-end tests were asked for.
func needE2E(t *testing.T) {
	t.Helper()
	claudetest.Need(t)
}

// run runs c once with the real claude (see claudetest.Run).
func run(t *testing.T, c Case) *Run {
	t.Helper()
	res := claudetest.Run(t, toSession(c))
	return &Run{Dir: res.Dir, Home: res.Home, Project: res.Project, ExitCode: res.ExitCode,
		Stdout: res.Stdout, Stderr: res.Stderr, Elapsed: res.Elapsed, API: apiView{res}, res: res}
}

// The hooks hook built, by name, in one folder per test process.
var built struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// hook returns the argv of the hook name with args: examples/<name>, or
// e2e/testdata/<name>, built on first use.
func hook(name string, args ...string) []string {
	built.Lock()
	defer built.Unlock()
	if bin, ok := built.bins[name]; ok {
		return append([]string{bin}, args...)
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "hook-e2e-bin-")
		if err != nil {
			panic(err)
		}
		built.dir, built.bins = dir, map[string]string{}
	}
	pkg := ""
	for _, p := range []string{"../examples/" + name, "./testdata/" + name, "./cmd/" + name} {
		if _, err := os.Stat(p); err == nil {
			pkg = p
			break
		}
	}
	if pkg == "" {
		panic("hook: no examples/" + name + " nor e2e/testdata/" + name)
	}
	bin := filepath.Join(built.dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		panic(fmt.Sprintf("hook: go build %s: %v\n%s", pkg, err, out))
	}
	built.bins[name] = bin
	return append([]string{bin}, args...)
}

// removeBuiltHooks removes what hook built.
func removeBuiltHooks() {
	built.Lock()
	defer built.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// captures returns the invocations of event by the hook label, requiring n
// of them.
func captures(t *testing.T, r *Run, label, event string, n int) []Capture {
	t.Helper()
	cs, err := r.CapturesOf(label, event)
	require.NoError(t, err)
	require.Len(t, cs, n, "%s runs of %s", event, label)
	return cs
}

// bash returns a Bash call.
func bash(t *testing.T, command string) Call {
	return Call{Tool: "Bash", Input: jsonText(t, map[string]string{"command": command, "description": "e2e step"})}
}

// jsonText returns the JSON encoding of v.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v, jsonopts.Deterministic())
	require.NoError(t, err)
	return string(b)
}

// Member returns the raw value of the top-level member name of the JSON
// object obj, exactly as written, and whether it is there.
func Member(obj []byte, name string) (jsontext.Value, bool) {
	d := jsontext.NewDecoder(bytes.NewReader(obj), jsonopts.Read())
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, false
		}
		key := tok.String()
		v, err := d.ReadValue()
		if err != nil {
			return nil, false
		}
		if key == name {
			return append(jsontext.Value(nil), v...), true
		}
	}
	return nil, false
}

// Path returns the raw value at the member names path inside obj.
func Path(obj []byte, names ...string) (jsontext.Value, bool) {
	v := jsontext.Value(obj)
	for _, n := range names {
		var ok bool
		if v, ok = Member(v, n); !ok {
			return nil, false
		}
	}
	return v, true
}

// TestOldHelpers runs one Case through the old helpers, as a test written
// against them does: a Bash call and a probe call, a recorder hook, a
// Setup that uses the run's folders.
func TestOldHelpers(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, Case{
		Script: Script{Turns: []Turn{
			{bash(t, "cat ../side.txt | tee copied.txt")},
			{{Tool: ProbeTool, Input: `{"room":"\ud800 @PROJ@"}`}},
		}, FinalText: "old done"},
		Hooks: []Hook{{Event: "PreToolUse", Matcher: "*", Label: "rec"}},
		Setup: func(r *Run) error {
			return os.WriteFile(filepath.Join(r.Dir, "side.txt"), []byte("SIDE-7\n"), 0o644)
		},
	})
	pre := captures(t, r, "rec", "PreToolUse", 2)
	assert.Equal(t, "Bash", pre[0].Tool)
	assert.Equal(t, ProbeTool, pre[1].Tool)
	cmd, ok := pre[0].Field("tool_input")
	require.True(t, ok)
	assert.Equal(t, "cat ../side.txt | tee copied.txt", str(t, field(t, cmd, "command")))
	copied, _ := r.File("copied.txt")
	assert.Equal(t, "SIDE-7\n", copied)
	calls, err := r.Probe()
	require.NoError(t, err)
	require.Len(t, calls, 1)
	q, _ := json.Marshal(r.Project)
	assert.Equal(t, `"\ud800 `+string(q[1:len(q)-1])+`"`, string(field(t, calls[0].Arguments, "room")), "@PROJ@ replaced, escapes kept")
	res, ok := r.API.ToolResult(CallID(2))
	require.True(t, ok)
	assert.Equal(t, "listening", res.ContentText())
	assert.True(t, r.API.ModelSaw("SIDE-7"))
	assert.Empty(t, r.API.OutsideTries())
	out, err := r.Result()
	require.NoError(t, err)
	assert.Equal(t, "old done", out.Result)
	assert.Equal(t, "success", out.Subtype)
	assert.Empty(t, r.Denied())
}
