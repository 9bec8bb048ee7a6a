package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/settings"
)

// codexRecordedRuns returns the hooks of testdata/verifycodex/hooks.json
// with the observations of their runs in the real Codex 0.171.0
// (observed.json, saved by verify -agent codex -keep).
func codexRecordedRuns(t *testing.T) ([]found, []*observed) {
	t.Helper()
	dir := filepath.Join("testdata", "verifycodex")
	data, err := os.ReadFile(filepath.Join(dir, "hooks.json"))
	require.NoError(t, err)
	hs, err := settings.Parse(data)
	require.NoError(t, err)
	require.Len(t, hs, 4)
	var fs []found
	var obs []*observed
	for i, h := range hs {
		fs = append(fs, found{src: settings.Source{Scope: settings.ScopeUser}, file: "~/.codex/hooks.json", hook: h})
		b, err := os.ReadFile(filepath.Join(dir, []string{"hook-1.json", "hook-4.json", "hook-2.json", "hook-3.json"}[i]))
		require.NoError(t, err)
		var o observed
		require.NoError(t, json.Unmarshal(b, &o))
		obs = append(obs, &o)
	}
	return fs, obs
}

func TestVerifyCodexReportOfRecordedRuns(t *testing.T) {
	fs, obs := codexRecordedRuns(t)
	trusted := codexHookTrust{trusted: true}
	reps := make([]hookReport, len(fs))
	for i := range fs {
		reps[i] = buildCodexReport(i+1, fs[i], trusted, obs[i])
	}

	g := reps[0]
	assert.Equal(t, statusFired, g.Status)
	assert.Equal(t, "blocked", g.Did)
	assert.Equal(t, "blocked", g.Outcome, "the shell never ran")
	require.NotNil(t, g.Valid)
	assert.True(t, *g.Valid)
	assert.Contains(t, g.Told, "no shell today")
	assert.Equal(t, `Bash {"command":"echo 'hookctl verify' > hookctl-verify-marker.txt"}`, g.Call, "the call as the hook sees it")
	assert.Equal(t, 600.0, g.Timeout, "Codex's default")
	assert.False(t, g.problem())

	rw := reps[1]
	assert.Equal(t, statusFired, rw.Status)
	assert.Equal(t, "rewrote", rw.Did)
	assert.Equal(t, "ran", rw.Outcome)
	assert.JSONEq(t, `{"command":"echo rewritten > hookctl-verify-marker.txt"}`, string(rw.Received), "the members the tool received")

	m := reps[2]
	assert.Equal(t, statusDidNotRun, m.Status)
	assert.Contains(t, m.Why, "/nonexistent/hook")
	assert.True(t, m.problem())
	assert.NotContains(t, m.Why, "scratch HOME")
	home := fs[2]
	home.hook.Handler = settings.Handler{Command: "~/bin/hook"}
	why := buildCodexReport(3, home, trusted, obs[2]).Why
	assert.Contains(t, why, "copy of the user's Codex folder", "a program under HOME is not in the scratch")
	assert.NotContains(t, why, "~/.claude")
	home.hook.Handler = settings.Handler{Command: "~/.codex/hooks/hook"}
	assert.NotContains(t, buildCodexReport(3, home, trusted, obs[2]).Why, "scratch HOME", "the Codex folder is copied")

	c := reps[3]
	assert.Equal(t, statusFired, c.Status)
	assert.Equal(t, "ran", c.Outcome)

	// The same guard, untrusted: the run saw it not fire.
	none := *obs[0]
	none.Runs, none.Told, none.Observed = nil, nil, nil
	none.ToolRan = true
	u := buildCodexReport(1, fs[0], codexHookTrust{off: "not trusted: x", fix: "trust it"}, &none)
	assert.Equal(t, statusWillNotRun, u.Status)
	assert.Equal(t, "not trusted: x", u.Why)
	assert.Equal(t, "trust it", u.Fix)
	assert.True(t, u.problem(), "a hook that will not run fails verify")
	var out bytes.Buffer
	printReport(&out, []hookReport{u})
	assert.Contains(t, out.String(), "fix: trust it")

	// Async: Codex does not wait, the answer decides nothing.
	async := codexHookTrust{trusted: true}
	async.hook.Handler.Async = true
	a := buildCodexReport(1, fs[0], async, obs[0])
	assert.Contains(t, a.Did, "async")
	assert.NotNil(t, a.Valid, "its answer is judged by the rules of an async hook")
	killed := *obs[0]
	killed.Runs = []hookRecord{killed.Runs[0]}
	killed.Runs[0].Code, killed.Runs[0].Seconds = -1, 0
	assert.Nil(t, buildCodexReport(1, fs[0], async, &killed).Valid, "an async hook stopped at the end of the session gave no answer")
	hung := buildCodexReport(1, fs[0], codexHookTrust{trusted: true}, &killed)
	assert.Equal(t, "timed out", hung.Did)
	assert.Equal(t, hung.Timeout, hung.Time, "killed at its timeout")

	// Not fired, trusted: codex's own failure is the reason given.
	nf := *obs[0]
	nf.Runs, nf.ClaudeExit, nf.ClaudeStderr = nil, 1, "Error: boom"
	assert.Equal(t, "codex exited 1: Error: boom", buildCodexReport(1, fs[0], trusted, &nf).Why)
	nf.ClaudeExit, nf.ClaudeStderr = 0, ""
	nf.Warnings = codexWarnings("WARNING: proceeding\nwarning: Untrusted project-local configuration is disabled. Run `codex exec --trust`\nwarning: Model metadata not found\n")
	assert.Equal(t, "Codex warned: warning: Untrusted project-local configuration is disabled. Run `codex exec --trust`", buildCodexReport(1, fs[0], trusted, &nf).Why)
}

