package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

// The model and provider of verify's Codex runs: its fake API.
const codexVerifyModel = "hookctl-verify"

// codexSkipped are the entries of the user's Codex folder verify does
// not copy into the scratch CODEX_HOME: credentials (auth.json), the
// files it writes itself (config.toml, which can name model providers,
// MCP servers and their tokens, gets the user's hook and project trust
// carried over; hooks.json), the user's conversations and Codex's state
// (sessions, history, logs, caches, its databases), and plugins (verify
// runs with plugins off). Everything else — AGENTS.md, prompts, rules,
// skills, the hooks' own programs kept there — is copied, without
// credential-like names.
var codexSkipped = []string{
	"auth.json", "config.toml", "hooks.json", "sessions", "archived_sessions", "history.jsonl", "log", "logs",
	"cache", ".tmp", "tmp", "shell_snapshots", "plugins", "models_cache.json", "version.json", "installation_id",
	"internal_storage.json", "thread-writer-locks", "memories",
}

// codexSkips returns the top-level names of the user's Codex folder dir
// verify does not copy: codexSkipped, and Codex's databases.
func codexSkips(dir string) []string {
	skip := slices.Clone(codexSkipped)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if n := strings.ToLower(e.Name()); strings.Contains(n, ".sqlite") || strings.HasSuffix(n, ".db") {
			skip = append(skip, e.Name())
		}
	}
	return skip
}

// codexVerifier runs the hooks of one loaded Codex configuration.
type codexVerifier struct {
	l          *loaded
	codex, exe string // the codex executable; hookctl itself
	fail, work string
	limit      time.Duration
	files      userFiles
	userDir    string // the user's Codex folder
	// states are the [hooks.state] of the user's config.toml; nil when
	// they are written in a form hookctl does not read.
	states map[string]codexState
	// projectTrusted says whether the user's config.toml trusts the
	// project; hooksOff where [features] turns hooks off ("" when not).
	projectTrusted bool
	hooksOff       string
	// carriedTop and carriedTables are what the runs carry of the user's
	// config.toml (codexCarriedConfig); projectConfig of the project's.
	carriedTop, carriedTables, projectConfig string
}

// newCodexVerifier reads what the runs carry over from the user's Codex
// folder: hook trust, project trust, whether hooks are on.
func newCodexVerifier(l *loaded, bin, exe, fail, work string, limit time.Duration) (*codexVerifier, error) {
	layers, err := codexLayers(l.locs.Project)
	if err != nil {
		return nil, err
	}
	v := &codexVerifier{l: l, codex: bin, exe: exe, fail: fail, work: work, limit: limit, files: userFiles{}, userDir: layers[0].Dir}
	states, unread, err := readUserStates(v.userDir)
	if err != nil {
		return nil, err
	}
	if unread == 0 {
		v.states = states
	}
	for _, ly := range layers {
		v.files.digest(ly.hooksJSON(), ly.configTOML(), filepath.Join(ly.Dir, "auth.json"))
		data, err := settings.ReadRegular(ly.configTOML())
		if err != nil {
			continue
		}
		t := readCodexTOML(data)
		if t.HooksOff > 0 && v.hooksOff == "" {
			v.hooksOff = fmt.Sprintf("%s:%d", displayPath(ly.configTOML(), l.locs.Project), t.HooksOff)
		}
		top, tables, _ := codexCarriedConfig(data)
		if ly.Scope == settings.ScopeUser {
			v.projectTrusted = slices.ContainsFunc(t.Trusted, func(d string) bool { return samePlace(d, l.locs.Project) })
			v.carriedTop, v.carriedTables = top, tables
		} else if top+tables != "" {
			v.projectConfig = top + tables
		}
	}
	return v, nil
}

