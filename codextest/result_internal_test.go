package codextest

// Tests of a run's set-up and of reading it back, without Codex: the
// test plays Codex's part against the fake Responses API, the recorder
// and the MCP probe's log.

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/clientrun"
)

// post sends one Responses request to the run's fake API, as Codex would.
func post(t *testing.T, r *run, body string) {
	t.Helper()
	resp, err := http.Post(r.api.URL+"/v1/responses", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	// Read to the end, as Codex does: the fake records the request
	// before it ends the stream.
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// tap records one hook run as the recorder Codex starts would.
func tap(t *testing.T, r *run, name, payload string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := clientrun.Tap{Dir: r.f.CapDir(), Label: name}.Run(strings.NewReader(payload), &out, &errb)
	require.Equal(t, 0, code, "%s", errb.String())
}

func TestCollectReadsTheRun(t *testing.T) {
	const args = `{"room":"K\u00f6ln","n":12345678901234567890}`
	r, err := prepareIn(mustFolder(t, "/bin/test-binary"), Session{
		Files: map[string]string{"a/b.txt": "x"},
		MCP:   []MCPServer{{Name: "probe", Tools: []MCPTool{{Name: "listen_here"}}}},
		Hooks: []Hook{{Event: "PreToolUse", Command: []string{"/bin/guard", "deny"}}},
		Turns: []Turn{
			{Bash("rm -rf " + ProjectDir), MCP("probe", "listen_here", args)},
			{MCP("probe", "listen_here", args), MCP("probe", "listen_here", `{"second":true}`)},
		},
		Final: "bye",
	})
	require.NoError(t, err)
	got, ok := (&Result{Project: r.Project}).File("a/b.txt")
	assert.True(t, ok)
	assert.Equal(t, "x", got)
	require.NoError(t, r.start(Session{Final: "bye"}))
	defer r.stop()

	// Codex's part: the requests, the hooks, the MCP server's log, the
	// last message.
	post(t, r, `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`)
	tap(t, r, "guard", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /x"},"tool_use_id":"call_1"}`)
	tap(t, r, "guard", `{"hook_event_name":"PreToolUse","tool_name":"mcp__probe__listen_here","tool_input":{},"tool_use_id":"call_2"}`)
	post(t, r, `{"model":"m","input":[`+
		`{"type":"function_call","call_id":"call_1","name":"exec_command","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"call_1","output":"Command blocked by PreToolUse hook: no. Command: rm -rf /x"},`+
		`{"type":"function_call","call_id":"call_2","name":"listen_here","namespace":"mcp__probe","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"call_2","output":[{"type":"input_text","text":"Wall time: 0.1 seconds\nOutput:"},{"type":"input_text","text":"ok"}]}]}`)
	post(t, r, `{"model":"m","input":[`+
		`{"type":"function_call","call_id":"call_3","name":"listen_here","namespace":"mcp__probe","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"call_3","output":"Tool call blocked by PreToolUse hook: not this one"},`+
		`{"type":"function_call","call_id":"call_4","name":"listen_here","namespace":"mcp__probe","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"call_4","output":"ok"}]}`)
	probe := `{"name":"listen_here","arguments":` + args + "}\n" + `{"name":"listen_here","arguments":{"second":true}}` + "\n"
	require.NoError(t, os.WriteFile(r.f.ProbeLog("probe"), []byte(probe), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(r.Dir, "last-message.txt"), []byte("bye\n"), 0o644))
	r.Stderr = []byte("hook: PreToolUse\nhook: PreToolUse Blocked\nhook: PreToolUse Completed\r\nhook: PostToolUse Failed (exit 1)\nhook: PreToolUse\n")
	r.stop()
	require.NoError(t, r.collect())

	assert.Equal(t, "bye", r.Text)
	assert.Len(t, r.Requests, 3)
	assert.Empty(t, r.OutsideTries)
	require.Len(t, r.Calls, 4)
	c1 := r.Call(1)
	assert.Equal(t, "call_1", c1.ID)
	assert.Equal(t, "exec_command", c1.Tool)
	assert.JSONEq(t, `{"cmd":"rm -rf `+r.Project+`","login":false}`, c1.Input, "ProjectDir replaced")
	h, ok := c1.Hook("guard", "PreToolUse")
	require.True(t, ok)
	assert.Equal(t, "Bash", h.Tool)
	cmd, _ := h.Input("tool_input", "command")
	assert.Equal(t, `"rm -rf /x"`, string(cmd))
	require.NotNil(t, c1.Result)
	assert.Equal(t, "Command blocked by PreToolUse hook: no. Command: rm -rf /x", c1.Result.Text)
	assert.Nil(t, c1.MCP, "not an MCP call")

	c2 := r.Call(2)
	require.Len(t, c2.Hooks, 1)
	require.NotNil(t, c2.Result)
	assert.Equal(t, "Wall time: 0.1 seconds\nOutput:\nok", c2.Result.Text)
	require.NotNil(t, c2.MCP)
	assert.Equal(t, args, string(c2.MCP.Arguments), "the server's arguments byte for byte")
	// Call 3 was blocked: the server's second call is call 4's.
	assert.Nil(t, r.Call(3).MCP)
	require.NotNil(t, r.Call(4).MCP)
	assert.Equal(t, `{"second":true}`, string(r.Call(4).MCP.Arguments))
	assert.Len(t, r.MCPCalls, 2)

	assert.Equal(t, []string{"PreToolUse:Bash", "PreToolUse:mcp__probe__listen_here"}, r.Events())
	assert.Len(t, r.HooksOf("guard", "PreToolUse"), 2)
	assert.Empty(t, r.HooksOf("guard", "PostToolUse"))
	assert.Equal(t, []string{"Blocked", "Completed"}, r.HookStatuses("PreToolUse"))
	assert.Equal(t, []string{"Failed"}, r.HookStatuses("PostToolUse"))
	assert.Empty(t, r.HookStatuses("Stop"))
	assert.True(t, r.Told("not this one"))
	assert.False(t, r.Told("never said"))
	assert.Panics(t, func() { r.Call(5) })
	assert.Panics(t, func() { r.Call(0) })
	assert.Contains(t, r.diagnose(), "hook 1 guard PreToolUse Bash: exit 0")
}

func TestConfigPointsCodexAtTheFakeOnly(t *testing.T) {
	r, err := prepareIn(mustFolder(t, "/opt/it's \"here\"/test.bin"), Session{
		MCP:    []MCPServer{{Name: "db-1", Tools: []MCPTool{{Name: "q", Schema: `{"type":"object","properties":{"a":{}}}`}}}},
		Config: "[projects.'/x']\ntrust_level = \"trusted\"\n",
		Hooks: []Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: []string{"/bin/hook", "it's"}, Timeout: 5, Options: map[string]any{"statusMessage": "checking"}},
			{Event: "Stop"},
		},
	})
	require.NoError(t, err)
	require.NoError(t, r.start(Session{Config: "[projects.'/x']\ntrust_level = \"trusted\"\n", MCP: r.mcp}))
	defer r.stop()

	cfg, err := os.ReadFile(filepath.Join(r.Home, "config.toml"))
	require.NoError(t, err)
	s := string(cfg)
	assert.Contains(t, s, "model_provider = \"codextest\"\n")
	assert.Contains(t, s, "base_url = \""+r.api.URL+"/v1\"\n")
	assert.Contains(t, s, "wire_api = \"responses\"")
	assert.Contains(t, s, `command = "/opt/it's \"here\"/test.bin"`)
	assert.Contains(t, s, "[mcp_servers.db-1]")
	assert.Contains(t, s, `env = { CODEXTEST_HELPER = "mcpprobe" }`)
	assert.True(t, strings.HasPrefix(s, "model = \"codextest-model\"\nmodel_provider = \"codextest\"\n\n[projects.'/x']\ntrust_level = \"trusted\"\n\n[model_providers.codextest]\n"),
		"Config after the top-level keys, before the tables: %s", s)

	var hooks struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	b, err := os.ReadFile(filepath.Join(r.Home, "hooks.json"))
	require.NoError(t, err)
	require.NoError(t, clientrun.Unmarshal(b, &hooks))
	pre := hooks.Hooks["PreToolUse"]
	require.Len(t, pre, 1)
	assert.Equal(t, "Bash", pre[0].Matcher)
	e := pre[0].Hooks[0]
	assert.Equal(t, "command", e["type"])
	assert.Equal(t, "checking", e["statusMessage"])
	assert.EqualValues(t, 5, e["timeout"])
	assert.Equal(t, `CODEXTEST_HELPER=hooktap '/opt/it'\''s "here"/test.bin' '`+r.f.CapDir()+`' 'hook' '/bin/hook' 'it'\''s'`, e["command"])
	stop := hooks.Hooks["Stop"]
	require.Len(t, stop, 1)
	assert.EqualValues(t, 30, stop[0].Hooks[0]["timeout"], "the default timeout")
	assert.True(t, strings.HasSuffix(stop[0].Hooks[0]["command"].(string), "'record'"), "a recorder has no argv")

	// The environment holds nothing of the test's but PATH, and the
	// arguments name the model and provider, which config.toml cannot
	// override.
	t.Setenv("OPENAI_API_KEY", "must-not-leak")
	env := strings.Join(codexEnv(r.Home, r.api.URL, "/usr/bin"), "\n")
	assert.NotContains(t, env, "must-not-leak")
	assert.NotContains(t, env, "OPENAI")
	assert.Contains(t, env, "CODEX_HOME="+r.Home)
	assert.Contains(t, env, "HTTPS_PROXY="+r.api.URL)
	args := codexArgs("go -- on", "/x/last.txt", false)
	assert.Equal(t, []string{"--", "go -- on"}, args[len(args)-2:], "the prompt is never an option")
	assert.Contains(t, strings.Join(args, " "), `-c model_provider="codextest"`)
	assert.Contains(t, args, "--dangerously-bypass-hook-trust")
	for _, kv := range []string{"features.hooks=true", "features.plugins=false", "analytics.enabled=false"} {
		assert.Contains(t, args, kv)
	}
}

func TestNoHooksWritesNoHooksFile(t *testing.T) {
	r, err := prepareIn(mustFolder(t, "/bin/x"), Session{})
	require.NoError(t, err)
	var seen string
	require.NoError(t, r.start(Session{Setup: func(home, project string) error {
		seen = home + "|" + project
		return nil
	}}))
	defer r.stop()
	assert.NoFileExists(t, filepath.Join(r.Home, "hooks.json"))
	assert.FileExists(t, filepath.Join(r.Home, "config.toml"))
	assert.Equal(t, r.Home+"|"+r.Project, seen)
}

func TestBadSessionsAreRefused(t *testing.T) {
	for name, s := range map[string]Session{
		"hook without event":    {Hooks: []Hook{{Command: []string{"x"}}}},
		"empty argv0":           {Hooks: []Hook{{Event: "Stop", Command: []string{""}}}},
		"negative timeout":      {Hooks: []Hook{{Event: "Stop", Timeout: -1}}},
		"options set command":   {Hooks: []Hook{{Event: "Stop", Options: map[string]any{"command": "rm -rf /"}}}},
		"bad server name":       {MCP: []MCPServer{{Name: "a b"}}},
		"server name with __":   {MCP: []MCPServer{{Name: "a__b"}}},
		"server name ends in _": {MCP: []MCPServer{{Name: "a_"}}},
		"duplicate server":      {MCP: []MCPServer{{Name: "a"}, {Name: "a"}}},
		"tool without name":     {MCP: []MCPServer{{Name: "a", Tools: []MCPTool{{}}}}},
		"bad schema":            {MCP: []MCPServer{{Name: "a", Tools: []MCPTool{{Name: "t", Schema: "{"}}}}},
		"file outside":          {Files: map[string]string{"../x": ""}},
		"absolute file":         {Files: map[string]string{"/etc/x": ""}},
		"empty turn":            {Turns: []Turn{{}}},
		"call without tool":     {Turns: []Turn{{{Input: `{}`}}}},
		"input not an object":   {Turns: []Turn{{Tool("x", `[1]`)}}},
		"input not JSON":        {Turns: []Turn{{Tool("x", `{"a":`)}}},
		"input with duplicates": {Turns: []Turn{{Tool("x", `{"a":1} {}`)}}},
	} {
		_, err := prepareIn(mustFolder(t, "/bin/x"), s)
		assert.Error(t, err, name)
	}
}

func TestTomlString(t *testing.T) {
	for in, want := range map[string]string{
		``:          `""`,
		`plain`:     `"plain"`,
		`a"b\c`:     `"a\"b\\c"`,
		"tab\tnl\n": `"tab\tnl\n"`,
		"del\x7f":   `"del\u007F"`,
		"Köln ☃ 日本": `"Köln ☃ 日本"`,
	} {
		assert.Equal(t, want, tomlString(in), "%q", in)
	}
}

func TestToolEncodesInputs(t *testing.T) {
	assert.Equal(t, Call{Tool: "exec_command", Input: `{"cmd":"ls -l","login":false}`}, Bash("ls -l"))
	assert.Equal(t, "mcp__s__t", MCP("s", "t", `{}`).Tool)
	assert.Equal(t, `{"a":1}`, Tool("x", []byte(`{"a":1}`)).Input)
	assert.Equal(t, `{"a":1}`, Tool("x", jsontext.Value(`{"a":1}`)).Input)
	assert.Equal(t, `{"a":1,"b":"<&>"}`, Tool("x", map[string]any{"b": "<&>", "a": 1}).Input)
	assert.Panics(t, func() { Tool("x", func() {}) })
}

// mustFolder makes a run folder in a temporary folder for the test binary
// exe.
func mustFolder(t *testing.T, exe string) clientrun.Folder {
	f, err := clientrun.MakeFolder(t.TempDir(), exe, envHelper)
	require.NoError(t, err)
	return f
}
