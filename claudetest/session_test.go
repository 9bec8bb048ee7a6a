package claudetest

// Tests of a run's set-up and of reading what it left. They need neither
// Claude Code nor the network.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/clientrun"
)

// skipTB records a skip and ends the goroutine, as testing.T does.
type skipTB struct {
	testing.TB
	msg string
}

func (s *skipTB) Helper() {}

func (s *skipTB) Skipf(format string, args ...any) {
	s.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestRunSkipsWithoutHOOK_E2E(t *testing.T) {
	t.Setenv(envEnable, "")
	t.Setenv(envVersion, "")
	for name, f := range map[string]func(testing.TB){
		"Run":  func(tb testing.TB) { Run(tb, Session{}) },
		"Need": Need,
	} {
		tb := &skipTB{}
		reached := false
		done := make(chan struct{})
		go func() {
			defer close(done)
			f(tb)
			reached = true
		}()
		<-done
		assert.False(t, reached, "%s returned", name)
		assert.Equal(t, "claudetest: this test runs the real Claude Code "+Version+": set HOOK_E2E=1 to run it (it installs Claude Code with npm into the user cache folder on first use)", tb.msg, name)
	}
}

func TestFindWithoutNpmIsUnavailable(t *testing.T) {
	t.Setenv(envBin, "")
	t.Setenv(envCache, filepath.Join(t.TempDir(), "empty"))
	t.Setenv("PATH", t.TempDir()) // no npm, no claude
	_, _, err := fromEnv().Find(context.Background(), &bytes.Buffer{})
	require.Error(t, err)
	assert.True(t, errors.Is(err, errUnavailable), "%v", err)
	switch {
	case (runtime.GOOS == "linux" || runtime.GOOS == "darwin" || runtime.GOOS == "windows") && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"):
		assert.Contains(t, err.Error(), "npm is not there to install it")
	default: // no package is made for this platform: that is said first
		assert.Contains(t, err.Error(), "no Claude Code package is made for "+runtime.GOOS+"/"+runtime.GOARCH)
	}
	assert.Contains(t, err.Error(), envBin)

	t.Setenv(envBin, filepath.Join(t.TempDir(), "no-such-claude"))
	_, _, err = fromEnv().Find(context.Background(), &bytes.Buffer{})
	assert.True(t, errors.Is(err, errUnavailable), "a CLAUDE_BIN that does not run: %v", err)
}

func TestPrepareRefusesBadSessions(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for name, s := range map[string]Session{
		"file outside":        {Files: map[string]string{"../x": ""}},
		"file dotdot":         {Files: map[string]string{"a/../../x": ""}},
		"file absolute":       {Files: map[string]string{"/etc/x": ""}},
		"file empty":          {Files: map[string]string{"": ""}},
		"settings hooks":      {Settings: map[string]any{"hooks": map[string]any{}}},
		"settings perms":      {Settings: map[string]any{"permissions": map[string]any{}}},
		"hook without event":  {Hooks: []Hook{{Command: []string{"x"}}}},
		"hook command+http":   {Hooks: []Hook{{Event: "Stop", Command: []string{"x"}, Handler: h}}},
		"mcp underscore":      {MCP: []MCPServer{{Name: "my_server"}}},
		"mcp duplicate":       {MCP: []MCPServer{{Name: "a"}, {Name: "a"}}},
		"mcp bad schema":      {MCP: []MCPServer{{Name: "a", Tools: []MCPTool{{Name: "t", Schema: "{"}}}}},
		"input not json":      {Turns: []Turn{{{Tool: "Bash", Input: `{"command":`}}}},
		"input not an object": {Turns: []Turn{{{Tool: "Bash", Input: `["ls"]`}}}},
		"empty turn":          {Turns: []Turn{{Bash("ls")}, {}}},
		"setup fails":         {Setup: func(string) error { return errors.New("no") }},
		"env base url":        {Settings: map[string]any{"env": map[string]string{"ANTHROPIC_BASE_URL": "https://example.com"}}},
		"env proxy":           {Settings: map[string]any{"env": map[string]any{"https_proxy": "http://example.com"}}},
		"env bedrock":         {Settings: map[string]any{"env": map[string]string{"CLAUDE_CODE_USE_BEDROCK": "1"}}},
		"env not a map":       {Settings: map[string]any{"env": []string{"A=1"}}},
		"api key helper":      {Settings: map[string]any{"apiKeyHelper": "/bin/echo"}},
		"empty argv0":         {Hooks: []Hook{{Event: "Stop", Command: []string{""}}}},
		"negative timeout":    {Hooks: []Hook{{Event: "Stop", Timeout: -1}}},
		"tool without name":   {MCP: []MCPServer{{Name: "a", Tools: []MCPTool{{}}}}},
		"call without tool":   {Turns: []Turn{{{Input: `{}`}}}},
		"file rooted":         {Files: map[string]string{"/x": ""}},
	} {
		_, err := prepare(t, s)
		assert.Error(t, err, name)
	}
}

func TestPrepareWritesFilesAndConfig(t *testing.T) {
	s := Session{
		Files: map[string]string{"a/b/c.txt": "C", ".env": "X=1\n"},
		Setup: func(project string) error {
			if err := os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte("{}"), 0o644); err != nil {
				return err // the project's .claude/ is there
			}
			return os.WriteFile(filepath.Join(project, "..", "outside.txt"), []byte("O"), 0o644)
		},
		Hooks: []Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: []string{"/bin/guard it", "-x"}, Timeout: 5, Options: map[string]any{"onFailure": "block"}},
			{Event: "PostToolUse", Handler: http.NotFoundHandler()},
			{Event: "Stop", Options: map[string]any{"timeout": 7, "type": "prompt"}},
		},
		Settings: map[string]any{"env": map[string]string{"A": "1"}},
		MCP:      []MCPServer{{Name: "probe", Tools: []MCPTool{{Name: "listen_here"}}}},
		Turns:    []Turn{{Write("x.txt", "hi"), Bash("ls")}, {MCP("probe", "listen_here", map[string]string{})}},
	}
	r, err := prepare(t, s)
	require.NoError(t, err)
	c, ok := r.File("a/b/c.txt")
	assert.True(t, ok)
	assert.Equal(t, "C", c)
	o, err := os.ReadFile(filepath.Join(r.Dir, "outside.txt"))
	require.NoError(t, err)
	assert.Equal(t, "O", string(o), "Setup got the project, whose parent is the run's")
	require.Len(t, r.calls, 3)
	q, _ := jsontext.AppendQuote(nil, r.Project)
	assert.Contains(t, r.calls[0].Input, `"file_path":`+string(q[:len(q)-1])+`/x.txt"`, "ProjectDir replaced")

	require.NoError(t, r.writeConfig(s, []string{"", "http://127.0.0.1:1/hook", ""}))
	settings, err := os.ReadFile(filepath.Join(r.Project, ".claude", "settings.json"))
	require.NoError(t, err)
	pre, ok := clientrun.ValueAt(settings, "hooks", "PreToolUse")
	require.True(t, ok, "%s", settings)
	assert.Contains(t, string(pre), `"matcher": "Bash"`)
	assert.Contains(t, string(pre), `"onFailure": "block"`)
	assert.Contains(t, string(pre), `"timeout": 5`)
	assert.Contains(t, string(pre), `"type": "command"`)
	assert.Contains(t, string(pre), `CLAUDETEST_HELPER=hooktap `+clientrun.ShellQuote(r.f.Exe))
	assert.Contains(t, string(pre), `'guard it' '/bin/guard it' '-x'`, "name, then the argv, each quoted")
	post, _ := clientrun.ValueAt(settings, "hooks", "PostToolUse")
	assert.Contains(t, string(post), `"url": "http://127.0.0.1:1/hook"`)
	assert.Contains(t, string(post), `"type": "http"`)
	assert.NotContains(t, string(post), `"matcher"`, "no matcher: every tool")
	stop, _ := clientrun.ValueAt(settings, "hooks", "Stop")
	assert.Contains(t, string(stop), `'record'`, "a hook without command records")
	assert.Contains(t, string(stop), `"timeout": 7`, "a timeout in Options is kept")
	assert.Contains(t, string(stop), `"type": "command"`, "Options cannot change the type")
	allow, _ := clientrun.ValueAt(settings, "permissions", "allow")
	assert.Equal(t, `["Bash","Read","Write","Edit","mcp__probe__listen_here"]`, compact(t, allow))
	env, _ := clientrun.ValueAt(settings, "env")
	assert.Equal(t, `{"A":"1"}`, compact(t, env))

	mcp, err := os.ReadFile(filepath.Join(r.Dir, "mcp.json"))
	require.NoError(t, err)
	srv, ok := clientrun.ValueAt(mcp, "mcpServers", "probe")
	require.True(t, ok, "%s", mcp)
	assert.Contains(t, compact(t, srv), `"env":{"CLAUDETEST_HELPER":"mcpprobe"}`)
	trust, err := os.ReadFile(filepath.Join(r.Home, ".claude.json"))
	require.NoError(t, err)
	v, ok := clientrun.ValueAt(trust, "projects")
	require.True(t, ok)
	assert.Contains(t, compact(t, v), `"hasTrustDialogAccepted":true`)

	// An empty, non-nil Allow allows nothing.
	s.Allow = []string{}
	require.NoError(t, r.writeConfig(s, []string{"", "", ""}))
	settings, _ = os.ReadFile(filepath.Join(r.Project, ".claude", "settings.json"))
	allow, _ = clientrun.ValueAt(settings, "permissions", "allow")
	assert.Equal(t, `[]`, compact(t, allow))
}