func TestVerifyCodexPlan(t *testing.T) {
	h := func(event, matcher string) settings.Hook {
		return settings.Hook{Event: event, Matcher: matcher, Handler: settings.Handler{Type: settings.TypeCommand, Command: "x"}}
	}
	p := codexPlanFor(h("PreToolUse", "Bash"), "/p")
	require.NotNil(t, p.Call)
	assert.Equal(t, "exec_command", p.Call.Tool)
	p = codexPlanFor(h("PostToolUse", "mcp__docs__search"), "/p")
	require.NotNil(t, p.Call)
	assert.Equal(t, "mcp__docs__search", p.Call.Tool)
	assert.Equal(t, "docs", p.Server)
	assert.Empty(t, codexPlanFor(h("Stop", ""), "/p").Skip)
	assert.Nil(t, codexPlanFor(h("UserPromptSubmit", ""), "/p").Call)
	assert.Contains(t, codexPlanFor(h("SessionStart", "resume"), "/p").Skip, `"startup"`)
	assert.Contains(t, codexPlanFor(h("PermissionRequest", "Bash"), "/p").Skip, "approval")
	assert.Contains(t, codexPlanFor(h("PreToolUse", "Write"), "/p").Skip, "catches no tool")
	assert.Contains(t, codexPlanFor(h("Notification", ""), "/p").Skip, "not a Codex")
	for _, ev := range []string{"SessionEnd", "PreModelRequest", "PostModelRequest"} {
		p := codexPlanFor(h(ev, ""), "/p")
		assert.Empty(t, p.Skip, "%s fires in every codex exec run", ev)
		assert.Nil(t, p.Call)
	}
	assert.Contains(t, codexPlanFor(h("SessionEnd", "clear"), "/p").Skip, `"other", the only reason`)
	assert.Empty(t, codexPlanFor(h("Stop", "(("), "/p").Skip, "Codex ignores a Stop matcher")
	assert.Contains(t, codexPlanFor(h("PreCompact", ""), "/p").Skip, "cannot fire PreCompact")
}

