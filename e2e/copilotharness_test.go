package e2e_test

// The real GitHub Copilot CLI as a test fixture: `copilot -p` headless in
// a fresh HOME against clientrun's fake chat-completions API on
// 127.0.0.1 (Copilot's "bring your own key" provider, COPILOT_OFFLINE=1,
// no account and no credential), with the hooks a test gives it in
// $HOME/.copilot/hooks/. Installed with npm (@github/copilot) into the
// user cache folder on first use, as codextest installs Codex:
// HOOK_E2E=1 runs it, HOOK_E2E_COPILOT_BIN names another copilot,
// HOOK_E2E_COPILOT_CACHE another install folder. TestMain installs it
// before the tests move into a network namespace that has only loopback,
// where npm cannot run.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/npminstall"
)

// copilotModel is the model name the runs ask the fake API for.
const copilotModel = "gpt-4.1"

var (
	copilotOnce sync.Once
	copilotBin  string
	copilotErr  error
)

// copilotClient returns the copilot executable, installing
// agent.CopilotVersion with npm into the user cache folder when it is
// not there; npm's output goes to log. Only the first call installs.
func copilotClient(log io.Writer) (string, error) {
	copilotOnce.Do(func() {
		if b := os.Getenv("HOOK_E2E_COPILOT_BIN"); b != "" {
			copilotBin = b
			return
		}
		dir := os.Getenv("HOOK_E2E_COPILOT_CACHE")
		if dir == "" {
			c, err := os.UserCacheDir()
			if err != nil {
				copilotErr = fmt.Errorf("no user cache folder (set HOOK_E2E_COPILOT_CACHE): %v", err)
				return
			}
			dir = filepath.Join(c, "gohooks-e2e", "copilot", agent.CopilotVersion)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		copilotBin, copilotErr = npminstall.Install(ctx, dir, "@github/copilot@"+agent.CopilotVersion, log, findCopilot)
	})
	return copilotBin, copilotErr
}

// findCopilot returns the copilot of an npm install in dir: the platform
// package's native binary, else npm's launcher, the first that answers
// --version.
func findCopilot(dir string) (string, bool) {
	exe := "copilot"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	cands, _ := filepath.Glob(filepath.Join(dir, "node_modules", "@github", "copilot-*", exe))
	launcher := filepath.Join(dir, "node_modules", ".bin", "copilot")
	if runtime.GOOS == "windows" {
		launcher += ".cmd"
	}
	for _, c := range append(cands, launcher) {
		if exec.Command(c, "--version").Run() == nil {
			return c, true
		}
	}
	return "", false
}

// needCopilot skips t unless HOOK_E2E=1 and Copilot can run here (a skip
// fails the CI step), and returns the copilot executable.
func needCopilot(t *testing.T) string {
	t.Helper()
	if os.Getenv("HOOK_E2E") != "1" {
		t.Skip("copilot: set HOOK_E2E=1 to run the real GitHub Copilot CLI")
	}
	bin, err := copilotClient(io.Discard)
	if err != nil {
		t.Skipf("copilot: GitHub Copilot CLI %s cannot be run here: %v", agent.CopilotVersion, err)
	}
	return bin
}

// copilotRun is what one `copilot -p` run left behind.
type copilotRun struct {
	Home, Project  string
	Stdout, Stderr string
	API            *clientrun.FakeChat
}

// runCopilot runs Copilot once, headless, in a fresh HOME and project
// folder, with hooks (a hooks file in Copilot's format, "" for none)
// installed as $HOME/.copilot/hooks/hooks.json, against a fake model that
// plays script; setup, if given, runs once HOME and the project folder
// exist, before copilot starts. It fails t when the run cannot be set
// up, does not finish in two minutes or exits non-zero, when the model
// made none of the script's calls, or when anything tried to reach
// another host.
func runCopilot(t *testing.T, bin string, script clientrun.Script, hooks string, setup ...func(home, project string)) *copilotRun {
	t.Helper()
	return runCopilotWith(t, bin, []string{"--allow-all"}, script, hooks, setup...)
}

// runCopilotWith is runCopilot with perms, the permission flags, in place
// of --allow-all.
func runCopilotWith(t *testing.T, bin string, perms []string, script clientrun.Script, hooks string, setup ...func(home, project string)) *copilotRun {
	t.Helper()
	root := t.TempDir()
	r := &copilotRun{Home: filepath.Join(root, "home"), Project: filepath.Join(root, "proj")}
	require.NoError(t, os.MkdirAll(filepath.Join(r.Home, ".copilot", "hooks"), 0o755))
	require.NoError(t, os.MkdirAll(r.Project, 0o755))
	if hooks != "" {
		require.NoError(t, os.WriteFile(filepath.Join(r.Home, ".copilot", "hooks", "hooks.json"), []byte(hooks), 0o644))
	}
	for _, f := range setup {
		f(r.Home, r.Project)
	}
	var log bytes.Buffer
	api, err := clientrun.StartFakeChat(script, &log)
	require.NoError(t, err)
	r.API = api
	defer api.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append([]string{"-p", "run the script"}, perms...), "--no-color")...)
	cmd.Dir = r.Project
	// A minimal environment: nothing of the user's (no token) reaches it.
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + r.Home,
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"COPILOT_PROVIDER_BASE_URL=" + api.URL + "/v1",
		"COPILOT_PROVIDER_API_KEY=fake",
		"COPILOT_MODEL=" + copilotModel,
		"COPILOT_OFFLINE=1",
		"COPILOT_AUTO_UPDATE=false",
		"NO_COLOR=1",
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("copilot stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
			for _, q := range api.Requests() {
				// The bodies repeat Copilot's long system prompt: the
				// end of each holds the conversation.
				b := q.Body
				if len(b) > 2000 {
					b = b[len(b)-2000:]
				}
				t.Logf("request %d (%s %s, %s): …%s", q.Seq, q.Method, q.Target, q.Answered, b)
			}
		}
	})
	require.NoError(t, runErr, "copilot -p")
	require.NotEmpty(t, api.MainRequests(), "the fake model was never asked")
	require.Empty(t, api.OutsideTries(), "tried to reach other hosts")
	return r
}

// copilotHooks returns a Copilot hooks file that runs command on event,
// in its PascalCase ("VS Code compatible") form.
func copilotHooks(t *testing.T, event string, command ...string) string {
	t.Helper()
	quoted := make([]string, len(command))
	for i, a := range command {
		quoted[i] = shellQuote(a)
	}
	b, err := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{event: []any{map[string]any{
		"type": "command", "bash": strings.Join(quoted, " "), "timeoutSec": 30}}}})
	require.NoError(t, err)
	return string(b)
}

// copilotShell is the fake model's call of Copilot's shell tool with cmd.
func copilotShell(t *testing.T, cmd string) clientrun.Call {
	t.Helper()
	b, err := json.Marshal(map[string]string{"command": cmd, "description": "run it"})
	require.NoError(t, err)
	return clientrun.Call{Tool: "bash", Input: string(b)}
}
