package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// SessionID is the fixed --session-id of every run.
const SessionID = "00000000-0000-4000-8000-00000000e2e0"

// ProbeTool is the name under which the model calls the probe MCP
// server's listen_here tool.
const ProbeTool = "mcp__probe__listen_here"

// DefaultAllow is the permissions.allow list of a run whose case sets
// none.
var DefaultAllow = []string{"Bash", "Read", "Write", "Edit", ProbeTool}

// Harness runs cases against one claude executable.
type Harness struct {
	// Claude is the claude executable.
	Claude string
	// Bin is the folder holding the helper binaries built by [Build]:
	// hooktap and mcpprobe, and the hooks under test.
	Bin string
	// Timeout limits one claude run (default 120 s).
	Timeout time.Duration

	jobs chan struct{}
}

// NewHarness returns a harness that lets jobs claude runs go at once.
func NewHarness(claude, bin string, timeout time.Duration, jobs int) *Harness {
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	if jobs <= 0 {
		jobs = 1
	}
	return &Harness{Claude: claude, Bin: bin, Timeout: timeout, jobs: make(chan struct{}, jobs)}
}

// Path returns the path of the built binary name.
func (h *Harness) Path(name string) string { return filepath.Join(h.Bin, name) }

// Hook is one command hook registered in a run's project settings. Every
// hook runs under hooktap, which records its stdin, stdout, stderr and exit
// code (see [Run.Captures]).
type Hook struct {
	// Event is the hook event, e.g. "PreToolUse".
	Event string
	// Matcher is the settings matcher ("" for events without one).
	Matcher string
	// Command is the hook's argv; empty records the payload and answers
	// nothing.
	Command []string
	// Label names the hook in its captures (default: the base name of
	// Command[0], or "record").
	Label string
}

// Case is one claude run.
type Case struct {
	// Script is what the fake model does.
	Script Script
	// Hooks are registered in the project's .claude/settings.json.
	Hooks []Hook
	// Allow is the project's permissions.allow list; nil means
	// [DefaultAllow].
	Allow []string
	// Setup, if set, prepares the run's folders before claude starts.
	Setup func(r *Run) error
}

// Run is one finished claude run and what it left behind.
type Run struct {
	// Dir holds everything of the run: home/, proj/, cap/ (hook captures),
	// api.log, probe.log, claude.out, claude.err, debug.log.
	Dir string
	// Home is the fresh HOME of the run.
	Home string
	// Project is the project folder and claude's working directory
	// (symbolic links resolved).
	Project string
	// API is the fake Messages API the run talked to (already closed).
	API *FakeAPI
	// ExitCode is claude's exit code (-1 when it was killed).
	ExitCode int
	// TimedOut says the run was killed at the harness's Timeout.
	TimedOut bool
	// Stdout and Stderr are claude's output.
	Stdout, Stderr []byte
	// Elapsed is the wall time of the claude process.
	Elapsed time.Duration
}

