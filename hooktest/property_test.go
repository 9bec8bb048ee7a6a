package hooktest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func fingerprint(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:8])
}

// goodHook adds a fingerprint to every tool call with hook.Merge, on
// PreToolUse and PermissionRequest.
func goodHook() hook.Handler {
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
	m.Handle(hook.EventPermissionRequest, hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		if err != nil {
			return nil, err
		}
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
	return m
}

func TestGoodHookPassesTheFullPropertyRun(t *testing.T) {
	start := time.Now()
	// The fingerprint is the hook's own: one value whatever the model
	// sent, which only the author can tell from the seed bug.
	rep := hooktest.CheckHandler(t, goodHook(), &hooktest.Options{Changes: []string{"fingerprint"}})
	t.Logf("%d fixtures, %d cases, %d updates in %v", rep.Fixtures, rep.Cases, rep.Updates, time.Since(start))
	assert.Empty(t, rep.Failures)
	assert.GreaterOrEqual(t, rep.Fixtures, 40)
	assert.Equal(t, rep.Cases, rep.Updates+rep.Silent, "the hook answers updatedInput to every PreToolUse and PermissionRequest case, nothing to the PostToolUse ones")
	assert.Greater(t, rep.Updates, 5000)
}

// mapHook is the known-bad hook that adds its fingerprint by round-tripping
// tool_input through map[string]any (with the standard encoding/json).
func mapHook() hook.Handler {
	return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		var m map[string]any
		if err := json.Unmarshal(e.ToolInput, &m); err != nil {
			return nil, err
		}
		m["fingerprint"] = fingerprint(e.Cwd)
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: b}, nil
	})
}

// recordingTB records what a check reports instead of failing the test.
type recordingTB struct {
	testing.TB
	errors []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }

func TestPropertyRunCatchesMapRoundTrip(t *testing.T) {
	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, mapHook(), &hooktest.Options{MaxReported: 3})
	require.NotEmpty(t, rep.Failures)
	require.Len(t, rec.errors, 4, "3 failures one by one, then a summary")
	assert.Contains(t, rec.errors[3], "more failures of")
	assert.Contains(t, rec.errors[3], "× "+hooktest.RuleKeep)

	// Each way the round trip breaks a value is reported with the fixture,
	// the member, the value and the JSON pointer.
	find := func(fixture, value, member string) *hooktest.Failure {
		t.Helper()
		for _, f := range rep.Failures {
			if f.Fixture == fixture && f.Value == value && f.Member == member {
				return f
			}
		}
		require.Failf(t, "no failure", "%s / %s / %s", fixture, value, member)
		return nil
	}
	f := find("pretooluse-bash", "big integer", "timeout")
	assert.Equal(t, "pretooluse-bash with big integer in /tool_input/timeout:\n"+
		"\t/hookSpecificOutput/updatedInput/timeout: member rewritten from 12345678901234567890 to 12345678901234567000 (a hook must keep every tool_input member it did not change)", f.Error())
	f = find("pretooluse-bash", "trailing zero", "description")
	assert.Contains(t, f.Error(), "/hookSpecificOutput/updatedInput/description: member rewritten from 2.50 to 2.5")
	f = find("pretooluse-bash", "unicode escape of ö", "command")
	assert.Contains(t, f.Error(), `/hookSpecificOutput/updatedInput/command: member rewritten from "K\u00f6ln" to "Köln"`)
	f = find("pretooluse-bash", "lone high surrogate escape", "command")
	assert.Contains(t, f.Error(), "member rewritten from \"\\ud800\" to \"\ufffd\"")
	f = find("pretooluse-bash", "title", hooktest.AddedMember)
	assert.True(t, f.Added)
	assert.Contains(t, f.Error(), "pretooluse-bash with title added as /tool_input/hooktest_added:")
	assert.Contains(t, f.Error(), "/hookSpecificOutput/updatedInput/timeout: member moved", "encoding/json sorts the members")
	f = find("pretooluse-bash", "nested object", "command")
	assert.Contains(t, f.Error(), `member rewritten from {"b":2,"a":{"z":[1,"two",{"c":2.50}]}} to {"a":{"z":[1,"two",{"c":2.5}]},"b":2}`)

	// A value encoding/json cannot decode makes the hook fail: exit 1 is
	// no failure on a tricky value.
	for _, f := range rep.Failures {
		assert.NotEqual(t, "overflowing float", f.Value, f.Error())
	}
}

