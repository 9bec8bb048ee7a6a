package claudetest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	bin := need(t)
	r, err := prepare(t, s)
	if err != nil {
		t.Fatalf("claudetest: setting up the run: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(r.diagnose())
			if os.Getenv(envWork) == "" {
				t.Logf("claudetest: set %s to a folder to keep the run folders for inspection", envWork)
			}
		}
	})
	if err := r.start(s); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	defer r.stop()
	jobs() <- struct{}{}
	err = r.runClaude(bin, s)
	<-jobs()
	r.stop()
	if err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	if err := r.collect(); err != nil {
		t.Fatalf("claudetest: reading the run: %v", err)
	}
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
	if len(r.OutsideTries) > 0 {
		t.Errorf("claudetest: requests tried to reach other hosts: %q", r.OutsideTries)
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
	need(t)
}

// need does the work of [Need] and returns the claude executable.
func need(t testing.TB) string {
	t.Helper()
	if !enabled() {
		t.Skipf("claudetest: this test runs the real Claude Code %s: set %s=1 to run it (it installs Claude Code with npm into the user cache folder on first use)", wantVersion(), envEnable)
	}
	bin, version, err := ensureClaude(os.Stderr)
	if errors.Is(err, errUnavailable) {
		t.Skipf("%v", err)
	}
	if err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	first := false
	logOnce.Do(func() { first = true })
	if first {
		note := ""
		if !strings.HasPrefix(version, Version+" ") {
			note = fmt.Sprintf("; warning: claudetest is verified against %s", Version)
		}
		t.Logf("claudetest: Claude Code %q (%s), %s%s", version, bin, netNote(), note)
	}
	return bin
}

var logOnce sync.Once

// runJobs limits the runs at a time ($HOOK_E2E_JOBS).
var runJobs = clientrun.Jobs{Env: envJobs}

// jobs returns the channel whose buffer is the runs at a time.
func jobs() chan struct{} { return runJobs.Places() }

// timeout returns the limit of one run.
func timeout() time.Duration { return clientrun.RunTimeout(envTimeout) }

