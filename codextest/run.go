package codextest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// unsupported starts what Codex tells the model about a call of a tool it
// does not have.
const unsupported = "unsupported call: "

// The model and provider every run uses; they are given on codex's
// command line too, where config.toml cannot override them.
const (
	modelName    = "codextest-model"
	providerName = "codextest"
)

// Run runs Codex once, headless (`codex exec`), for s in a fresh
// CODEX_HOME (also HOME) and project folder, against a fake OpenAI
// Responses API on 127.0.0.1 that plays s's script, and returns what
// happened. Hooks run with Codex's hook trust bypassed
// (--dangerously-bypass-hook-trust), and tool calls without approvals
// or sandbox (--dangerously-bypass-approvals-and-sandbox; hooks see
// permission_mode "bypassPermissions").
//
// It skips t, with one message saying why, unless HOOK_E2E=1 and Codex
// can be run here (installed, or installable with npm, or named by
// $HOOK_E2E_CODEX_BIN); it installs [Version] into the user cache folder
// on first use. It fails t when the run cannot be set up, when Codex does
// not finish in time or exits non-zero, when the fake model made none of
// the script's calls, and when anything tried to reach a host other than
// 127.0.0.1; on failure it logs an account of the run.
//
// Runs may go in parallel (t.Parallel); at most $HOOK_E2E_JOBS (default 3)
// go at once.
func Run(t testing.TB, s Session) *Result {
	t.Helper()
	bin := need(t)
	r, err := prepare(t, s)
	if err != nil {
		t.Fatalf("codextest: setting up the run: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(r.diagnose())
			if os.Getenv(envWork) == "" {
				t.Logf("codextest: set %s to a folder to keep the run folders for inspection", envWork)
			}
		}
	})
	if err := r.start(s); err != nil {
		r.stop()
		t.Fatalf("codextest: %v", err)
	}
	defer r.stop()
	jobs() <- struct{}{}
	err = r.runCodex(bin, s)
	<-jobs()
	r.stop()
	if err != nil {
		t.Fatalf("codextest: %v", err)
	}
	if err := r.collect(); err != nil {
		t.Fatalf("codextest: reading the run: %v", err)
	}
	for _, c := range r.Calls {
		if c.Result != nil && strings.HasPrefix(c.Result.Text, unsupported) {
			t.Errorf("codextest: call %d: Codex has no tool %q; tools offered: %q", c.N, c.Tool, r.api.Offered())
		}
	}
	if r.ExitCode != 0 {
		t.Errorf("codextest: codex exited %d; stderr: %s", r.ExitCode, r.Stderr)
	}
	if len(r.OutsideTries) > 0 {
		t.Errorf("codextest: requests tried to reach other hosts: %q", r.OutsideTries)
	}
	return r.Result
}

// Need skips t, with one message saying why, unless HOOK_E2E=1 and Codex
// can be run here, as [Run] does; it installs Codex on first use. Call it
// first in a test whose set-up costs time, such as building the hook with
// hooktest.BuildGo, so that a test that will skip skips at once.
func Need(t testing.TB) {
	t.Helper()
	need(t)
}

