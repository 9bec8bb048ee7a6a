package codextest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
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
	bin := harness.Need(t)
	r, err := prepare(t, s)
	if err != nil {
		t.Fatalf("codextest: setting up the run: %v", err)
	}
	r.bin, r.session = bin, s
	harness.Drive(t, r)
	for _, c := range r.Calls {
		if c.Result != nil && strings.HasPrefix(c.Result.Text, unsupported) {
			t.Errorf("codextest: call %d: Codex has no tool %q; tools offered: %q", c.N, c.Tool, r.api.Offered())
		}
	}
	if r.ExitCode != 0 {
		t.Errorf("codextest: codex exited %d; stderr: %s", r.ExitCode, r.Stderr)
	}
	return r.Result
}

// Need skips t, with one message saying why, unless HOOK_E2E=1 and Codex
// can be run here, as [Run] does; it installs Codex on first use. Call it
// first in a test whose set-up costs time, such as building the hook with
// hooktest.BuildGo, so that a test that will skip skips at once.
func Need(t testing.TB) {
	t.Helper()
	harness.Need(t)
}

// harness is what codextest shares with claudetest around a run.
var harness = &clientrun.Harness{
	Pkg: "codextest", Client: "Codex", Command: "codex", Version: Version, DirPrefix: "codex_",
	EnvEnable: envEnable, EnvVersion: envVersion, EnvWork: envWork, EnvTimeout: envTimeout, EnvHelper: envHelper,
	Jobs:        clientrun.Jobs{Env: envJobs},
	Unavailable: errUnavailable,
	Verified:    func(v string) bool { return v == codexPrefix+Version },
	NetNote:     netNote,
}

// init gives harness its Ensure, which reads harness (an initialization
// cycle in the declaration).
func init() { harness.Ensure = ensureCodex }

// run is one run under way: its result and what serves it.
type run struct {
	*Result
	f       clientrun.Folder
	bin     string
	session Session
	api     *clientrun.FakeResponses
	hooks   []Hook
	mcp     []MCPServer
	probes  map[string]string // MCP server name: the probe's configuration
	calls   []clientrun.Call
	turns   [][]clientrun.Call
	stopped bool
}

// prepare makes the run's folders, writes the project's files and checks
// s.
func prepare(t testing.TB, s Session) (*run, error) {
	f, err := harness.NewFolder(t)
	if err != nil {
		return nil, err
	}
	return prepareIn(f, s)
}

// prepareIn does the work of [prepare] in the run folder f.
func prepareIn(f clientrun.Folder, s Session) (*run, error) {
	r := &run{Result: &Result{Dir: f.Dir, Home: f.Home, Project: f.Project}, f: f, hooks: append([]Hook(nil), s.Hooks...), mcp: s.MCP, probes: map[string]string{}}
	var err error
	for i, h := range s.Hooks {
		if r.hooks[i].Command, err = clientrun.CheckHook(i, h.name(), h.Event, h.Command, h.Timeout); err != nil {
			return nil, err
		}
		for _, k := range []string{"type", "command", "timeout"} {
			if _, ok := h.Options[k]; ok {
				return nil, fmt.Errorf("Session.Hooks[%d] (%s): Options may not set %q: it comes from the Hook's fields", i, h.name(), k)
			}
		}
	}
	seen := map[string]bool{}
	for i, m := range s.MCP {
		if !mcpName.MatchString(m.Name) || seen[m.Name] {
			return nil, fmt.Errorf("Session.MCP[%d]: server name %q must be unique and made of letters, digits, hyphens and single underscores inside", i, m.Name)
		}
		seen[m.Name] = true
		if r.probes[m.Name], err = clientrun.WriteProbe(f, i, m.Name, m.Tools); err != nil {
			return nil, err
		}
	}
	if err := f.WriteFiles(s.Files); err != nil {
		return nil, err
	}
	if r.calls, r.turns, err = clientrun.ScriptCalls(s.Turns, ProjectDir, r.Project); err != nil {
		return nil, err
	}
	return r, nil
}

// mcpName is what an MCP server's name may be: letters, digits, hyphens
// and single underscores inside, since Codex names its tools
// mcp__<server>__<tool> and keeps the server in a TOML table.
var mcpName = regexp.MustCompile(`^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$`)

// start starts the fake API and writes Codex's configuration, then runs
// s.Setup.
func (r *run) start(s Session) error {
	logf, err := r.f.OpenLog()
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

// The steps of [clientrun.Harness.Drive].

func (r *run) Start() error      { return r.start(r.session) }
func (r *run) Exec() error       { return r.runCodex(r.bin, r.session) }
func (r *run) Stop()             { r.stop() }
func (r *run) Collect() error    { return r.collect() }
func (r *run) Outside() []string { return r.OutsideTries }
func (r *run) Diagnose() string  { return r.diagnose() }

// tomlString returns s as a TOML basic string.
func tomlString(s string) string { return agent.TOMLString(s) }

// configTOML returns config.toml: the model and its provider, the fake
// API; s.Config after the top-level keys, so that its own top-level keys
// are top-level; then the provider's table and the MCP servers.
func (r *run) configTOML(s Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model = %s\nmodel_provider = %s\n", tomlString(modelName), tomlString(providerName))
	if s.Config != "" {
		b.WriteString("\n" + strings.TrimRight(s.Config, "\n") + "\n")
	}
	fmt.Fprintf(&b, "\n[model_providers.%s]\nname = %s\nbase_url = %s\nwire_api = \"responses\"\n", providerName, tomlString("codextest fake Responses API"), tomlString(r.api.URL+"/v1"))
	for _, m := range s.MCP {
		fmt.Fprintf(&b, "\n[mcp_servers.%s]\ncommand = %s\nargs = [%s]\nenv = { %s = \"mcpprobe\" }\n", m.Name, tomlString(r.f.Exe), tomlString(r.probes[m.Name]), envHelper)
	}
	return b.String()
}

// hooksJSON returns hooks.json's content, nil when s has no hooks.
func (r *run) hooksJSON() map[string]any {
	if len(r.hooks) == 0 {
		return nil
	}
	var hooks []clientrun.HookSpec
	for _, h := range r.hooks {
		handler := map[string]any{"type": "command", "command": r.f.HookCommand(h.name(), h.Command)}
		hooks = append(hooks, clientrun.HookSpec{Event: h.Event, Matcher: h.Matcher, Options: h.Options, Handler: handler, Timeout: h.Timeout})
	}
	return map[string]any{"hooks": clientrun.HooksConfig(hooks)}
}

// writeConfig writes config.toml and hooks.json into CODEX_HOME.
func (r *run) writeConfig(s Session) error {
	if err := os.WriteFile(filepath.Join(r.Home, "config.toml"), []byte(r.configTOML(s)), 0o644); err != nil {
		return err
	}
	if hj := r.hooksJSON(); hj != nil {
		return clientrun.WriteJSONFile(filepath.Join(r.Home, "hooks.json"), hj)
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
	args := codexArgs(prompt, filepath.Join(r.Dir, "last-message.txt"), s.CheckTrust)
	p, err := harness.Exec(r.f, bin, args, codexEnv(r.Home, r.api.URL, os.Getenv("PATH")), nil)
	r.Stdout, r.Stderr, r.ExitCode, r.Elapsed = p.Stdout, p.Stderr, p.ExitCode, p.Elapsed
	return err
}