// codexHookTrust is what verify knows, before running it, of whether
// Codex runs a hook for the user.
type codexHookTrust struct {
	hook agent.CodexHook // what Codex reads of it
	// trusted says the run's config.toml gets its trust entry (the
	// user's records it as trusted, or cannot be read).
	trusted bool
	// off says why it will not run for the user ("" when it runs), fix
	// how to make it run; noRun means verify does not start codex for
	// it (hooks are off altogether).
	off, fix string
	noRun    bool
	// note is added to the report (trust not checked, …).
	note string
	// skip says why verify cannot run it at all.
	skip string
}

// trustFor finds what Codex reads of the hook f and whether it runs it
// for the user.
func (v *codexVerifier) trustFor(f found) codexHookTrust {
	var t codexHookTrust
	h := f.hook
	if h.Handler.Type != "" && h.Handler.Type != settings.TypeCommand {
		t.skip = fmt.Sprintf("a %s hook: Codex runs command hooks only", h.Handler.Type)
		return t
	}
	data, err := settings.ReadRegular(f.src.Path)
	if err != nil {
		t.skip = err.Error()
		return t
	}
	dir, name := filepath.Dir(f.src.Path), filepath.Base(f.src.Path)
	var cands []agent.CodexHook
	if name == "config.toml" {
		tt := readCodexTOML(data)
		for i, c := range tt.Codex {
			if tt.Hooks[i].Line == h.Line && tt.Hooks[i].Column == h.Column {
				cands = append(cands, c)
			}
		}
	} else if cands, err = agent.CodexHooksOf(data); err != nil {
		t.skip = err.Error()
		return t
	}
	i := slices.IndexFunc(cands, func(c agent.CodexHook) bool { return c.Event == h.Event && c.Group == h.Group && c.Index == h.Index })
	switch {
	case i < 0, strings.TrimSpace(cands[i].Handler.Command) == "":
		t.skip = "Codex skips it: its command is blank"
		if agent.CodexMatcherUsed(h.Event) && !agent.CodexMatcherValid(h.Matcher) {
			t.skip = fmt.Sprintf("Codex skips its group: matcher %q is not a regular expression", h.Matcher)
		}
		return t
	case agent.CodexMatcherUsed(h.Event) && !agent.CodexMatcherValid(h.Matcher):
		t.skip = fmt.Sprintf("Codex skips its group: matcher %q is not a regular expression", h.Matcher)
		return t
	}
	t.hook = cands[i]
	hash, err := t.hook.Hash()
	if err != nil {
		t.skip = "Codex cannot hash it to check its trust: " + err.Error()
		return t
	}
	key := t.hook.Key(codexSource(dir, name))
	switch {
	case v.hooksOff != "":
		t.off, t.fix, t.noRun = "disabled: [features] turns hooks off at "+v.hooksOff, "remove the line, or set it to true", true
		return t
	case f.src.Scope == settings.ScopeProject && !v.projectTrusted:
		t.off = "the project is not trusted, and Codex loads a project's .codex/ hooks only then"
		t.fix = fmt.Sprintf("trust the project when codex asks, or add [projects.%s] with trust_level = \"trusted\" to the user's config.toml", tomlQuote(v.l.locs.Project))
		return t
	case v.states == nil:
		t.trusted = true
		t.note = "its trust was not checked: the user's config.toml writes hook state in a form hookctl does not read, so verify ran it as trusted"
		return t
	}
	msg, fix := trustOf(v.states, key, hash)
	st, ok := v.states[key]
	switch {
	case msg == "":
		t.trusted = true
	case ok && st.Enabled != nil && !*st.Enabled:
		t.off, t.fix = "disabled: "+msg, fix
	case ok && st.Hash != "":
		t.off, t.fix = "modified: "+msg, fix
	default:
		t.off, t.fix = "not trusted: the user's config.toml records no trusted_hash for it", fix
	}
	if name == "config.toml" && t.off != "" && !strings.HasPrefix(t.off, "disabled") {
		// install -trust writes the trust of the hooks it installs into
		// a hooks.json only.
		t.fix = "review and trust it with /hooks in codex"
	}
	return t
}

// codexScratch is one run's folders: CODEX_HOME (also HOME), the project
// and the recorder's records.
type codexScratch struct {
	dir, home, proj, capDir string
}

