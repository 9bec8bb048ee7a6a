package hooktest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// TestNoOpRewriteIsNoUpdate: an updatedInput that holds the tool_input it
// was given updates nothing, and the report counts it so, whether the
// hook is a Go handler (the same bytes) or a program in another language
// (the same value as Claude Code reads it).
func TestNoOpRewriteIsNoUpdate(t *testing.T) {
	opts := hooktest.Options{
		Fixtures: []hooktest.Fixture{{Name: "bash", Event: hook.EventPreToolUse, JSON: hooktest.Payload("pretooluse-bash")}},
		Values:   values(t, "quote", "non-ASCII", "big integer", "lone high surrogate escape"),
	}

	t.Run("handler", func(t *testing.T) {
		same := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: e.ToolInput}, nil
		})
		rep := hooktest.CheckHandler(t, same, &opts)
		assert.Empty(t, rep.Failures)
		assert.Equal(t, rep.Cases, rep.Answered)
		assert.Zero(t, rep.Updates, "the input itself is no update")
	})
	t.Run("python", func(t *testing.T) {
		needs(t, "python3")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		c := &hooktest.Command{Path: "python3", Args: []string{"testdata/echo.py"}}
		par := opts
		par.Parallel = 2
		rep := hooktest.CheckCommand(t, ctx, c, &par)
		assert.Empty(t, rep.Failures)
		assert.Zero(t, rep.Updates)
		assert.Equal(t, rep.Cases, rep.NoOpUpdates, "json.dumps respells, yet every value is the same for Claude Code")

		// Judged byte for byte, a respelled value is a change: those
		// answers are updates (and failures).
		rec := &recordingTB{TB: t}
		par.Exact = true
		exact := hooktest.CheckCommand(rec, ctx, c, &par)
		assert.Positive(t, exact.Updates)
		assert.Positive(t, exact.NoOpUpdates, "the cases without a value json.dumps respells")
		assert.Equal(t, exact.Cases, exact.Updates+exact.NoOpUpdates)
	})
	t.Run("a real update", func(t *testing.T) {
		rep := hooktest.CheckHandler(t, goodHook(), &opts)
		assert.Equal(t, rep.Cases, rep.Updates)
		assert.Zero(t, rep.NoOpUpdates)
	})
}

// TestChangeNamesTheOption: a hook that changes a member in a way that
// depends on the input fails, and the failure names hooktest.Options.Changes;
// with it, the run passes.
func TestChangeNamesTheOption(t *testing.T) {
	prefix := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		var in struct {
			Command string `json:"command"`
		}
		if err := json.Unmarshal(e.ToolInput, &in); err != nil {
			return nil, nil // not a string: left alone
		}
		upd, err := e.Merge(map[string]string{"command": "timeout 600 " + in.Command})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	opts := hooktest.Options{
		Fixtures: []hooktest.Fixture{{Name: "bash", Event: hook.EventPreToolUse, JSON: hooktest.Payload("pretooluse-bash")}},
		Values:   values(t, "quote", "title"),
	}

	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, prefix, &opts)
	require.NotEmpty(t, rep.Failures)
	first := rep.Failures[0]
	assert.Equal(t, "", first.Value, "the unchanged fixture")
	assert.Contains(t, first.Error(), `/hookSpecificOutput/updatedInput/command: member changed from "npm test -- --runInBand" to "timeout 600 npm test -- --runInBand"; if the hook changes it on purpose, declare it in hooktest.Options.Changes: "command"`)
	assert.Contains(t, strings.Join(rec.errors, "\n"), `hooktest.Options.Changes: "command"`)
	for _, f := range rep.Failures {
		if f.Member == "command" {
			// The value it mangles is the one it holds: no hint there.
			assert.NotContains(t, f.Error(), "hooktest.Options.Changes", f.Where())
		}
	}

	opts.Changes = []string{"command"}
	rep = hooktest.CheckHandler(t, prefix, &opts)
	assert.Empty(t, rep.Failures)
	assert.Equal(t, rep.Cases, rep.Updates)
}

// TestRecorderUpdatedToolOutput: a PostToolUse answer's replacement of the
// tool's output is decoded, the legacy MCP field when it is the one given
// and Claude Code would not ignore it.
func TestRecorderUpdatedToolOutput(t *testing.T) {
	needs(t, "sh")
	in := hooktest.Payload("posttooluse-bash")
	for stdout, want := range map[string]string{
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"ok"}}}`:                `{"stdout":"ok"}`,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"a","updatedMCPToolOutput":"b"}}`: `"a"`,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[1]}}`:                         `[1]`,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":""}}`:                          ``,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":0e5}}`:                         ``,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":false}}`:                       ``,
		`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}`:                            ``,
	} {
		r := recordStdout(t, in, stdout)
		assert.Equal(t, want, string(r.UpdatedToolOutput), stdout)
	}
}

// recordStdout returns the Recorder of a program that answered stdout.
func recordStdout(t *testing.T, in []byte, stdout string) *hooktest.Recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r, err := (&hooktest.Command{Path: "sh", Args: []string{"-c", `cat >/dev/null; printf '%s\n' "$1"`, "hook", stdout}}).Run(ctx, in)
	require.NoError(t, err)
	require.Equal(t, stdout+"\n", string(r.Stdout))
	return r
}