func TestPropertyRunCatchesAPartialAnswer(t *testing.T) {
	// In-process, the library refuses the seed bug (exit 1); the property
	// run reports that the hook fails on what Claude Code sends.
	partial := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"fingerprint":"` + fingerprint(e.Cwd) + `"}`)}, nil
	})
	fs := []hooktest.Fixture{}
	for _, f := range hooktest.Fixtures() {
		if f.Name == "captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1" {
			fs = append(fs, f)
		}
	}
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(partial, p), nil },
		&hooktest.Options{Fixtures: fs, Values: hooktest.RoomNames()})
	// The library refuses the answer in every case, and the report says
	// so with its whole message.
	require.Len(t, rep.Failures, rep.Cases)
	f := rep.Failures[0]
	assert.Equal(t, "", f.Value)
	assert.Equal(t, 1, f.Result.Code)
	assert.Contains(t, f.Error(), "captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1 (unchanged):")
	assert.Contains(t, f.Error(), "hook: invalid answer to PreToolUse: updatedInput is partial: it lacks /room of the incoming tool_input")
	assert.Contains(t, f.Error(), "("+hooktest.RuleRefused+")")
	for _, f := range rep.Failures {
		assert.Contains(t, f.Error(), "("+hooktest.RuleRefused+")")
	}
	assert.Equal(t, rep.Cases, rep.Answered, "exit 1 is an answer")
	assert.Zero(t, rep.Updates)
	assert.Equal(t, 1+2*7+1, rep.Cases, "one room member and the added one, seven values each, the unchanged fixture, and the unusual names")
	// Each refusal exits 1: Claude Code went on as if there were no hook,
	// and the summary says so for every run.
	require.Len(t, rep.FailedOpen, rep.Cases)
	assert.Contains(t, rep.FailedOpen[0], "(unchanged): exit code 1: hook: invalid answer to PreToolUse")
}

// prefixHook changes the Bash command in a way that depends on the input.
func prefixHook() hook.Handler {
	return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != "Bash" {
			return nil, nil
		}
		upd, err := hook.Edit(e.ToolInput, func(in *hook.BashInput) error {
			in.Command = "timeout 600 " + in.Command
			return nil
		})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
}

func TestPropertyRunChanges(t *testing.T) {
	run := func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(prefixHook(), p), nil }
	fs := []hooktest.Fixture{}
	for _, f := range hooktest.Fixtures() {
		if strings.HasPrefix(f.Name, "pretooluse-bash") {
			fs = append(fs, f)
		}
	}
	rep := hooktest.RunProperty(run, &hooktest.Options{Fixtures: fs})
	require.NotEmpty(t, rep.Failures, "without Changes, a new command for a new input looks like a broken member")
	for _, f := range rep.Failures {
		for _, v := range f.Err.(interface{ Unwrap() []error }).Unwrap() {
			assert.Equal(t, "/hookSpecificOutput/updatedInput/command", v.(*hooktest.Violation).Pointer, f.Error())
		}
		assert.Contains(t, f.Error(), "/hookSpecificOutput/updatedInput/command: member changed from")
	}
	rep = hooktest.RunProperty(run, &hooktest.Options{Fixtures: fs, Changes: []string{"command"}})
	assert.Empty(t, rep.Failures)
	assert.Positive(t, rep.Updates)
}

func TestPropertyRunRemoves(t *testing.T) {
	dropper := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Remove(e.ToolInput, "description")
		if err != nil {
			return nil, err
		}
		if upd, err = hook.Merge(upd, map[string]bool{"run_in_background": false}); err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{UpdatedInput: upd, Removed: []string{"description"}}, nil
	})
	fs := []hooktest.Fixture{{Name: "bash", Event: "PreToolUse", JSON: hooktest.Payload("pretooluse-bash")}}
	run := func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(dropper, p), nil }
	// Record sees the answer's Removed: the removal is deliberate.
	rep := hooktest.RunProperty(run, &hooktest.Options{Fixtures: fs})
	assert.Empty(t, rep.Failures, "%v", rep.Err())
	assert.Equal(t, rep.Cases, rep.Updates)

	// A program's stdout does not say what it removed: the same answer,
	// judged without Removed, loses the member until Removes names it.
	noRemoved := func(p []byte) (*hooktest.Recorder, error) {
		r := hooktest.Record(dropper, p)
		r.Removed = nil
		return r, nil
	}
	rep = hooktest.RunProperty(noRemoved, &hooktest.Options{Fixtures: fs})
	require.NotEmpty(t, rep.Failures)
	assert.Contains(t, rep.Failures[0].Error(), "/hookSpecificOutput/updatedInput/description: member lost")
	rep = hooktest.RunProperty(noRemoved, &hooktest.Options{Fixtures: fs, Removes: []string{"description"}})
	assert.Empty(t, rep.Failures, "%v", rep.Err())
}