func compact(t *testing.T, v jsontext.Value) string {
	t.Helper()
	v = v.Clone()
	require.NoError(t, v.Compact())
	return string(v)
}

func TestHookNames(t *testing.T) {
	assert.Equal(t, "guard", Hook{Command: []string{"/x/y/guard", "-a"}}.name())
	assert.Equal(t, "guard.exe", Hook{Command: []string{`C:\x\guard.exe`}}.name())
	assert.Equal(t, "http", Hook{Handler: http.NotFoundHandler()}.name())
	assert.Equal(t, "record", Hook{}.name())
	assert.Equal(t, "mine", Hook{Name: "mine", Command: []string{"/x/guard"}}.name())
}

// TestTheRecorderIsTheTestBinary runs the test binary as Claude Code runs
// a command hook under test, and reads the record back.
func TestTheRecorderIsTheTestBinary(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	dir := t.TempDir()
	in := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_claudetest_1","tool_input":{"command":"\ud800"}}` + "\n"
	cmd := exec.Command("sh", "-c", envHelper+"=hooktap "+clientrun.ShellQuote(exe)+" "+clientrun.ShellQuote(dir)+" guard sh -c 'cat; echo no >&2; env | grep -c "+envHelper+"; exit 2'")
	cmd.Stdin = strings.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, 2, ee.ExitCode())
	assert.Equal(t, in+"0\n", out.String(), "stdout passed through; the hook does not see the helper switch")
	assert.Equal(t, "no\n", errb.String())

	runs, err := readHookRuns(dir)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	h := runs[0]
	assert.Equal(t, HookRun{Seq: 1, Name: "guard", Event: "PreToolUse", Tool: "Bash", ToolUseID: "toolu_claudetest_1",
		In: []byte(in), Out: []byte(in + "0\n"), Err: []byte("no\n"), Code: 2}, h)
	cmdv, ok := h.Input("tool_input", "command")
	assert.True(t, ok)
	assert.Equal(t, `"\ud800"`, string(cmdv), "raw bytes kept")

	// A run that never finished (killed at its timeout) reads as Code -1.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2.in"), []byte(`{"hook_event_name":"Stop"}`), 0o644))
	runs, err = readHookRuns(dir)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	assert.Equal(t, -1, runs[1].Code)
	assert.Equal(t, "Stop", runs[1].Event)
}