// run is one run under way: its result and what serves it.
type run struct {
	*Result
	exe     string
	api     *clientrun.FakeAPI
	servers []*http.Server
	hooks   []Hook
	mcp     []MCPServer
	calls   []Call
	stopped bool
	// interrupt is the file of Session.InterruptWhen ("" for none);
	// stream says claude runs with stream-json input and output.
	interrupt string
	stream    bool
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// workRuns counts the runs of each test under $HOOK_E2E_WORK.
var workRuns = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// runDir returns a fresh folder for one run of t: under $HOOK_E2E_WORK
// (kept) when set, else a temporary folder.
func runDir(t testing.TB) (string, error) {
	work := os.Getenv(envWork)
	if work == "" {
		return t.TempDir(), nil
	}
	name := unsafeName.ReplaceAllString(t.Name(), "_")
	workRuns.Lock()
	workRuns.n[name]++
	if n := workRuns.n[name]; n > 1 {
		name += "." + strconv.Itoa(n) // the test's second run, …
	}
	workRuns.Unlock()
	dir := filepath.Join(work, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Abs(dir)
}

// prepare makes the run's folders and checks s.
func prepare(t testing.TB, s Session) (*run, error) {
	dir, err := runDir(t)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the test binary: %w", err)
	}
	r := &run{Result: &Result{Dir: dir, Home: filepath.Join(dir, "home")}, exe: exe, hooks: append([]Hook(nil), s.Hooks...), mcp: s.MCP}
	for _, d := range []string{r.Home, filepath.Join(dir, "proj", ".claude"), r.capDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if r.Project, err = filepath.EvalSymlinks(filepath.Join(dir, "proj")); err != nil {
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
		if h.Event == "" {
			return nil, fmt.Errorf("Session.Hooks[%d] has no Event", i)
		}
		if len(h.Command) > 0 && h.Handler != nil {
			return nil, fmt.Errorf("Session.Hooks[%d] (%s) has both a Command and a Handler", i, h.name())
		}
		if len(h.Command) > 0 && !filepath.IsAbs(h.Command[0]) && strings.ContainsAny(h.Command[0], `/\`) {
			abs, err := filepath.Abs(h.Command[0])
			if err != nil {
				return nil, err
			}
			h.Command = append([]string{abs}, h.Command[1:]...)
			r.hooks[i] = h
		}
	}
	seen := map[string]bool{}
	for i, m := range s.MCP {
		if m.Name == "" || strings.ContainsAny(m.Name, " _/") || seen[m.Name] {
			return nil, fmt.Errorf("Session.MCP[%d]: server name %q must be unique, non-empty, without spaces, slashes or underscores", i, m.Name)
		}
		seen[m.Name] = true
		for _, tl := range m.Tools {
			if tl.Schema != "" && !jsontext.Value(tl.Schema).IsValid() {
				return nil, fmt.Errorf("Session.MCP[%d] tool %q: Schema is not JSON: %.80q", i, tl.Name, tl.Schema)
			}
		}
	}
	for rel, content := range s.Files {
		p, err := r.projectFile(rel)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	if s.InterruptWhen != "" {
		p, err := r.projectFile(s.InterruptWhen)
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
	q, _ := json.Marshal(r.Project)
	esc := string(q[1 : len(q)-1])
	n := 0
	for i, turn := range s.Turns {
		if len(turn) == 0 {
			return nil, fmt.Errorf("Session.Turns[%d] makes no call (the final text is Session.Final)", i)
		}
		for _, c := range turn {
			n++
			c.Input = strings.ReplaceAll(c.Input, ProjectDir, esc)
			if !jsontext.Value(c.Input).IsValid(jsonopts.Read()) || !strings.HasPrefix(strings.TrimSpace(c.Input), "{") {
				return nil, fmt.Errorf("call %d (%s): Input is not a JSON object: %.80q", n, c.Tool, c.Input)
			}
			r.calls = append(r.calls, c)
		}
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

// projectFile returns the path of the project file rel, refusing one
// outside the project.
func (r *run) projectFile(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("Session.Files: %q is not a path inside the project", rel)
	}
	return filepath.Join(r.Project, clean), nil
}

func (r *run) capDir() string { return filepath.Join(r.Dir, "cap") }

// start starts the fake API and the http hooks' servers, and writes the
// configuration.
func (r *run) start(s Session) error {
	logf, err := os.OpenFile(filepath.Join(r.Dir, "api.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	var turns [][]clientrun.Call
	k := 0
	for _, turn := range s.Turns {
		var calls []clientrun.Call
		for _, c := range r.calls[k : k+len(turn)] {
			calls = append(calls, clientrun.Call(c))
		}
		turns = append(turns, calls)
		k += len(turn)
	}
	if r.api, err = clientrun.StartFakeAPI(clientrun.Script{Turns: turns, Final: s.Final}, logf); err != nil {
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
		srv := &http.Server{Handler: &clientrun.HTTPTap{Dir: r.capDir(), Name: h.name(), Next: h.Handler}, ReadHeaderTimeout: 30 * time.Second}
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

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// hookCommand returns the settings command of a command hook: the
// recorder, with the hook's argv.
func (r *run) hookCommand(h Hook) string {
	words := append([]string{r.exe, r.capDir(), h.name()}, h.Command...)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return envHelper + "=hooktap " + strings.Join(words, " ")
}

// writeJSONFile writes v, indented, to path.
func writeJSONFile(path string, v any) error {
	b, err := json.Marshal(v, jsonopts.Deterministic())
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
func (r *run) writeConfig(s Session, urls []string) error {
	// Without the trust entry, -p ignores the project's permissions.allow
	// (its hooks run either way).
	if err := writeJSONFile(filepath.Join(r.Home, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true,
		"projects":               map[string]any{r.Project: map[string]bool{"hasTrustDialogAccepted": true}},
	}); err != nil {
		return err
	}
	type group struct {
		Matcher string           `json:"matcher,omitempty"`
		Hooks   []map[string]any `json:"hooks"`
	}
	hooks := map[string][]group{}
	for i, h := range r.hooks {
		entry := map[string]any{}
		for k, v := range h.Options {
			entry[k] = v
		}
		if urls[i] != "" {
			entry["type"], entry["url"] = "http", urls[i]
		} else {
			entry["type"], entry["command"] = "command", r.hookCommand(h)
		}
		if _, ok := entry["timeout"]; !ok {
			entry["timeout"] = 30
		}
		if h.Timeout > 0 {
			entry["timeout"] = h.Timeout
		}
		hooks[h.Event] = append(hooks[h.Event], group{Matcher: h.Matcher, Hooks: []map[string]any{entry}})
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
	settings["hooks"] = hooks
	if err := writeJSONFile(filepath.Join(r.Project, ".claude", "settings.json"), settings); err != nil {
		return err
	}
	servers := map[string]any{}
	for _, m := range s.MCP {
		cfg := clientrun.ProbeConfig{Name: m.Name, Log: r.probeLog(m.Name)}
		for _, tl := range m.Tools {
			pt := clientrun.ProbeTool{Name: tl.Name, Description: tl.Description, InputSchema: jsontext.Value(tl.Schema), Reply: tl.Reply}
			if pt.Description == "" {
				pt.Description = tl.Name
			}
			if len(pt.InputSchema) == 0 {
				pt.InputSchema = jsontext.Value(`{"type":"object"}`)
			}
			if pt.Reply == "" {
				pt.Reply = "ok"
			}
			cfg.Tools = append(cfg.Tools, pt)
		}
		cfgPath := filepath.Join(r.Dir, "mcp-"+m.Name+".json")
		if err := writeJSONFile(cfgPath, cfg); err != nil {
			return err
		}
		servers[m.Name] = map[string]any{
			"type": "stdio", "command": r.exe, "args": []string{cfgPath},
			"env": map[string]string{envHelper: "mcpprobe"},
		}
	}
	return writeJSONFile(filepath.Join(r.Dir, "mcp.json"), map[string]any{"mcpServers": servers})
}

func (r *run) probeLog(server string) string {
	return filepath.Join(r.Dir, "mcp-"+server+".log")
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
	limit := timeout()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.Project
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Own process group, so that a timeout ends the hooks and the MCP
	// servers too.
	clientrun.OwnProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	t0 := time.Now()
	if r.stream {
		err = r.runStream(cmd, prompt, &stdout)
	} else {
		err = cmd.Run()
	}
	r.Elapsed = time.Since(t0)
	// Leftovers of the run (an MCP server claude did not stop).
	clientrun.KillProcessGroup(cmd)
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	os.WriteFile(filepath.Join(r.Dir, "claude.out"), r.Stdout, 0o644)
	os.WriteFile(filepath.Join(r.Dir, "claude.err"), r.Stderr, 0o644)
	r.ExitCode = cmd.ProcessState.ExitCode()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("claude did not finish within %v (set %s for another limit)", limit, envTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("running claude: %w", err)
	}
	return nil
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
				closeIn()
			}
		}
		io.Copy(io.Discard, pr) // after a line over the limit: keep claude from blocking
	}()
	exited, polled := make(chan struct{}), make(chan struct{})
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