// need does the work of [Need] and returns the codex executable.
func need(t testing.TB) string {
	t.Helper()
	if !enabled() {
		t.Skipf("codextest: this test runs the real Codex %s: set %s=1 to run it (it installs Codex with npm into the user cache folder on first use)", wantVersion(), envEnable)
	}
	bin, version, err := ensureCodex(os.Stderr)
	if errors.Is(err, errUnavailable) {
		t.Skipf("%v", err)
	}
	if err != nil {
		t.Fatalf("codextest: %v", err)
	}
	first := false
	logOnce.Do(func() { first = true })
	if first {
		note := ""
		if version != codexPrefix+Version {
			note = fmt.Sprintf("; warning: codextest is verified against %s", Version)
		}
		t.Logf("codextest: Codex %q (%s), %s%s", version, bin, netNote(), note)
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
	api     *clientrun.FakeResponses
	hooks   []Hook
	mcp     []MCPServer
	calls   []Call
	turns   [][]clientrun.Call
	stopped bool
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
	name := "codex_" + unsafeName.ReplaceAllString(t.Name(), "_")
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

// prepare makes the run's folders, writes the project's files and checks
// s.
func prepare(t testing.TB, s Session) (*run, error) {
	dir, err := runDir(t)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the test binary: %w", err)
	}
	return prepareIn(dir, exe, s)
}

// prepareIn does the work of [prepare] in dir, for the test binary exe.
func prepareIn(dir, exe string, s Session) (*run, error) {
	r := &run{Result: &Result{Dir: dir}, exe: exe, hooks: append([]Hook(nil), s.Hooks...), mcp: s.MCP}
	for _, d := range []string{filepath.Join(dir, "home"), filepath.Join(dir, "proj"), r.capDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	var err error
	if r.Home, err = filepath.EvalSymlinks(filepath.Join(dir, "home")); err != nil {
		return nil, err
	}
	if r.Project, err = filepath.EvalSymlinks(filepath.Join(dir, "proj")); err != nil {
		return nil, err
	}
	for i, h := range s.Hooks {
		if h.Event == "" {
			return nil, fmt.Errorf("Session.Hooks[%d] has no Event", i)
		}
		if len(h.Command) > 0 && h.Command[0] == "" {
			return nil, fmt.Errorf("Session.Hooks[%d] (%s) has an empty Command[0]", i, h.name())
		}
		if h.Timeout < 0 {
			return nil, fmt.Errorf("Session.Hooks[%d] (%s) has a negative Timeout", i, h.name())
		}
		for _, k := range []string{"type", "command", "timeout"} {
			if _, ok := h.Options[k]; ok {
				return nil, fmt.Errorf("Session.Hooks[%d] (%s): Options may not set %q: it comes from the Hook's fields", i, h.name(), k)
			}
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
		if !mcpName.MatchString(m.Name) || seen[m.Name] {
			return nil, fmt.Errorf("Session.MCP[%d]: server name %q must be unique and made of letters, digits, hyphens and single underscores inside", i, m.Name)
		}
		seen[m.Name] = true
		for _, tl := range m.Tools {
			if tl.Name == "" {
				return nil, fmt.Errorf("Session.MCP[%d] has a tool without a name", i)
			}
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
	q, _ := json.Marshal(r.Project)
	esc := string(q[1 : len(q)-1])
	n := 0
	for i, turn := range s.Turns {
		if len(turn) == 0 {
			return nil, fmt.Errorf("Session.Turns[%d] makes no call (the final text is Session.Final)", i)
		}
		var calls []clientrun.Call
		for _, c := range turn {
			n++
			if c.Tool == "" {
				return nil, fmt.Errorf("call %d has no Tool", n)
			}
			c.Input = strings.ReplaceAll(c.Input, ProjectDir, esc)
			if !jsontext.Value(c.Input).IsValid(jsonopts.Read()) || !strings.HasPrefix(strings.TrimSpace(c.Input), "{") {
				return nil, fmt.Errorf("call %d (%s): Input is not a JSON object: %.80q", n, c.Tool, c.Input)
			}
			r.calls = append(r.calls, c)
			calls = append(calls, clientrun.Call(c))
		}
		r.turns = append(r.turns, calls)
	}
	return r, nil
}

// mcpName is what an MCP server's name may be: letters, digits, hyphens
// and single underscores inside, since Codex names its tools
// mcp__<server>__<tool> and keeps the server in a TOML table.
var mcpName = regexp.MustCompile(`^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$`)

// projectFile returns the path of the project file rel, refusing one
// outside the project.
func (r *run) projectFile(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || strings.HasPrefix(rel, "/") || filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) || filepath.VolumeName(clean) != "" {
		return "", fmt.Errorf("Session.Files: %q is not a relative path inside the project", rel)
	}
	return filepath.Join(r.Project, clean), nil
}

// capDir is the folder of the hook records.
func (r *run) capDir() string { return filepath.Join(r.Dir, "cap") }

// probeLog is the log of the MCP server's calls.
func (r *run) probeLog(server string) string {
	return filepath.Join(r.Dir, "mcp-"+server+".log")
}

// start starts the fake API and writes Codex's configuration, then runs
// s.Setup.
func (r *run) start(s Session) error {
	logf, err := os.OpenFile(filepath.Join(r.Dir, "api.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if r.api, err = clientrun.StartFakeResponses(clientrun.Script{Turns: r.turns, Final: s.Final}, logf); err != nil {
		logf.Close()
		return err
	}
	r.api.CloseLog = logf
	if err := r.writeConfig(s); err != nil {
		return err
	}
	if s.Setup != nil {
		if err := s.Setup(r.Home, r.Project); err != nil {
			return fmt.Errorf("Session.Setup: %w", err)
		}
	}
	return nil
}

// stop stops what start started.
func (r *run) stop() {
	if r.stopped {
		return
	}
	r.stopped = true
	if r.api != nil {
		r.api.Close()
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// hookCommand returns the hooks.json command of a hook: the recorder,
// with the hook's argv, for Codex's shell.
func (r *run) hookCommand(h Hook) string {
	words := append([]string{r.exe, r.capDir(), h.name()}, h.Command...)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return envHelper + "=hooktap " + strings.Join(words, " ")
}

// tomlString returns s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
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

// configTOML returns config.toml: the model and its provider, the fake
// API; s.Config after the top-level keys, so that its own top-level keys
// are top-level; then the provider's table and the MCP servers.
func (r *run) configTOML(s Session) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "model = %s\nmodel_provider = %s\n", tomlString(modelName), tomlString(providerName))
	if s.Config != "" {
		b.WriteString("\n" + strings.TrimRight(s.Config, "\n") + "\n")
	}
	fmt.Fprintf(&b, "\n[model_providers.%s]\nname = %s\nbase_url = %s\nwire_api = \"responses\"\n", providerName, tomlString("codextest fake Responses API"), tomlString(r.api.URL+"/v1"))
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
			return "", err
		}
		fmt.Fprintf(&b, "\n[mcp_servers.%s]\ncommand = %s\nargs = [%s]\nenv = { %s = \"mcpprobe\" }\n", m.Name, tomlString(r.exe), tomlString(cfgPath), envHelper)
	}
	return b.String(), nil
}

// hooksJSON returns hooks.json's content, nil when s has no hooks.
func (r *run) hooksJSON() map[string]any {
	if len(r.hooks) == 0 {
		return nil
	}
	type group struct {
		Matcher string           `json:"matcher,omitempty"`
		Hooks   []map[string]any `json:"hooks"`
	}
	hooks := map[string][]group{}
	for _, h := range r.hooks {
		entry := map[string]any{}
		for k, v := range h.Options {
			entry[k] = v
		}
		entry["type"], entry["command"] = "command", r.hookCommand(h)
		entry["timeout"] = 30
		if h.Timeout > 0 {
			entry["timeout"] = h.Timeout
		}
		hooks[h.Event] = append(hooks[h.Event], group{Matcher: h.Matcher, Hooks: []map[string]any{entry}})
	}
	return map[string]any{"hooks": hooks}
}

// writeConfig writes config.toml and hooks.json into CODEX_HOME.
func (r *run) writeConfig(s Session) error {
	cfg, err := r.configTOML(s)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.Home, "config.toml"), []byte(cfg), 0o644); err != nil {
		return err
	}
	if hj := r.hooksJSON(); hj != nil {
		return writeJSONFile(filepath.Join(r.Home, "hooks.json"), hj)
	}
	return nil
}

// codexEnv returns the whole environment of a run (clientrun.CodexEnv).
func codexEnv(home, apiURL, path string) []string { return clientrun.CodexEnv(home, apiURL, path) }

// codexArgs returns the arguments of the run (clientrun.CodexArgs) on
// codextest's model and provider.
func codexArgs(prompt, lastMessage string, checkTrust bool) []string {
	return clientrun.CodexArgs(prompt, lastMessage, tomlString(modelName), tomlString(providerName), checkTrust)
}

// runCodex runs codex exec in the project with a clean environment that
// points it at the fake API only.
func (r *run) runCodex(bin string, s Session) error {
	prompt := s.Prompt
	if prompt == "" {
		prompt = "go"
	}
	limit := timeout()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, codexArgs(prompt, filepath.Join(r.Dir, "last-message.txt"), s.CheckTrust)...)
	cmd.Dir = r.Project
	cmd.Env = codexEnv(r.Home, r.api.URL, os.Getenv("PATH"))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Own process group, so that a timeout ends the hooks and the MCP
	// servers too.
	clientrun.OwnProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	t0 := time.Now()
	err := cmd.Run()
	r.Elapsed = time.Since(t0)
	// Leftovers of the run (an MCP server codex did not stop).
	clientrun.KillProcessGroup(cmd)
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	os.WriteFile(filepath.Join(r.Dir, "codex.out"), r.Stdout, 0o644)
	os.WriteFile(filepath.Join(r.Dir, "codex.err"), r.Stderr, 0o644)
	r.ExitCode = -1
	if cmd.ProcessState != nil {
		r.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("codex did not finish within %v (set %s for another limit)", limit, envTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("running codex: %w", err)
	}
	return nil
}