func TestHTTPTapRecords(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(&clientrun.HTTPTap{Dir: dir, Name: "web", Next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := readAllString(r)
		if strings.Contains(b, "PANIC") {
			panic("on purpose")
		}
		w.Write([]byte(`{"decision":"block","reason":"seen ` + strconv.Itoa(len(b)) + ` bytes"}`))
	})})
	defer srv.Close()
	for _, body := range []string{`{"hook_event_name":"Stop"}`, `{"hook_event_name":"Stop","x":"PANIC"}`} {
		resp, err := http.Post(srv.URL+"/hook", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		resp.Body.Close()
	}
	runs, err := readHookRuns(dir)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	assert.True(t, runs[0].HTTP)
	assert.Equal(t, 200, runs[0].Code)
	assert.Equal(t, "web", runs[0].Name)
	assert.Equal(t, `{"decision":"block","reason":"seen 26 bytes"}`, string(runs[0].Out))
	assert.Equal(t, `{"hook_event_name":"Stop"}`, string(runs[0].In), "the body as sent")
	assert.Equal(t, 500, runs[1].Code, "a panicking handler")
	assert.Contains(t, string(runs[1].Err), "on purpose")
}

func readAllString(r *http.Request) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r.Body)
	return b.String(), err
}

func TestReadProbesMatchesCalls(t *testing.T) {
	api, err := clientrun.StartFakeAPI(clientrun.Script{}, nil)
	require.NoError(t, err)
	defer api.Close()
	dir := t.TempDir()
	r := &run{Result: &Result{Dir: dir}, f: clientrun.Folder{Dir: dir}, api: api, mcp: []MCPServer{{Name: "p"}},
		calls: []clientrun.Call{clientrun.Call(MCP("p", "a", `{"n":1}`)), clientrun.Call(Bash("ls")), clientrun.Call(MCP("p", "a", `{"n":2}`)), clientrun.Call(MCP("p", "b", `{}`))}}
	log := `{"name":"a","arguments":{"n":2},"tool_use_id":"toolu_claudetest_3"}` + "\n" +
		`{"name":"a","arguments":{"n":1 },"tool_use_id":"toolu_claudetest_1"}` + "\n" +
		`{"name":"b","arguments":{}}` + "\n"
	require.NoError(t, os.WriteFile(r.f.ProbeLog("p"), []byte(log), 0o644))
	got, err := r.readProbes()
	require.NoError(t, err)
	assert.Equal(t, `{"n":1 }`, string(got["toolu_claudetest_1"].Arguments), "by id, bytes kept")
	assert.Equal(t, `{"n":2}`, string(got["toolu_claudetest_3"].Arguments))
	assert.Equal(t, "b", got["toolu_claudetest_4"].Tool, "without an id: in order")
	assert.Nil(t, got["toolu_claudetest_2"])
	assert.Len(t, r.MCPCalls, 3)
}

