package e2e_test

// The real OpenAI Codex CLI as a test fixture, through package codextest:
// codex exec headless in a fresh CODEX_HOME against codextest's fake
// Responses API on 127.0.0.1, with the hooks a test gives it. This file
// keeps the e2e tests' own vocabulary (a raw hooks.json, turns written as
// the model's calls) and maps it onto codextest; codextest owns the
// installing, the environment and the runs (see its package doc for the
// variables: HOOK_E2E=1, HOOK_E2E_CODEX_BIN, HOOK_E2E_CODEX_VERSION,
// HOOK_E2E_CODEX_CACHE, …).
//
// TestMain installs Codex (codextest.Client) before claudetest.Main moves
// the tests into a network namespace that has only loopback, where npm
// cannot run.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/codextest"
)

// needCodex skips t unless HOOK_E2E=1 and Codex can run here, and returns
// the codex executable codextest runs.
func needCodex(t *testing.T) string {
	t.Helper()
	codextest.Need(t)
	bin, _, err := codextest.Client(io.Discard)
	require.NoError(t, err)
	return bin
}

// codexSession is one `codex exec` run: the model's turns, the hooks.json
// to install in CODEX_HOME (none when empty), and Setup, run when
// CODEX_HOME (home, holding config.toml) and the project folder are made,
// before codex starts.
//
// A turn is a codextest.Turn, a codextest.Call, or in the form of the
// node fake these tests once used, {"call": {NAME: ARGS}} (see
// [execCommand]) or {"say": TEXT}, which ends the script with TEXT.
type codexSession struct {
	Turns []any
	Hooks string
	Setup func(home, project string)
	// CheckTrust runs codex without --dangerously-bypass-hook-trust:
	// Codex runs only the hooks whose trust config.toml records.
	CheckTrust bool
}

// codexResult is what one run left behind: codextest's Result, with
// codex's output and the requests as text.
type codexResult struct {
	*codextest.Result
	Stdout   string
	Stderr   string
	Requests []codexRequest
}

// codexRequest is one request the fake Responses API received.
type codexRequest struct {
	N    int
	Body string
}

// session returns s as a codextest.Session.
func (s codexSession) session(t *testing.T) codextest.Session {
	t.Helper()
	cs := codextest.Session{CheckTrust: s.CheckTrust}
	for i, turn := range s.Turns {
		switch v := turn.(type) {
		case codextest.Turn:
			cs.Turns = append(cs.Turns, v)
		case codextest.Call:
			cs.Turns = append(cs.Turns, codextest.Turn{v})
		case map[string]any:
			if say, ok := v["say"].(string); ok {
				require.Equal(t, len(s.Turns)-1, i, "a say turn ends the script")
				cs.Final = say
				continue
			}
			call, ok := v["call"].(map[string]any)
			require.True(t, ok && len(call) == 1, "turn %d: %v", i, v)
			for name, args := range call {
				cs.Turns = append(cs.Turns, codextest.Turn{codextest.Tool(name, args)})
			}
		default:
			t.Fatalf("turn %d: %T is not a turn", i, turn)
		}
	}
	hooks, setup := s.Hooks, s.Setup
	cs.Setup = func(home, project string) error {
		if hooks != "" {
			if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(hooks), 0o644); err != nil {
				return err
			}
		}
		if setup != nil {
			setup(home, project)
		}
		return nil
	}
	return cs
}

// runCodex runs codex exec once with s, headless, against the fake
// Responses API, in a fresh project folder and CODEX_HOME. bin is what
// needCodex returned (codextest runs it).
func runCodex(t *testing.T, bin string, s codexSession) *codexResult {
	t.Helper()
	r := codextest.Run(t, s.session(t))
	cr := &codexResult{Result: r, Stdout: string(r.Stdout), Stderr: string(r.Stderr)}
	for i, b := range r.Requests {
		cr.Requests = append(cr.Requests, codexRequest{N: i + 1, Body: string(b)})
	}
	return cr
}

// toolOutput returns what Codex told the model about the call callID.
func (r *codexResult) toolOutput(t *testing.T, callID string) string {
	t.Helper()
	for _, c := range r.Calls {
		if c.ID == callID && c.Result != nil {
			return c.Result.Text
		}
	}
	t.Fatalf("no function_call_output for %s in %d requests", callID, len(r.Requests))
	return ""
}

// hookStatuses returns the statuses Codex printed for its hook runs of
// event on stderr, in order: "Completed", "Blocked", "Failed", ….
func (r *codexResult) hookStatuses(event string) []string {
	return r.HookStatuses(event)
}

// payloads returns the payloads shellhook logged to name, one per run.
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
func execCommand(cmd string) codextest.Call { return codextest.Bash(cmd) }
