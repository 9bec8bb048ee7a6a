package e2e_test

// The real OpenAI Codex CLI as a test fixture: installed with npm into a
// cache folder (as claudetest does for Claude Code), run headless with
// `codex exec` in a fresh CODEX_HOME against testdata/codex/fake-responses.mjs
// on 127.0.0.1, with the hooks a test gives it.
//
// Environment, next to claudetest's:
//
//	HOOK_E2E=1                 run the tests (otherwise they are skipped)
//	HOOK_E2E_CODEX_BIN         a codex executable to use instead of installing
//	HOOK_E2E_CODEX_VERSION     the version to install (default agent.CodexVersion)
//	HOOK_E2E_CODEX_CACHE       the folder to install each version under (default <user cache>/gohooks-e2e/codex), in <version>
//
// TestMain installs it before claudetest.Main moves the tests into a
// network namespace that has only loopback, where npm cannot run.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/npminstall"
)

const (
	envCodexBin     = "HOOK_E2E_CODEX_BIN"
	envCodexVersion = "HOOK_E2E_CODEX_VERSION"
	envCodexCache   = "HOOK_E2E_CODEX_CACHE"
)

// codexUnavailable is why Codex cannot run here, set by ensureCodex.
var codexUnavailable error

// codexVersion returns the Codex version to install.
func codexVersion() string {
	if v := os.Getenv(envCodexVersion); v != "" {
		return v
	}
	return agent.CodexVersion
}

// codexDir returns the folder Codex is installed in, one per version.
func codexDir() (string, error) {
	if d := os.Getenv(envCodexCache); d != "" {
		d, err := filepath.Abs(d)
		return filepath.Join(d, codexVersion()), err
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache folder (set %s or %s): %w", envCodexCache, envCodexBin, err)
	}
	return filepath.Join(c, "gohooks-e2e", "codex", codexVersion()), nil
}

// codexInDir returns the codex launcher npm installed under dir.
func codexInDir(dir string) string {
	name := "codex"
	if os.PathSeparator == '\\' {
		name = "codex.cmd"
	}
	return filepath.Join(dir, "node_modules", ".bin", name)
}

// ensureCodex makes $HOOK_E2E_CODEX_BIN name a working codex, installing
// @openai/codex with npm when needed (npm's output goes to log). It does
// nothing unless HOOK_E2E=1. A failure is kept in codexUnavailable, and
// each Codex test skips with it.
func ensureCodex(log io.Writer) {
	if os.Getenv("HOOK_E2E") != "1" || os.Getenv(envCodexBin) != "" {
		return
	}
	bin, err := installCodex(log)
	if err != nil {
		codexUnavailable = err
		return
	}
	os.Setenv(envCodexBin, bin)
}

// installCodex installs codexVersion into codexDir unless it is there, and
// returns the launcher.
func installCodex(log io.Writer) (string, error) {
	dir, err := codexDir()
	if err != nil {
		return "", err
	}
	v := codexVersion()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	bin, err := npminstall.Install(ctx, dir, "@openai/codex@"+v, log, func(dir string) (string, bool) {
		bin := codexInDir(dir)
		return bin, codexWorks(bin, v)
	})
	if errors.Is(err, npminstall.ErrNoNpm) {
		return "", fmt.Errorf("%w (or set %s)", err, envCodexBin)
	}
	return bin, err
}

// codexWorks reports whether bin runs and says it is version v.
func codexWorks(bin, v string) bool {
	out, err := exec.Command(bin, "--version").Output()
	return err == nil && strings.TrimSpace(string(out)) == "codex-cli "+v
}

// needCodex skips t unless HOOK_E2E=1 and returns the codex to run;
// Codex that cannot run is one skip message naming why.
func needCodex(t *testing.T) string {
	t.Helper()
	if os.Getenv("HOOK_E2E") != "1" {
		t.Skip("end-to-end test: set HOOK_E2E=1 to run it with the real Codex CLI")
	}
	if codexUnavailable != nil {
		t.Skipf("codex cannot run here: %v", codexUnavailable)
	}
	bin := os.Getenv(envCodexBin)
	if bin == "" {
		t.Skip("codex cannot run here: TestMain did not install it")
	}
	return bin
}

// codexSession is one `codex exec` run: the model's turns (fake Responses
// API script items), the hooks.json to install in CODEX_HOME (none when
// empty), and Setup, run when CODEX_HOME (home, holding config.toml) and
// the project folder are made, before codex starts.
type codexSession struct {
	Turns []any
	Hooks string
	Setup func(home, project string)
	// CheckTrust runs codex without --dangerously-bypass-hook-trust:
	// only the hooks the user's config.toml trusts run.
	CheckTrust bool
}

// codexResult is what one run left behind.
type codexResult struct {
	Project  string
	Home     string
	Stdout   string
	Stderr   string
	Requests []codexRequest
}

// codexRequest is one request the fake Responses API received.
type codexRequest struct {
	N    int    `json:"n"`
	URL  string `json:"url"`
	Body string `json:"body"`
}

// codexCall is one function call of the model, as Codex reported it back
// (a function_call_output input item).
type codexInputItem struct {
	Type   string         `json:"type"`
	CallID string         `json:"call_id"`
	Output jsontext.Value `json:"output"`
}