func TestRunDirsUnderWorkAreOnePerRun(t *testing.T) {
	work := t.TempDir()
	t.Setenv(envWork, work)
	a, err := harness.RunDir(t)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(a, "keep"), nil, 0o644))
	b, err := harness.RunDir(t)
	require.NoError(t, err)
	assert.NotEqual(t, a, b, "a test's second run gets a folder of its own")
	_, err = os.Stat(filepath.Join(a, "keep"))
	assert.NoError(t, err, "the first run's folder is kept")
	assert.Equal(t, filepath.Join(work, "TestRunDirsUnderWorkAreOnePerRun"), a)
}

func TestPrepareTakesARelativeCommandInTheTestsFolder(t *testing.T) {
	s := Session{Hooks: []Hook{{Event: "Stop", Command: []string{"./testdata/hook.sh", "rel/arg"}}, {Event: "Stop", Command: []string{"sh", "-c", "true"}}}}
	r, err := prepare(t, s)
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(wd, "testdata", "hook.sh"), "rel/arg"}, r.hooks[0].Command)
	assert.Equal(t, []string{"sh", "-c", "true"}, r.hooks[1].Command, "a command found in PATH stays")
	assert.Equal(t, "./testdata/hook.sh", s.Hooks[0].Command[0], "the caller's Session is not changed")
	assert.Equal(t, "hook.sh", r.hooks[0].name())
}

// TestInterruptWhenMustBeANewProjectFile: InterruptWhen names a file
// inside the project that Files does not create.
func TestInterruptWhenMustBeANewProjectFile(t *testing.T) {
	for _, c := range []struct {
		s    Session
		want string
	}{
		{Session{InterruptWhen: "../x"}, `Session.InterruptWhen: "../x" is not a path inside the project`},
		{Session{InterruptWhen: "a.txt", Files: map[string]string{"a.txt": ""}}, "the turn would be interrupted at once"},
	} {
		_, err := prepare(t, c.s)
		assert.ErrorContains(t, err, c.want)
	}
	r, err := prepare(t, Session{InterruptWhen: "sub/started"})
	require.NoError(t, err)
	assert.True(t, r.stream)
	assert.Equal(t, filepath.Join(r.Project, "sub", "started"), r.interrupt)
}
