// The project's end-to-end tests: the example hooks and the library's
// claims, checked inside the real Claude Code CLI with package claudetest,
// their first user. This folder holds tests only; the hooks that exist
// only for them are under testdata/.
//
// The tests are skipped unless asked for:
//
//	HOOK_E2E=1 go test ./e2e/
//
// See package claudetest for what a run does, the environment variables
// and what stays on the machine.

package e2e_test

import (
	"os"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/codextest"
	"github.com/gohooks/hook/internal/jsonopts"
)

// TestMain installs Codex (codextest.Client), the GitHub Copilot CLI
// (copilotClient) and Claude Code if needed
// and runs the tests in a network namespace that has only loopback where
// it can (claudetest.Main); it removes the hooks built for the old-style
// helpers afterwards. A Codex that cannot be installed is each Codex
// test's skip.
func TestMain(m *testing.M) {
	if os.Getenv("HOOK_E2E") == "1" {
		codextest.Client(os.Stderr)
		copilotClient(os.Stderr)
	}
	code := claudetest.Main(m)
	removeBuiltHooks()
	os.Exit(code)
}

// str decodes a raw JSON string.
func str(t *testing.T, raw jsontext.Value) string {
	t.Helper()
	var s string
	require.NoError(t, json.Unmarshal(raw, &s, jsonopts.Lenient()), "%s", raw)
	return s
}

// field returns the raw value at the member path names of obj, failing the
// test when it is missing.
func field(t *testing.T, obj []byte, names ...string) jsontext.Value {
	t.Helper()
	v, ok := Path(obj, names...)
	require.True(t, ok, "member %v of %s", names, obj)
	return v
}

// input returns the raw value at the member path names of a hook run's
// payload, failing the test when it is missing.
func input(t *testing.T, h claudetest.HookRun, names ...string) jsontext.Value {
	t.Helper()
	v, ok := h.Input(names...)
	require.True(t, ok, "member %v of the payload %s", names, h.In)
	return v
}

// output returns the raw value at the member path names of a hook run's
// answer, failing the test when it is missing.
func output(t *testing.T, h claudetest.HookRun, names ...string) jsontext.Value {
	t.Helper()
	v, ok := h.Output(names...)
	require.True(t, ok, "member %v of the answer %s (stderr %s)", names, h.Out, h.Err)
	return v
}

// told returns what the model was told about the n-th call, failing the
// test when it was told nothing.
func told(t *testing.T, r *claudetest.Result, n int) *claudetest.ToolResult {
	t.Helper()
	res := r.Call(n).Result
	require.NotNil(t, res, "tool_result of call %d", n)
	return res
}

// hookRuns returns the runs of the hook name for event, requiring n of
// them.
func hookRuns(t *testing.T, r *claudetest.Result, name, event string, n int) []claudetest.HookRun {
	t.Helper()
	hs := r.HooksOf(name, event)
	require.Len(t, hs, n, "%s runs of %s; hooks that ran: %v", event, name, r.Events())
	return hs
}