// codexShellArgv returns the argv that runs a command line as Codex runs
// a hook's command.
func codexShellArgv(line string) []string {
	if runtime.GOOS == "windows" {
		return []string{"cmd", "/c", line}
	}
	return []string{"/bin/sh", "-c", line}
}

// codexCommandLine returns argv as one command line for Codex's shell.
func codexCommandLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = shellWord(w)
	}
	return strings.Join(words, " ")
}

// codexWrapped returns the hooks.json handler object of the hook under
// test: the recorder in front of (or, with fail, in place of) the command
// Codex runs, with every option Codex reads of it kept; with fail hang, a
// timeout of hangTimeout seconds at most.
func codexWrapped(c agent.CodexHandler, exe, capDir, fail string) jsontext.Value {
	cmd := c.Command
	if runtime.GOOS == "windows" && c.CommandWindows != nil {
		cmd = *c.CommandWindows
	}
	argv := []string{exe, "__tap", "-dir", capDir, "-label", hookLabel}
	if fail != "" {
		argv = append(argv, "-fail", fail)
	}
	argv = append(append(argv, "--"), codexShellArgv(cmd)...)
	ms := []jsonMember{{"type", marshalValue("command")}, {"command", marshalValue(codexCommandLine(argv))}}
	timeout := c.Timeout
	if fail == clientrun.FailHang && (timeout == nil || *timeout == 0 || *timeout > hangTimeout) {
		t := uint64(hangTimeout)
		timeout = &t
	}
	if timeout != nil {
		ms = append(ms, jsonMember{"timeout", marshalValue(*timeout)})
	}
	if c.Async {
		ms = append(ms, jsonMember{"async", marshalValue(true)})
	}
	if c.StatusMessage != nil {
		ms = append(ms, jsonMember{"statusMessage", marshalValue(*c.StatusMessage)})
	}
	if c.AdditionalContextLimit != nil {
		ms = append(ms, jsonMember{"additionalContextLimit", marshalValue(*c.AdditionalContextLimit)})
	}
	b, err := encodeMembers(ms)
	if err != nil {
		panic(err) // our own values
	}
	return b
}

// codexHooksFile returns a hooks.json holding hooks (nil: none).
func codexHooksFile(hooks map[string][]any) []byte {
	if len(hooks) == 0 {
		return nil
	}
	return append(marshalValue(map[string]any{"hooks": hooks}), '\n')
}

// codexTrustEntries returns the [hooks.state] tables that trust the hooks
// of the hooks.json data in the folder dir for which trusted says so
// (given the hook's command).
func codexTrustEntries(data []byte, dir string, trusted func(command string) bool) (string, error) {
	if len(data) == 0 {
		return "", nil
	}
	hs, err := agent.CodexHooksOf(data)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, h := range hs {
		if !trusted(h.Handler.Command) {
			continue
		}
		hash, err := h.Hash()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n[hooks.state.%s]\ntrusted_hash = %s\n", tomlQuote(h.Key(codexSource(dir, "hooks.json"))), tomlQuote(hash))
	}
	return b.String(), nil
}