// runCodex runs codex exec once with s, headless, against the fake
// Responses API, in a fresh project folder and CODEX_HOME.
func runCodex(t *testing.T, bin string, s codexSession) *codexResult {
	t.Helper()
	root := t.TempDir()
	r := &codexResult{Project: filepath.Join(root, "project"), Home: filepath.Join(root, "home")}
	require.NoError(t, os.MkdirAll(r.Project, 0o755))
	require.NoError(t, os.MkdirAll(r.Home, 0o755))

	script, err := json.Marshal(s.Turns)
	require.NoError(t, err)
	scriptFile, logFile := filepath.Join(root, "script.json"), filepath.Join(root, "requests.log")
	require.NoError(t, os.WriteFile(scriptFile, script, 0o644))
	port := startFakeResponses(t, scriptFile, logFile)

	config := fmt.Sprintf(`model = "fake-model"
model_provider = "fake"
[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:%s/v1"
wire_api = "responses"
[features]
hooks = true
`, port)
	require.NoError(t, os.WriteFile(filepath.Join(r.Home, "config.toml"), []byte(config), 0o644))
	if s.Hooks != "" {
		require.NoError(t, os.WriteFile(filepath.Join(r.Home, "hooks.json"), []byte(s.Hooks), 0o644))
	}
	if s.Setup != nil {
		s.Setup(r.Home, r.Project)
	}

	// A safety net for a hung client, not a speed target.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args := []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", "Run the commands."}
	if s.CheckTrust {
		args = slices.Delete(args, 2, 3)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.Project
	cmd.Env = append(os.Environ(), "CODEX_HOME="+r.Home, "HOME="+r.Home,
		"OPENAI_API_KEY=fake", "NO_COLOR=1", "RUST_LOG=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	require.NoError(t, err, "codex exec: stderr:\n%s", r.Stderr)

	b, err := os.ReadFile(logFile)
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var q codexRequest
		require.NoError(t, json.Unmarshal(line, &q, jsonopts.Lenient()), "%s", line)
		r.Requests = append(r.Requests, q)
	}
	return r
}

// startFakeResponses starts the fake Responses API and returns its port,
// read from its first line of output; it stops with the test.
func startFakeResponses(t *testing.T, script, log string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("codex cannot run here: no node for the fake Responses API")
	}
	cmd := exec.Command("node", filepath.Join("testdata", "codex", "fake-responses.mjs"), script, log)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		stdin.Close() // the server exits when its stdin closes
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "the fake Responses API printed no port")
	return strings.TrimSpace(line)
}

// toolOutput returns what Codex told the model about the call callID: the
// output of the function_call_output item of the last request that has
// one.
func (r *codexResult) toolOutput(t *testing.T, callID string) string {
	t.Helper()
	for i := len(r.Requests) - 1; i >= 0; i-- {
		var body struct {
			Input []codexInputItem `json:"input"`
		}
		if json.Unmarshal([]byte(r.Requests[i].Body), &body, jsonopts.Lenient()) != nil {
			continue
		}
		for _, it := range body.Input {
			if it.Type == "function_call_output" && it.CallID == callID {
				var s string
				if err := json.Unmarshal(it.Output, &s, jsonopts.Lenient()); err == nil {
					return s
				}
				return string(it.Output)
			}
		}
	}
	t.Fatalf("no function_call_output for %s in %d requests", callID, len(r.Requests))
	return ""
}

// hookStatuses returns the statuses Codex printed for its hook runs of
// event on stderr, in order: "Completed", "Blocked", "Failed", ….
func (r *codexResult) hookStatuses(event string) []string {
	var st []string
	prefix := "hook: " + event + " "
	for _, line := range strings.Split(r.Stderr, "\n") {
		if s, ok := strings.CutPrefix(line, prefix); ok {
			st = append(st, strings.Fields(s)[0])
		}
	}
	return st
}

// payloads returns the payloads codexhook logged to name, one per run.
func payloads(t *testing.T, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	require.NoError(t, err)
	return bytes.Split(bytes.TrimSpace(b), []byte("\n"))
}

// codexHooks returns a hooks.json running command for PreToolUse calls of
// Bash, in Claude Code's shape (Codex reads the same).
func codexHooks(t *testing.T, command ...string) string {
	t.Helper()
	return codexHooksFor(t, "PreToolUse", command...)
}

// codexHooksFor returns a hooks.json running command for event's calls of
// Bash.
func codexHooksFor(t *testing.T, event string, command ...string) string {
	t.Helper()
	quoted := make([]string, len(command))
	for i, a := range command {
		quoted[i] = shellQuote(a)
	}
	v := map[string]any{"hooks": map[string]any{event: []any{map[string]any{
		"matcher": "Bash",
		"hooks":   []any{map[string]any{"type": "command", "command": strings.Join(quoted, " ")}},
	}}}}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// execCommand is the model's call of Codex's shell tool.
func execCommand(cmd string) map[string]any {
	return map[string]any{"call": map[string]any{"exec_command": map[string]any{"cmd": cmd, "login": false}}}
}
