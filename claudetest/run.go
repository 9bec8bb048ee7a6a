package claudetest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/jsonopts"
)

// sessionID is the fixed --session-id of every run.
const sessionID = "00000000-0000-4000-8000-00000000c1a0"

// Run runs Claude Code once, headless (`claude -p`), for s in a fresh HOME
// and project folder, against a fake Messages API on 127.0.0.1 that plays
// s's script, and returns what happened.
//
// It skips t, with one message saying why, unless HOOK_E2E=1 and Claude
// Code can be run here (installed, or installable with npm, or named by
// $CLAUDE_BIN); it installs [Version] into the user cache folder on first
// use. It fails t when the run cannot be set up, when Claude Code does not
// finish in time or exits non-zero, and when anything tried to reach a
// host other than 127.0.0.1; on failure it logs an account of the run.
//
// Runs may go in parallel (t.Parallel); at most $HOOK_E2E_JOBS (default 3)
// go at once.
func Run(t testing.TB, s Session) *Result {
	t.Helper()
	bin := harness.Need(t)
	r, err := prepare(t, s)
	if err != nil {
		t.Fatalf("claudetest: setting up the run: %v", err)
	}
	r.bin, r.session = bin, s
	harness.Drive(t, r)
	if len(r.calls) > 0 && len(r.Requests) == 0 {
		t.Errorf("claudetest: no request offered %q, the tool of the script's first call, so the fake model made no call; tools offered: %q", r.calls[0].Tool, r.api.Offered())
	}
	switch {
	case s.InterruptWhen != "" && !r.Interrupted:
		t.Errorf("claudetest: Session.InterruptWhen: %s never appeared in the project, so the turn was not interrupted (claude exited %d)", s.InterruptWhen, r.ExitCode)
	case r.Interrupted && r.ExitCode == 1:
		// An interrupted turn ends claude with an error result.
	case r.ExitCode != 0:
		t.Errorf("claudetest: claude exited %d; stderr: %s", r.ExitCode, r.Stderr)
	}
	return r.Result
}

// Need skips t, with one message saying why, unless HOOK_E2E=1 and Claude
// Code can be run here, as [Run] does; it installs Claude Code on first
// use. Call it first in a test whose set-up costs time, such as building
// the hook with hooktest.BuildGo, so that a test that will skip skips at
// once.
func Need(t testing.TB) {
	t.Helper()
	harness.Need(t)
}

// harness is what claudetest shares with codextest around a run.
var harness = &clientrun.Harness{
	Pkg: "claudetest", Client: "Claude Code", Command: "claude", Version: Version,
	EnvEnable: envEnable, EnvVersion: envVersion, EnvWork: envWork, EnvTimeout: envTimeout, EnvHelper: envHelper,
	Jobs:        clientrun.Jobs{Env: envJobs},
	Unavailable: errUnavailable,
	Verified:    func(v string) bool { return strings.HasPrefix(v, Version+" ") },
	NetNote:     netNote,
}

// init gives harness its Ensure, which reads harness (an initialization
// cycle in the declaration).
func init() { harness.Ensure = ensureClaude }

// run is one run under way: its result and what serves it.
type run struct {
	*Result
	f       clientrun.Folder
	bin     string
	session Session
	api     *clientrun.FakeAPI
	servers []*http.Server
	hooks   []Hook
	mcp     []MCPServer
	probes  map[string]string // MCP server name: the probe's configuration
	calls   []clientrun.Call
	turns   [][]clientrun.Call
	stopped bool
	// interrupt is the file of Session.InterruptWhen ("" for none);
	// stream says claude runs with stream-json input and output.
	interrupt string
	stream    bool
}