// codexUser writes a user's Codex folder and project: hooks.json with a
// trusted, an untrusted, a modified and a disabled hook, and a project
// hook; returns the loaded configuration.
func codexUser(t *testing.T, trustProject bool) (*loaded, string, string) {
	home := t.TempDir()
	proj := t.TempDir()
	proj, _ = filepath.EvalSymlinks(proj)
	t.Setenv("CODEX_HOME", home)
	hooksJSON := `{"hooks":{"PreToolUse":[
 {"matcher":"Bash","hooks":[{"type":"command","command":"guard-trusted","timeout":9}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"guard-untrusted"}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"guard-modified"}]},
 {"matcher":"Bash","hooks":[{"type":"command","command":"guard-disabled"}]}]}}`
	require.NoError(t, os.WriteFile(filepath.Join(home, "hooks.json"), []byte(hooksJSON), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(home, "auth.json"), []byte(`{"OPENAI_API_KEY":"sk-must-not-leak"}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, "AGENTS.md"), []byte("be careful\n"), 0o644))
	for _, f := range []string{"hooks/guard.sh", "sessions/2026/x.jsonl", "state_5.sqlite", "history.jsonl", "my-token.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(home, f), []byte("x\n"), 0o644))
	}
	hs, err := agent.CodexHooksOf([]byte(hooksJSON))
	require.NoError(t, err)
	src := codexSource(home, "hooks.json")
	var cfg strings.Builder
	for i, h := range hs {
		hash, err := h.Hash()
		require.NoError(t, err)
		switch i {
		case 0:
			cfg.WriteString("[hooks.state." + tomlQuote(h.Key(src)) + "]\ntrusted_hash = " + tomlQuote(hash) + "\n")
		case 2:
			cfg.WriteString("[hooks.state." + tomlQuote(h.Key(src)) + "]\ntrusted_hash = \"sha256:00\"\n")
		case 3:
			cfg.WriteString("[hooks.state." + tomlQuote(h.Key(src)) + "]\ntrusted_hash = " + tomlQuote(hash) + "\nenabled = false\n")
		}
	}
	projHooks := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"project-stop"}]}]}}`
	require.NoError(t, os.MkdirAll(filepath.Join(proj, ".codex"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".codex", "hooks.json"), []byte(projHooks), 0o644))
	ph, err := agent.CodexHooksOf([]byte(projHooks))
	require.NoError(t, err)
	hash, err := ph[0].Hash()
	require.NoError(t, err)
	cfg.WriteString("[hooks.state." + tomlQuote(ph[0].Key(codexSource(filepath.Join(proj, ".codex"), "hooks.json"))) + "]\ntrusted_hash = " + tomlQuote(hash) + "\n")
	if trustProject {
		cfg.WriteString("[projects." + tomlQuote(proj) + "]\ntrust_level = \"trusted\"\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg.String()), 0o644))
	l, err := loadCodex(proj)
	require.NoError(t, err)
	require.Empty(t, l.errs)
	require.Len(t, l.hooks, 5)
	return l, home, proj
}

func TestVerifyCodexTrustCarriedOver(t *testing.T) {
	for _, trustProject := range []bool{true, false} {
		l, home, proj := codexUser(t, trustProject)
		before := map[string][]byte{}
		for _, p := range []string{filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml"), filepath.Join(home, "auth.json"), filepath.Join(proj, ".codex", "hooks.json")} {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			before[p] = b
		}
		work := t.TempDir()
		v, err := newCodexVerifier(l, "codex", "/bin/hookctl", "", work, 0)
		require.NoError(t, err)
		assert.Equal(t, trustProject, v.projectTrusted)

		want := []struct {
			trusted bool
			off     string
		}{{true, ""}, {false, "not trusted"}, {false, "modified"}, {false, "disabled"}, {trustProject, "the project is not trusted"}}
		for i, f := range l.hooks {
			tr := v.trustFor(f)
			require.Empty(t, tr.skip, "hook %d", i+1)
			w := want[i]
			if i == 4 && trustProject {
				w.off = ""
			}
			assert.Equal(t, w.trusted, tr.trusted, "hook %d (%s): trusted", i+1, f.hook.Handler.Command)
			if w.off == "" {
				assert.Empty(t, tr.off, "hook %d", i+1)
			} else {
				assert.True(t, strings.HasPrefix(tr.off, w.off), "hook %d: %q", i+1, tr.off)
				assert.NotEmpty(t, tr.fix, "hook %d: a will-not-run comes with its fix", i+1)
			}

			p := codexPlanFor(f.hook, filepath.Join(work, "p"))
			s, state, err := v.prepare(i, tr, p)
			require.NoError(t, err)
			// The wrapped hook's own trust entry, keyed in the scratch.
			layer := s.home
			if f.src.Scope == settings.ScopeProject {
				layer = filepath.Join(s.proj, ".codex")
			}
			wrapped, err := os.ReadFile(filepath.Join(layer, "hooks.json"))
			require.NoError(t, err)
			assert.Contains(t, string(wrapped), f.hook.Handler.Command, "the recorder runs the user's command")
			key := "[hooks.state." + tomlQuote(codexSource(layer, "hooks.json")+":"+map[string]string{"PreToolUse": "pre_tool_use", "Stop": "stop"}[f.hook.Event]+":0:0") + "]"
			if tr.trusted {
				assert.Contains(t, state, key, "hook %d: trusted for the user, trusted in the scratch", i+1)
			} else {
				assert.NotContains(t, state, key, "hook %d: not trusted for the user, not in the scratch either", i+1)
			}
			assert.Equal(t, trustProject, strings.Contains(state, "[projects."+tomlQuote(s.proj)+"]"), "the project's trust carried over")
			if i == 0 {
				assert.Contains(t, string(wrapped), `"timeout":9`, "options kept")
			}
			// No credential in the scratch; the instructions are there.
			_, err = os.Stat(filepath.Join(s.home, "auth.json"))
			assert.ErrorIs(t, err, os.ErrNotExist, "auth.json is never copied")
			agents, err := os.ReadFile(filepath.Join(s.home, "AGENTS.md"))
			require.NoError(t, err)
			assert.Equal(t, "be careful\n", string(agents))
			_, err = os.Stat(filepath.Join(s.home, "hooks", "guard.sh"))
			assert.NoError(t, err, "a hook's program kept in the Codex folder is there")
			for _, gone := range []string{"sessions", "state_5.sqlite", "history.jsonl", "my-token.txt"} {
				_, err = os.Stat(filepath.Join(s.home, gone))
				assert.ErrorIs(t, err, os.ErrNotExist, "%s is not copied", gone)
			}
		}
		assert.Empty(t, v.files.changed())
		for p, b := range before {
			now, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, b, now, "%s is byte-identical", p)
		}
	}
}

func TestVerifyCodexHooksOff(t *testing.T) {
	l, home, _ := codexUser(t, true)
	cfg, err := os.ReadFile(filepath.Join(home, "config.toml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), append([]byte("[features]\nhooks = false\n"), cfg...), 0o644))
	v, err := newCodexVerifier(l, "codex", "/bin/hookctl", "", t.TempDir(), 0)
	require.NoError(t, err)
	tr := v.trustFor(l.hooks[0])
	assert.True(t, tr.noRun)
	assert.Contains(t, tr.off, "[features] turns hooks off")
	r := buildCodexReport(1, l.hooks[0], tr, &observed{Plan: codexPlanFor(l.hooks[0].hook, "PROJECT")})
	assert.Equal(t, statusWillNotRun, r.Status)
	assert.Empty(t, r.Call, "nothing was run")
}

func TestVerifyCodexWrappedHang(t *testing.T) {
	ten := uint64(10)
	msg := "checking"
	w := string(codexWrapped(agent.CodexHandler{Command: "guard 'x'", Timeout: &ten, StatusMessage: &msg, Async: true}, "/bin/hookctl", "/cap", "hang"))
	assert.Contains(t, w, `"timeout": 5`, "a hang is cut to 5s")
	assert.Contains(t, w, `"statusMessage": "checking"`)
	assert.Contains(t, w, `"async": true`)
	assert.Contains(t, w, `-fail hang`)
}

func TestVerifyCodexTOMLHookTrust(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", home)
	hooks := "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"guard-toml\"\ntimeout = 7\n" +
		"[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"guard-toml-untrusted\"\n"
	tt := readCodexTOML([]byte(hooks))
	require.Len(t, tt.Codex, 2)
	hash, err := tt.Codex[0].Hash()
	require.NoError(t, err)
	state := "\n[hooks.state." + tomlQuote(tt.Codex[0].Key(codexSource(home, "config.toml"))) + "]\ntrusted_hash = " + tomlQuote(hash) + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte(hooks+state), 0o644))
	l, err := loadCodex(proj)
	require.NoError(t, err)
	require.Empty(t, l.errs)
	require.Len(t, l.hooks, 2)
	v, err := newCodexVerifier(l, "codex", "/bin/hookctl", "", t.TempDir(), 0)
	require.NoError(t, err)

	tr := v.trustFor(l.hooks[0])
	assert.Empty(t, tr.skip)
	assert.True(t, tr.trusted, "%+v", tr)
	require.NotNil(t, tr.hook.Handler.Timeout)
	assert.EqualValues(t, 7, *tr.hook.Handler.Timeout)
	s, st, err := v.prepare(0, tr, codexPlanFor(l.hooks[0].hook, "/p"))
	require.NoError(t, err)
	assert.Contains(t, st, tomlQuote(codexSource(s.home, "hooks.json")+":pre_tool_use:0:0"), "moved into the scratch hooks.json, trusted there")

	tr = v.trustFor(l.hooks[1])
	assert.False(t, tr.trusted)
	assert.Contains(t, tr.off, "not trusted")
	assert.Equal(t, "review and trust it with /hooks in codex", tr.fix, "install -trust does not trust a config.toml hook")
}

func TestVerifyCodexJudgesByCodexRules(t *testing.T) {
	for _, c := range []struct {
		event, out, err string
		code            int
		async, valid    bool
		why             string
	}{
		{event: "PreToolUse", code: 2, err: "no", valid: true},
		{event: "PreToolUse", code: 2, valid: false, why: "without a reason"},
		{event: "SessionStart", code: 2, err: "no", valid: false, why: "blocks nothing on SessionStart"},
		{event: "PreToolUse", out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, valid: false, why: "updatedInput"},
		{event: "PreToolUse", out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`, valid: false},
		{event: "PreToolUse", out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, valid: true},
		{event: "Stop", out: "plain text", valid: false, why: "plain text"},
		{event: "SessionStart", out: "remember this", valid: true},
		{event: "UserPromptSubmit", out: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}`, valid: true},
		{event: "PreToolUse", code: 1, valid: false, why: "exit 1"},
		{event: "PreToolUse", code: -1, valid: false, why: "timeout"},
	} {
		valid, why := judgeCodexAnswer(c.event, hookRecord{Event: c.event, Out: c.out, Err: c.err, Code: c.code}, c.async)
		assert.Equal(t, c.valid, valid, "%+v: %s", c, why)
		if c.why != "" {
			assert.Contains(t, why, c.why, "%+v", c)
		}
		if valid {
			assert.Empty(t, why)
		}
	}

	// A report: an allow without updatedInput is a failed hook to Codex.
	fs, obs := codexRecordedRuns(t)
	o := *obs[1]
	o.Runs = []hookRecord{o.Runs[0]}
	o.Runs[0].Out = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`
	r := buildCodexReport(2, fs[1], codexHookTrust{trusted: true}, &o)
	require.NotNil(t, r.Valid)
	assert.False(t, *r.Valid)
	assert.Equal(t, "failed (Codex ignores the answer)", r.Did)
	assert.Empty(t, r.Received)
}

func TestVerifyCodexFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "-agent", "codex", "-plugin", "x"}, "-plugin is for Claude Code plugins"},
		{[]string{"verify", "-agent", "codex", "-claude", "x"}, "-claude is for Claude Code"},
		{[]string{"verify", "-codex", "x"}, "-codex is for -agent codex"},
		{[]string{"verify", "-agent", "codex", "-codex", "x", "-version", "1"}, "not both"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(c.args, &stdout, &stderr), "%v", c.args)
		assert.Contains(t, stderr.String(), c.want, "%v", c.args)
	}
	// A codex that is not there is an error before any run.
	t.Setenv("CODEX_HOME", t.TempDir())
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"verify", "-agent", "codex", "-netns", "off", "-project", t.TempDir(), "-codex", filepath.Join(t.TempDir(), "no-codex")}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "no-codex")
}

func TestVerifyCodexCarriedConfig(t *testing.T) {
	cfg := `# the user's
model = "gpt-9"
model_provider = "corp"
model_reasoning_effort = "high"
notify = ["/usr/bin/notify"]
chatgpt_base_url = "https://example.invalid"
approval_policy = "on-request"
experimental_bearer_token = "sk-secret"
project_doc_max_bytes = 1000

[features]
hooks = true
web_search = false

[shell_environment_policy]
inherit = "core"
set = { OPENAI_API_KEY = "sk-secret" }
exclude = ["AWS_*"]

[model_providers.corp]
base_url = "https://corp.invalid/v1"
env_key = "CORP_KEY"

[mcp_servers.docs]
command = "docs-mcp"

[profiles.fast]
model = "x"

[projects."/home/me/proj"]
trust_level = "trusted"

[hooks.state."/home/me/.codex/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:00"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
command = "guard"

[tui]
notifications = true
`
	top, tables, dropped := codexCarriedConfig([]byte(cfg))
	assert.Equal(t, "model_reasoning_effort = \"high\"\nproject_doc_max_bytes = 1000\n", top)
	assert.Equal(t, "[features]\nhooks = true\nweb_search = false\n[shell_environment_policy]\ninherit = \"core\"\nexclude = [\"AWS_*\"]\n[tui]\nnotifications = true\n", tables)
	for _, d := range []string{"model", "notify", "chatgpt_base_url", "approval_policy", "experimental_bearer_token", "shell_environment_policy.set", "[model_providers.corp]", "[mcp_servers.docs]", "[profiles.fast]", "[hooks.PreToolUse]"} {
		assert.Contains(t, dropped, d)
	}
	assert.NotContains(t, top+tables, "sk-secret")
	assert.NotContains(t, top+tables, "invalid")
	// What is kept reads back as the same settings.
	kept := readCodexTOML([]byte(top + tables))
	assert.Empty(t, kept.Problems)
	assert.Empty(t, kept.Hooks)
}