// prepare makes the scratch of the run of hook i: the user's Codex
// folder (but codexSkips) and the project's .codex/ copied, hooks.json files with
// only the hook under test (wrapped in the recorder) in its own layer and
// verify's observer in the user's, and the marker file.
func (v *codexVerifier) prepare(i int, t codexHookTrust, p verifyPlan) (*codexScratch, string, error) {
	dir := filepath.Join(v.work, fmt.Sprintf("hook-%d", i+1))
	s := &codexScratch{dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj"), capDir: filepath.Join(dir, "cap")}
	for _, d := range []string{s.home, filepath.Join(s.proj, ".codex"), s.capDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, "", err
		}
	}
	var err error
	if s.home, err = filepath.EvalSymlinks(s.home); err != nil {
		return nil, "", err
	}
	if s.proj, err = filepath.EvalSymlinks(s.proj); err != nil {
		return nil, "", err
	}
	copied, err := copyTree(v.userDir, s.home, codexSkips(v.userDir), true)
	if err != nil {
		return nil, "", fmt.Errorf("copying %s: %w", v.userDir, err)
	}
	v.files.digest(copied...)
	copied, err = copyTree(filepath.Join(v.l.locs.Project, ".codex"), filepath.Join(s.proj, ".codex"), []string{"hooks.json", "config.toml", "auth.json"}, true)
	if err != nil {
		return nil, "", fmt.Errorf("copying the project's .codex: %w", err)
	}
	v.files.digest(copied...)

	f := v.l.hooks[i]
	user, project := map[string][]any{}, map[string][]any{}
	layer := user
	if f.src.Scope == settings.ScopeProject {
		layer = project
	}
	matcher := ""
	if t.hook.Matcher != nil {
		matcher = *t.hook.Matcher
	}
	addHook(layer, f.hook.Event, matcher, codexWrapped(t.hook.Handler, v.exe, s.capDir, v.fail))
	if p.Call != nil {
		observer := codexCommandLine([]string{v.exe, "__tap", "-dir", s.capDir, "-label", observerLabel})
		addHook(user, "PostToolUse", "", marshalValue(map[string]any{"type": "command", "command": observer, "timeout": 30}))
	}
	trusted := func(command string) bool {
		return strings.Contains(command, " -label "+observerLabel) || t.trusted && strings.Contains(command, " -label "+hookLabel)
	}
	var state strings.Builder
	for _, w := range []struct {
		dir   string
		hooks map[string][]any
	}{{s.home, user}, {filepath.Join(s.proj, ".codex"), project}} {
		data := codexHooksFile(w.hooks)
		if data == nil {
			continue
		}
		if err := writeFileMkdir(filepath.Join(w.dir, "hooks.json"), data); err != nil {
			return nil, "", err
		}
		entries, err := codexTrustEntries(data, w.dir, trusted)
		if err != nil {
			return nil, "", err
		}
		state.WriteString(entries)
	}
	if v.projectTrusted {
		fmt.Fprintf(&state, "\n[projects.%s]\ntrust_level = \"trusted\"\n", tomlQuote(s.proj))
	}
	if v.projectConfig != "" {
		if err := writeFileMkdir(filepath.Join(s.proj, ".codex", "config.toml"), []byte(v.projectConfig)); err != nil {
			return nil, "", err
		}
	}
	if err := os.WriteFile(filepath.Join(s.proj, markerFile), []byte("before\n"), 0o644); err != nil {
		return nil, "", err
	}
	if c := codexCredentialsIn(s.home, filepath.Join(s.proj, ".codex")); len(c) > 0 {
		return nil, "", fmt.Errorf("the scratch holds what looks like a credential, so verify stops: %s", strings.Join(c, ", "))
	}
	return s, state.String(), nil
}