// Run prepares a fresh HOME and project under dir (created if missing),
// starts a fake API for c.Script, runs `claude -p` once in the project and
// returns what happened. A non-zero claude exit is not an error; the
// caller checks what it needs.
func (h *Harness) Run(ctx context.Context, dir string, c Case) (*Run, error) {
	r := &Run{Dir: dir, Home: filepath.Join(dir, "home")}
	for _, d := range []string{r.Home, filepath.Join(dir, "proj", ".claude"), r.capDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	proj, err := filepath.EvalSymlinks(filepath.Join(dir, "proj"))
	if err != nil {
		return nil, err
	}
	r.Project = proj
	if err := h.writeConfig(r, c); err != nil {
		return nil, err
	}
	if c.Setup != nil {
		if err := c.Setup(r); err != nil {
			return nil, fmt.Errorf("e2e: setup: %w", err)
		}
	}
	logf, err := openLog(filepath.Join(dir, "api.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	api, err := StartFakeAPI(c.Script.withProject(r.Project), logf)
	if err != nil {
		return nil, err
	}
	r.API = api
	defer api.Close()

	select {
	case h.jobs <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-h.jobs }()
	err = h.runClaude(ctx, r)
	return r, err
}

// ProjectPlaceholder in a [Call]'s Input stands for the run's project
// folder.
const ProjectPlaceholder = "@PROJ@"

// withProject returns a copy of s with [ProjectPlaceholder] replaced.
func (s Script) withProject(dir string) Script {
	q, _ := json.Marshal(dir)
	esc := string(q[1 : len(q)-1])
	out := Script{FinalText: s.FinalText}
	for _, t := range s.Turns {
		var nt Turn
		for _, c := range t {
			c.Input = strings.ReplaceAll(c.Input, ProjectPlaceholder, esc)
			nt = append(nt, c)
		}
		out.Turns = append(out.Turns, nt)
	}
	return out
}

func (r *Run) capDir() string { return filepath.Join(r.Dir, "cap") }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (h *Harness) hookCommand(r *Run, hk Hook) string {
	label := hk.Label
	if label == "" {
		label = "record"
		if len(hk.Command) > 0 {
			label = filepath.Base(hk.Command[0])
		}
	}
	words := append([]string{h.Path("hooktap"), r.capDir(), label}, hk.Command...)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

func writeJSONFile(path string, v any) error {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return err
	}
	if err := (*jsontext.Value)(&b).Indent(); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// writeConfig writes the trust entry, the project settings and the MCP
// configuration.
func (h *Harness) writeConfig(r *Run, c Case) error {
	// Without the trust entry, -p ignores the project's permissions.allow
	// (its hooks run either way).
	if err := writeJSONFile(filepath.Join(r.Home, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{r.Project: map[string]bool{"hasTrustDialogAccepted": true}},
	}); err != nil {
		return err
	}
	type command struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []command `json:"hooks"`
	}
	hooks := map[string][]group{}
	for _, hk := range c.Hooks {
		hooks[hk.Event] = append(hooks[hk.Event], group{Matcher: hk.Matcher, Hooks: []command{{"command", h.hookCommand(r, hk), 30}}})
	}
	allow := c.Allow
	if allow == nil {
		allow = DefaultAllow
	}
	if err := writeJSONFile(filepath.Join(r.Project, ".claude", "settings.json"), map[string]any{
		"permissions": map[string]any{"allow": allow},
		"hooks":       hooks,
	}); err != nil {
		return err
	}
	return writeJSONFile(filepath.Join(r.Dir, "mcp.json"), map[string]any{
		"mcpServers": map[string]any{"probe": map[string]any{
			"type": "stdio", "command": h.Path("mcpprobe"), "args": []string{filepath.Join(r.Dir, "probe.log")},
		}},
	})
}

// runClaude runs claude -p in the project with a clean environment that
// points it at the fake API only.
func (h *Harness) runClaude(ctx context.Context, r *Run) error {
	base := r.API.URL
	env := []string{
		"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb", "HOME=" + r.Home,
		"ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=dummy-e2e-key",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		// MCP tools would otherwise be deferred behind ToolSearch and not
		// offered in the request's tools.
		"ENABLE_TOOL_SEARCH=false",
		// Anything that still tries another host goes to the fake API as
		// a proxy, which logs and refuses it.
		"HTTPS_PROXY=" + base, "HTTP_PROXY=" + base, "https_proxy=" + base, "http_proxy=" + base,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	args := []string{"-p", "go", "--output-format", "json", "--session-id", SessionID,
		"--mcp-config", filepath.Join(r.Dir, "mcp.json"), "--strict-mcp-config",
		"--debug-file", filepath.Join(r.Dir, "debug.log")}
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, h.Claude, args...)
	cmd.Dir = r.Project
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Own process group, so that a timeout ends the hooks and the MCP
	// server too.
	ownProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	t0 := time.Now()
	err := cmd.Run()
	r.Elapsed = time.Since(t0)
	// Leftovers of the run (an MCP server claude did not stop).
	killProcessGroup(cmd)
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	os.WriteFile(filepath.Join(r.Dir, "claude.out"), r.Stdout, 0o644)
	os.WriteFile(filepath.Join(r.Dir, "claude.err"), r.Stderr, 0o644)
	r.ExitCode = cmd.ProcessState.ExitCode()
	if ctx.Err() == context.DeadlineExceeded {
		r.TimedOut = true
		return fmt.Errorf("e2e: claude did not finish within %v", h.Timeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("e2e: running claude: %w", err)
	}
	return nil
}

// File returns the content of the project file rel, and whether it exists.
func (r *Run) File(rel string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(r.Project, rel))
	return string(b), err == nil
}

// Result is the part of claude's --output-format json result the tests
// read.
type Result struct {
	// Type is "result"; Subtype is "success" or an error kind.
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	// IsError says the run ended in an error.
	IsError bool `json:"is_error"`
	// Result is the final assistant text.
	Result string `json:"result"`
	// StopReason is the final stop reason, e.g. "end_turn".
	StopReason string `json:"stop_reason"`
	// NumTurns counts the model turns.
	NumTurns int `json:"num_turns"`
	// PermissionDenials are the tool calls the permission system refused.
	PermissionDenials []struct {
		ToolName  string         `json:"tool_name"`
		ToolUseID string         `json:"tool_use_id"`
		ToolInput jsontext.Value `json:"tool_input"`
	} `json:"permission_denials"`
}

// Result decodes claude's output.
func (r *Run) Result() (*Result, error) {
	var res Result
	if err := unmarshal(bytes.TrimSpace(r.Stdout), &res); err != nil {
		return nil, fmt.Errorf("e2e: claude's output is not its JSON result: %w", err)
	}
	return &res, nil
}

// Denied returns the tool names of the result's permission_denials.
func (r *Run) Denied() []string {
	res, err := r.Result()
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range res.PermissionDenials {
		out = append(out, d.ToolName)
	}
	return out
}

// Capture is one hook invocation recorded by hooktap.
type Capture struct {
	// Seq numbers the invocations of a run from 1, in start order.
	Seq int
	// Label names the hook (see [Hook]).
	Label string
	// Event and Tool are the payload's hook_event_name and tool_name.
	Event, Tool string
	// In is the payload, exactly as Claude Code wrote it.
	In []byte
	// Out and Err are the hook's stdout and stderr.
	Out, Err []byte
	// Code is the hook's exit code.
	Code int
}

// Field returns the raw value of the payload's top-level member name.
func (c Capture) Field(name string) (jsontext.Value, bool) {
	return Member(bytes.TrimSpace(c.In), name)
}

// Captures returns the recorded hook invocations, in start order.
func (r *Run) Captures() ([]Capture, error) {
	ins, err := filepath.Glob(filepath.Join(r.capDir(), "*.in"))
	if err != nil {
		return nil, err
	}
	var out []Capture
	for _, in := range ins {
		base := strings.TrimSuffix(in, ".in")
		seq, err := strconv.Atoi(filepath.Base(base))
		if err != nil {
			continue
		}
		c := Capture{Seq: seq}
		code, err := os.ReadFile(base + ".code")
		if err != nil {
			return nil, fmt.Errorf("e2e: hook invocation %d did not finish", seq)
		}
		if c.Code, err = strconv.Atoi(string(code)); err != nil {
			return nil, err
		}
		c.In, _ = os.ReadFile(in)
		c.Out, _ = os.ReadFile(base + ".out")
		c.Err, _ = os.ReadFile(base + ".err")
		label, _ := os.ReadFile(base + ".label")
		c.Label = string(label)
		if v, ok := c.Field("hook_event_name"); ok {
			unmarshal(v, &c.Event)
		}
		if v, ok := c.Field("tool_name"); ok {
			unmarshal(v, &c.Tool)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

// CapturesOf returns the recorded invocations of event by the hook label.
func (r *Run) CapturesOf(label, event string) ([]Capture, error) {
	all, err := r.Captures()
	if err != nil {
		return nil, err
	}
	var out []Capture
	for _, c := range all {
		if c.Label == label && c.Event == event {
			out = append(out, c)
		}
	}
	return out, nil
}

// ProbeCall is one call the probe MCP server received.
type ProbeCall struct {
	// Name is the tool name.
	Name string
	// Arguments is the call's arguments exactly as Claude Code sent them.
	Arguments jsontext.Value
}

// Probe returns the calls the probe MCP server received, in order.
func (r *Run) Probe() ([]ProbeCall, error) {
	b, err := os.ReadFile(filepath.Join(r.Dir, "probe.log"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ProbeCall
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var pc ProbeCall
		name, ok1 := Member(line, "name")
		args, ok2 := Member(line, "arguments")
		if !ok1 || !ok2 || unmarshal(name, &pc.Name) != nil {
			return nil, fmt.Errorf("e2e: bad probe log line %.80q", line)
		}
		pc.Arguments = args
		out = append(out, pc)
	}
	return out, nil
}

// Diagnose returns a short account of the run for a failure message: the
// claude exit, its stderr, the hooks that ran and the requests the fake API
// got.
func (r *Run) Diagnose() string {
	var b strings.Builder
	fmt.Fprintf(&b, "run folder %s; claude exit %d after %v", r.Dir, r.ExitCode, r.Elapsed.Round(time.Millisecond))
	if r.TimedOut {
		b.WriteString(" (timed out)")
	}
	if s := strings.TrimSpace(string(r.Stderr)); s != "" {
		fmt.Fprintf(&b, "\nclaude stderr: %.2000s", s)
	}
	if caps, err := r.Captures(); err == nil {
		for _, c := range caps {
			fmt.Fprintf(&b, "\nhook %d %s %s %s: exit %d, stdout %.300q, stderr %.300q", c.Seq, c.Label, c.Event, c.Tool, c.Code, c.Out, c.Err)
		}
	}
	if r.API != nil {
		for _, q := range r.API.Requests() {
			fmt.Fprintf(&b, "\napi %d %s %s -> %s", q.Seq, q.Method, q.Target, q.Answered)
		}
	}
	return b.String()
}

// Member returns the raw value of the top-level member name of the JSON
// object obj, exactly as written, and whether it is there.
func Member(obj []byte, name string) (jsontext.Value, bool) {
	d := jsontext.NewDecoder(bytes.NewReader(obj), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
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

// Path returns the raw value at the member names path inside obj, e.g.
// Path(out, "hookSpecificOutput", "updatedInput").
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

// Build builds the main packages pkgs of the module in moduleDir into
// outDir, one executable each, named after the package's folder.
func Build(ctx context.Context, moduleDir, outDir string, pkgs ...string) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	args := append([]string{"build", "-o", outDir + string(filepath.Separator)}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = moduleDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("e2e: go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