// prepare makes the run's folders and checks s.
func prepare(t testing.TB, s Session) (*run, error) {
	f, err := harness.NewFolder(t)
	if err != nil {
		return nil, err
	}
	r := &run{Result: &Result{Dir: f.Dir, Home: f.Home, Project: f.Project}, f: f, hooks: append([]Hook(nil), s.Hooks...), mcp: s.MCP, probes: map[string]string{}}
	// The project's .claude/ is there for Files and Setup, as in a project
	// Claude Code has opened.
	if err := os.MkdirAll(filepath.Join(r.Project, ".claude"), 0o755); err != nil {
		return nil, err
	}
	for _, k := range []string{"hooks", "permissions"} {
		if _, ok := s.Settings[k]; ok {
			return nil, fmt.Errorf("Session.Settings may not set %q: it comes from Session.Hooks and Session.Allow", k)
		}
	}
	if err := checkSettings(s.Settings); err != nil {
		return nil, err
	}
	for i, h := range s.Hooks {
		if len(h.Command) > 0 && h.Handler != nil {
			return nil, fmt.Errorf("Session.Hooks[%d] (%s) has both a Command and a Handler", i, h.name())
		}
		if r.hooks[i].Command, err = clientrun.CheckHook(i, h.name(), h.Event, h.Command, h.Timeout); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for i, m := range s.MCP {
		if m.Name == "" || strings.ContainsAny(m.Name, " _/") || seen[m.Name] {
			return nil, fmt.Errorf("Session.MCP[%d]: server name %q must be unique, non-empty, without spaces, slashes or underscores", i, m.Name)
		}
		seen[m.Name] = true
		if r.probes[m.Name], err = clientrun.WriteProbe(f, i, m.Name, m.Tools); err != nil {
			return nil, err
		}
	}
	if err := f.WriteFiles(s.Files); err != nil {
		return nil, err
	}
	if s.InterruptWhen != "" {
		p, err := f.ProjectFile(s.InterruptWhen)
		if err != nil {
			return nil, fmt.Errorf("Session.InterruptWhen: %q is not a path inside the project", s.InterruptWhen)
		}
		if _, ok := s.Files[s.InterruptWhen]; ok {
			return nil, fmt.Errorf("Session.InterruptWhen: %q is in Session.Files: the turn would be interrupted at once", s.InterruptWhen)
		}
		r.interrupt, r.stream = p, true
	}
	if s.Setup != nil {
		if err := s.Setup(r.Project); err != nil {
			return nil, fmt.Errorf("Session.Setup: %w", err)
		}
	}
	if r.calls, r.turns, err = clientrun.ScriptCalls(s.Turns, ProjectDir, r.Project); err != nil {
		return nil, err
	}
	return r, nil
}

// checkSettings refuses settings that could point Claude Code at another
// host than the fake API: settings env variables override the process
// environment that claudetest sets.
func checkSettings(settings map[string]any) error {
	for _, k := range clientrun.OutsideSettings {
		if _, ok := settings[k]; ok {
			return fmt.Errorf("Session.Settings may not set %q: claudetest talks only to its fake API", k)
		}
	}
	env, ok := settings["env"]
	if !ok {
		return nil
	}
	var names []string
	switch e := env.(type) {
	case map[string]string:
		for k := range e {
			names = append(names, k)
		}
	case map[string]any:
		for k := range e {
			names = append(names, k)
		}
	default:
		return fmt.Errorf(`Session.Settings["env"] must be a map[string]string or map[string]any, not %T`, env)
	}
	for _, k := range names {
		if clientrun.ReachesOut(k) {
			return fmt.Errorf(`Session.Settings["env"] may not set %s: claudetest points Claude Code at its fake API on 127.0.0.1 only`, k)
		}
	}
	return nil
}

// start starts the fake API and the http hooks' servers, and writes the
// configuration.
func (r *run) start(s Session) error {
	logf, err := r.f.OpenLog()
	if err != nil {
		return err
	}
	if r.api, err = clientrun.StartFakeAPI(clientrun.Script{Turns: r.turns, Final: s.Final}, logf); err != nil {
		logf.Close()
		return err
	}
	r.api.CloseLog = logf
	urls := make([]string, len(r.hooks))
	for i, h := range r.hooks {
		if h.Handler == nil {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("http hook %s: %w", h.name(), err)
		}
		srv := &http.Server{Handler: &clientrun.HTTPTap{Dir: r.f.CapDir(), Name: h.name(), Next: h.Handler}, ReadHeaderTimeout: 30 * time.Second}
		go srv.Serve(ln)
		r.servers = append(r.servers, srv)
		urls[i] = "http://" + ln.Addr().String() + "/hook"
	}
	return r.writeConfig(s, urls)
}

// stop stops what start started.
func (r *run) stop() {
	if r.stopped {
		return
	}
	r.stopped = true
	for _, srv := range r.servers {
		srv.Close()
	}
	if r.api != nil {
		r.api.Close()
	}
}

// The steps of [clientrun.Harness.Drive].

func (r *run) Start() error      { return r.start(r.session) }
func (r *run) Exec() error       { return r.runClaude(r.bin, r.session) }
func (r *run) Stop()             { r.stop() }
func (r *run) Collect() error    { return r.collect() }
func (r *run) Outside() []string { return r.OutsideTries }
func (r *run) Diagnose() string  { return r.diagnose() }

// writeConfig writes the trust entry, the project settings and the MCP
// configuration.
func (r *run) writeConfig(s Session, urls []string) error {
	// Without the trust entry, -p ignores the project's permissions.allow
	// (its hooks run either way).
	if err := clientrun.WriteJSONFile(filepath.Join(r.Home, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{r.Project: map[string]bool{"hasTrustDialogAccepted": true}},
	}); err != nil {
		return err
	}
	var hooks []clientrun.HookSpec
	for i, h := range r.hooks {
		handler := map[string]any{"type": "command", "command": r.f.HookCommand(h.name(), h.Command)}
		if urls[i] != "" {
			handler = map[string]any{"type": "http", "url": urls[i]}
		}
		hooks = append(hooks, clientrun.HookSpec{Event: h.Event, Matcher: h.Matcher, Options: h.Options, Handler: handler, Timeout: h.Timeout})
	}
	allow := s.Allow
	if allow == nil {
		allow = []string{"Bash", "Read", "Write", "Edit"}
		for _, m := range s.MCP {
			for _, tl := range m.Tools {
				allow = append(allow, "mcp__"+m.Name+"__"+tl.Name)
			}
		}
	}
	settings := map[string]any{}
	for k, v := range s.Settings {
		settings[k] = v
	}
	settings["permissions"] = map[string]any{"allow": allow}
	settings["hooks"] = clientrun.HooksConfig(hooks)
	if err := clientrun.WriteJSONFile(filepath.Join(r.Project, ".claude", "settings.json"), settings); err != nil {
		return err
	}
	servers := map[string]any{}
	for _, m := range s.MCP {
		servers[m.Name] = map[string]any{
			"type": "stdio", "command": r.f.Exe, "args": []string{r.probes[m.Name]},
			"env": map[string]string{envHelper: "mcpprobe"},
		}
	}
	return clientrun.WriteJSONFile(filepath.Join(r.Dir, "mcp.json"), map[string]any{"mcpServers": servers})
}

// runClaude runs claude -p in the project with a clean environment that
// points it at the fake API only.
func (r *run) runClaude(bin string, s Session) error {
	env := clientrun.ClaudeEnv(r.Home, r.api.URL, os.Getenv("PATH"))
	prompt := s.Prompt
	if prompt == "" {
		prompt = "go"
	}
	// With r.stream the prompt and the interrupt request come on stdin.
	args, err := clientrun.ClaudeArgs(prompt, r.stream, sessionID, filepath.Join(r.Dir, "mcp.json"), filepath.Join(r.Dir, "debug.log"), s.PluginDirs)
	if err != nil {
		return err
	}
	var stream func(*exec.Cmd, *bytes.Buffer) error
	if r.stream {
		stream = func(cmd *exec.Cmd, stdout *bytes.Buffer) error { return r.runStream(cmd, prompt, stdout) }
	}
	p, err := harness.Exec(r.f, bin, args, env, stream)
	r.Stdout, r.Stderr, r.ExitCode, r.Elapsed = p.Stdout, p.Stderr, p.ExitCode, p.Elapsed
	return err
}

// runStream runs cmd with stream-json input: it writes the prompt as a
// user message, sends the interrupt control request once the file of
// Session.InterruptWhen exists, and closes stdin once claude wrote its
// result, so that it exits. claude's stdout goes to out. r.Interrupted
// is set when claude answered the request with success.
func (r *run) runStream(cmd *exec.Cmd, prompt string, out *bytes.Buffer) error {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		return err
	}
	var mu sync.Mutex // stdin's writers
	send := func(v any) error {
		b, err := json.Marshal(v, jsonopts.Deterministic())
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		_, err = stdin.Write(append(b, '\n'))
		return err
	}
	closeIn := sync.OnceFunc(func() { mu.Lock(); stdin.Close(); mu.Unlock() })
	if err := send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}}); err != nil {
		closeIn()
	}
	const requestID = "claudetest-interrupt"
	exited := make(chan struct{})
	// Read claude's messages: the answer to the request, and the result
	// that ends the session.
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			out.Write(sc.Bytes())
			out.WriteByte('\n')
			var m struct {
				Type     string `json:"type"`
				Response struct {
					Subtype   string `json:"subtype"`
					RequestID string `json:"request_id"`
				} `json:"response"`
			}
			if clientrun.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			switch {
			case m.Type == "control_response" && m.Response.RequestID == requestID:
				r.Interrupted = m.Response.Subtype == "success"
			case m.Type == "result":
				if r.Interrupted && r.hasHooksFor("Interrupt") {
					// Claude Code does not wait for its Interrupt hooks:
					// closing stdin now could end claude before it even
					// starts them on a loaded machine.
					go func() { r.awaitHookRecord("Interrupt", exited); closeIn() }()
					continue
				}
				closeIn()
			}
		}
		io.Copy(io.Discard, pr) // after a line over the limit: keep claude from blocking
	}()
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		// Wait for the file, as long as claude runs.
		tick := time.NewTicker(25 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-exited:
				return
			case <-tick.C:
			}
			if _, err := os.Stat(r.interrupt); err == nil {
				send(map[string]any{"type": "control_request", "request_id": requestID,
					"request": map[string]string{"subtype": "interrupt"}})
				return
			}
		}
	}()
	err = cmd.Wait()
	close(exited)
	pw.Close()
	<-read
	<-polled
	closeIn()
	return err
}

// hasHooksFor reports whether the session has a hook for event.
func (r *run) hasHooksFor(event string) bool {
	for _, h := range r.hooks {
		if h.Event == event {
			return true
		}
	}
	return false
}

// awaitHookRecord returns once a hook of event has a finished record,
// once claude exited, or after the run's limit when none comes (no
// matcher took it): an event whose hooks the client does not wait for is then seen
// whole before the test closes claude's stdin.
func (r *run) awaitHookRecord(event string, exited <-chan struct{}) {
	limit := time.After(clientrun.RunTimeout(envTimeout))
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		recs, _ := clientrun.ReadRecords(r.f.CapDir())
		for _, rec := range recs {
			if rec.Event == event && rec.Code != -1 {
				return
			}
		}
		select {
		case <-limit:
			return
		case <-exited:
			return
		case <-tick.C:
		}
	}
}