// codexCredentialsIn returns the files under dirs that look like
// credentials: Codex's auth.json, and any name secretName flags.
func codexCredentialsIn(dirs ...string) []string {
	var out []string
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && (d.Name() == "auth.json" || secretName(d.Name())) {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// codexConfig returns the scratch config.toml: the fake model, what is
// carried of the user's config.toml, the trust state, the probe MCP
// server.
func (v *codexVerifier) codexConfig(apiURL, state, probeName, probeCmd, probeCfg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model = %s\nmodel_provider = %s\n", tomlQuote(codexVerifyModel), tomlQuote(codexVerifyModel))
	b.WriteString(v.carriedTop)
	if v.carriedTables != "" {
		b.WriteString("\n" + v.carriedTables)
	}
	fmt.Fprintf(&b, "\n[model_providers.%s]\nname = \"hookctl verify's fake Responses API\"\nbase_url = %s\nwire_api = \"responses\"\n", tomlQuote(codexVerifyModel), tomlQuote(apiURL+"/v1"))
	b.WriteString(state)
	if probeName != "" {
		fmt.Fprintf(&b, "\n[mcp_servers.%s]\ncommand = %s\nargs = [\"__probe\", %s]\n", tomlQuote(probeName), tomlQuote(probeCmd), tomlQuote(probeCfg))
	}
	return b.String()
}

// runOne runs codex exec once for hook i and returns what it observed.
func (v *codexVerifier) runOne(i int, t codexHookTrust) (*observed, error) {
	dir := filepath.Join(v.work, fmt.Sprintf("hook-%d", i+1), "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	proj, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	p := codexPlanFor(v.l.hooks[i].hook, proj)
	s, state, err := v.prepare(i, t, p)
	if err != nil {
		return nil, err
	}
	var turns [][]clientrun.Call
	if p.Call != nil {
		turns = append(turns, []clientrun.Call{*p.Call})
	}
	logf, err := os.Create(filepath.Join(s.dir, "api.log"))
	if err != nil {
		return nil, err
	}
	api, err := clientrun.StartFakeResponses(clientrun.Script{Turns: turns, Final: "done"}, logf)
	if err != nil {
		logf.Close()
		return nil, err
	}
	api.CloseLog = logf
	defer api.Close()
	probeCfg := ""
	if p.Server != "" {
		if probeCfg, err = writeProbeConfig(s.dir, p.Server, p.Tool); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(s.home, "config.toml"), []byte(v.codexConfig(api.URL, state, p.Server, v.exe, probeCfg)), 0o644); err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeout(context.Background(), v.limit)
	defer cancel()
	args := clientrun.CodexArgs("hookctl verify", filepath.Join(s.dir, "last-message.txt"), tomlQuote(codexVerifyModel), tomlQuote(codexVerifyModel), true)
	cmd := exec.CommandContext(ctx, v.codex, args...)
	cmd.Dir = s.proj
	cmd.Env = withCallLog(clientrun.CodexEnv(s.home, api.URL, os.Getenv("PATH")), s.dir)
	clientrun.OwnProcessGroup(cmd)
	run, err := runClient(ctx, cmd, s.dir, "codex", v.limit)
	api.Close()
	if err != nil {
		return nil, err
	}
	o := &observed{Plan: p, ClaudeExit: -1, Seconds: run.elapsed.Seconds(), Fail: v.fail}
	if cmd.ProcessState != nil {
		o.ClaudeExit = cmd.ProcessState.ExitCode()
	}
	if o.ClaudeExit != 0 {
		o.ClaudeStderr = lastLine(run.stderr.String())
	}
	if run.stopped != "" {
		o.ClaudeStderr = run.stopped
	}
	o.OutsideTries = api.OutsideTries()
	o.CallLog = readCallLog(s.dir)
	o.Warnings = codexWarnings(run.stderr.String())
	return o, collectCodex(o, s, api)
}

// collectCodex reads what the run recorded into o.
func collectCodex(o *observed, s *codexScratch, api *clientrun.FakeResponses) error {
	id := clientrun.ResponsesCallID(1)
	if err := collectRuns(o, s.capDir, id); err != nil {
		return err
	}
	if o.Plan.Call == nil {
		return nil
	}
	if o.Plan.Server != "" {
		o.ProbeArgs = probeArgs(s.dir)
	}
	if b, err := os.ReadFile(filepath.Join(s.proj, markerFile)); err == nil && string(b) != "before\n" {
		o.ToolRan = true
	}
	if res := clientrun.FindFunctionOutput(api.MainRequests(), id); res != nil {
		o.Told = &toldResult{Text: res.Text}
		o.Told.IsError = outcome(o) == "blocked"
	}
	return nil
}

// lastLine returns the last non-empty line of s: where codex says why it
// stopped.
func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// codexWarnings returns the warnings in codex's stderr about hooks or the
// project's configuration: what may say why a hook did not fire.
func codexWarnings(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		low := strings.ToLower(l)
		if strings.HasPrefix(low, "warning:") && (strings.Contains(low, "hook") || strings.Contains(low, "project-local")) {
			out = append(out, l)
		}
	}
	return out
}
