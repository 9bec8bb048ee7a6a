package hooktest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// aisleHook is the seed's hook for mcp__aisle__listen_here: it answers
// only that tool, with upd(e) as its updatedInput.
func aisleHook(upd func(e *hook.PreToolUse) (jsontext.Value, error)) hook.Handler {
	return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != "mcp__aisle__listen_here" {
			return nil, nil
		}
		u, err := upd(e)
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: u}, nil
	})
}

const aisleInput = `{"room":"Quarterly Planning","seats":12,"floor":"3"}`

func TestPropertyRunThatAnswersNothingFails(t *testing.T) {
	good := aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
	})
	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, good, nil)
	assert.Positive(t, rep.Cases)
	assert.Zero(t, rep.Answered)
	assert.Equal(t, rep.Cases, rep.Silent)
	require.Len(t, rec.errors, 1, "one failure: the run tested nothing")
	assert.Contains(t, rec.errors[0], "the hook answered none of the")
	assert.Contains(t, rec.errors[0], "hooktest.Options.Tools")
	assert.Contains(t, rec.errors[0], "("+hooktest.RuleAnswers+")")
	require.Error(t, rep.Err())
	defaults := rep.Fixtures

	// Pointed at its tool, the good hook passes.
	rec = &recordingTB{TB: t}
	rep = hooktest.CheckHandler(rec, good, &hooktest.Options{Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}})
	assert.Empty(t, rec.errors)
	assert.Equal(t, 2, rep.Fixtures-defaults, "Options.Tools adds a PreToolUse and a PermissionRequest payload")
	n := 1 + 4*len(hooktest.TrickyValues()) + 1 // unchanged, three members and the added one, the unusual names
	assert.Equal(t, n, rep.Answered, "the PreToolUse payload of the tool is answered, the PermissionRequest one not")
	assert.Equal(t, n, rep.Updates)
	assert.Equal(t, rep.Cases-n, rep.Silent)
	assert.Zero(t, rep.Blocked)
}

func TestPropertyRunWithNoFixtureFails(t *testing.T) {
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(goodHook(), p), nil },
		&hooktest.Options{Fixtures: []hooktest.Fixture{{Name: "stop", Event: "Stop", JSON: hooktest.Payload("stop")}}})
	require.Len(t, rep.Failures, 1)
	assert.Contains(t, rep.Failures[0].Error(), "the property run:\n\tno fixture is a PreToolUse or PermissionRequest payload")
}

func TestOneFieldUpdateForAnMCPToolFails(t *testing.T) {
	oneField := aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return jsontext.Value(`{"fingerprint":"` + fingerprint(e.Cwd) + `"}`), nil
	})
	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, oneField, &hooktest.Options{Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}, Values: hooktest.RoomNames()})
	require.NotEmpty(t, rep.Failures)
	f := rep.Failures[0]
	assert.Equal(t, "pretooluse mcp__aisle__listen_here", f.Fixture)
	assert.Contains(t, f.Error(), "updatedInput is partial: it lacks /room, /seats, /floor")
	assert.Contains(t, f.Error(), hooktest.RuleRefused)
	assert.NotEmpty(t, rec.errors)

	// The same answer from a program that does not use the library is
	// lost members, by JSON pointer.
	run := func(p []byte) (*hooktest.Recorder, error) {
		ev, _ := hooktest.Field(p, "hook_event_name")
		tool, _ := hooktest.Field(p, "tool_name")
		if string(ev) != `"PreToolUse"` || string(tool) != `"mcp__aisle__listen_here"` {
			return hooktest.Record(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil }), p), nil
		}
		return fakeProgram(p, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"x"}}}`), nil
	}
	rep = hooktest.RunProperty(run, &hooktest.Options{Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}, Values: hooktest.RoomNames()[:1]})
	require.NotEmpty(t, rep.Failures)
	assert.Equal(t, "pretooluse mcp__aisle__listen_here (unchanged):\n"+
		"\t/hookSpecificOutput/updatedInput/room: member lost (a hook must keep every tool_input member it did not change)\n"+
		"\t/hookSpecificOutput/updatedInput/seats: member lost (a hook must keep every tool_input member it did not change)\n"+
		"\t/hookSpecificOutput/updatedInput/floor: member lost (a hook must keep every tool_input member it did not change)", rep.Failures[0].Error())
}

// fakeProgram is the result of a program that printed stdout on payload
// and exited 0.
func fakeProgram(payload []byte, stdout string) *hooktest.Recorder {
	// Record through a handler would validate the answer; a program's
	// answer is only checked.
	r := hooktest.Record(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil }), payload)
	r.Stdout = []byte(stdout + "\n")
	r.UpdatedInput = nil
	if ms := strings.Index(stdout, `"updatedInput":`); ms >= 0 {
		rest := stdout[ms+len(`"updatedInput":`):]
		r.UpdatedInput = jsontext.Value(rest[:strings.Index(rest, "}")+1])
	}
	return r
}

// nodeLike answers as the seed's Node fix does, in Go: it decodes the
// tool input into JavaScript-like values (float64 numbers) and writes it
// back with one member added.
func nodeLike() hook.Handler {
	return aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		var m map[string]any
		if err := json.Unmarshal(e.ToolInput, &m); err != nil {
			return nil, err
		}
		m["fingerprint"] = fingerprint(e.Cwd)
		b, err := json.Marshal(m)
		return b, err
	})
}

func TestVerdictTiers(t *testing.T) {
	values := []hooktest.Tricky{}
	for _, v := range hooktest.TrickyValues() {
		switch v.Name {
		case "title", "big integer", "trailing zero", "HTML characters", "lone high surrogate escape":
			values = append(values, v)
		}
	}
	opts := hooktest.Options{Fixtures: []hooktest.Fixture{}, Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}, Values: values}
	run := func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(nodeLike(), p), nil }

	rep := hooktest.RunProperty(run, &opts)
	// encoding/json turns a lone surrogate into U+FFFD: changed, a failure.
	for _, f := range rep.Failures {
		assert.Equal(t, "lone high surrogate escape", f.Value, f.Error())
		assert.Contains(t, f.Error(), `member changed from "\ud800" to`)
	}
	assert.Len(t, rep.Failures, 4, "the surrogate in each of three members and the added one")
	// The big integer and 2.50 are values Claude Code never sends.
	require.NotEmpty(t, rep.StrictFindings)
	var strictValues []string
	for _, f := range rep.StrictFindings {
		assert.True(t, f.Strict)
		strictValues = append(strictValues, f.Value)
	}
	assert.Contains(t, strictValues, "big integer")
	assert.Contains(t, strictValues, "trailing zero")
	assert.Contains(t, rep.StrictFindings[0].Error(), "member respelled from 12345678901234567890 to 12345678901234567000")
	// encoding/json writes < as \u003c: the same value, a note.
	require.NotEmpty(t, rep.Notes)
	assert.Equal(t, "HTML characters", rep.Notes[0].Value)
	assert.Contains(t, rep.Notes[0].Error(), `member respelled from "<script>&amp;</script>" to "\u003cscript`)
	assert.Contains(t, rep.Notes[0].Error(), hooktest.NoteRespelled)

	strictOpts := opts
	strictOpts.Strict = true
	strict := hooktest.RunProperty(run, &strictOpts)
	assert.Empty(t, strict.StrictFindings)
	assert.Len(t, strict.Failures, len(rep.Failures)+len(rep.StrictFindings))
	assert.Len(t, strict.Notes, len(rep.Notes))

	exactOpts := opts
	exactOpts.Exact = true
	exact := hooktest.RunProperty(run, &exactOpts)
	assert.Empty(t, exact.Notes)
	assert.Greater(t, len(exact.Failures), len(strict.Failures), "respellings and moves fail byte for byte")

	// The library's own hooks pass every tier.
	good := aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
	})
	all := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(good, p), nil },
		&hooktest.Options{Fixtures: []hooktest.Fixture{}, Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}, Exact: true})
	assert.NoError(t, all.Err())
	assert.Empty(t, all.Notes)
}

func TestCheckSameValue(t *testing.T) {
	in := jsontext.Value(`{"a":"é","n":12345678901234567890,"z":-0,"s":"x\ud800","o":{"k":[1,{"id":"q"}]}}`)
	assert.NoError(t, hooktest.CheckSameValue(in, jsontext.Value(`{"o":{"k":[1,{"id":"q"}]},"s":"x\uD800","z":-0.0,"n":12345678901234567000,"a":"\u00e9","more":1}`)))
	err := hooktest.CheckSameValue(in, jsontext.Value(`{"a":"é","n":12345678901234567890,"z":0,"s":"x\ufffd","o":{"k":[1,{}]}}`))
	require.Error(t, err)
	assert.Equal(t, `/z: member changed from -0 to 0 (a hook must keep every tool_input member it did not change)
/s: member changed from "x\ud800" to "x\ufffd" (a hook must keep every tool_input member it did not change)
/o/k/1/id: member lost (a hook must keep every tool_input member it did not change)`, err.Error())
	var me *hooktest.MemberError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, hooktest.ProblemChanged, me.Problem)
	assert.NoError(t, hooktest.CheckSameValue(in, jsontext.Value(`{}`), "a", "n", "z", "s", "o"))
	assert.ErrorContains(t, hooktest.CheckSameValue(jsontext.Value(`[]`), jsontext.Value(`{}`)), "hooktest: CheckSameValue: the input")
}

func TestTrickySendable(t *testing.T) {
	var sendable, not []string
	for _, v := range hooktest.TrickyValues() {
		if v.Sendable() {
			sendable = append(sendable, v.Name)
		} else {
			not = append(not, v.Name)
		}
	}
	for _, n := range []string{"big integer", "overflowing float", "negative zero", "trailing zero", "slash escape", "unicode escape of ö", "surrogate pair escape"} {
		assert.Contains(t, not, n)
	}
	for _, n := range []string{"title", "quote", "lone high surrogate escape", "lone low surrogate escape", "NUL escape", "tiny float", "deep nesting", "U+2028 and U+2029 raw"} {
		assert.Contains(t, sendable, n)
	}
}

func TestStopLoopRule(t *testing.T) {
	block := hook.StopFunc(func(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
		return nil, hook.Block("keep going")
	})
	active := hooktest.WithField(hooktest.NewEvent("Stop"), "stop_hook_active", true)
	r := hooktest.Record(block, active)
	require.Len(t, r.Problems, 1)
	assert.Equal(t, hooktest.RuleStopLoop, r.Problems[0].(*hooktest.Violation).Rule)
	r = hooktest.Record(block, hooktest.WithField(hooktest.NewEvent("Stop"), "stop_hook_active", false))
	assert.NoError(t, r.Err())

	err := hooktest.CheckAnswer(active, 0, []byte(`{"decision":"block","reason":"again"}`), nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/decision: \"block\" with stop_hook_active true")
	sub := hooktest.WithField(hooktest.NewEvent("SubagentStop"), "stop_hook_active", true)
	assert.ErrorContains(t, hooktest.CheckAnswer(sub, 2, nil, []byte("again")), hooktest.RuleStopLoop)
}

func TestRecorderRefusedAnswer(t *testing.T) {
	// A Stop block without a reason is refused by the library.
	h := hook.StopFunc(func(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
		return &hook.StopOutput{Block: true}, nil
	})
	r := hooktest.Record(h, hooktest.NewEvent("Stop"))
	if r.Code != hook.ExitError {
		t.Skipf("the library accepted the answer (exit %d): nothing refused to report", r.Code)
	}
	require.Error(t, r.Err())
	v := r.Problems[0].(*hooktest.Violation)
	assert.Equal(t, hooktest.RuleRefused, v.Rule)
	assert.Contains(t, v.Detail, strings.TrimSpace(string(r.Stderr)), "the library's whole message")
}

func TestBuildersTakeGoValues(t *testing.T) {
	p := hooktest.NewPreToolUse("Bash", map[string]any{"command": "ls <dir>", "timeout": 5})
	ti, _ := hooktest.Field(p, "tool_input")
	assert.Equal(t, `{"command":"ls <dir>","timeout":5}`, string(ti))
	p = hooktest.NewPreToolUse("Bash", hook.BashInput{Command: "ls"})
	ti, _ = hooktest.Field(p, "tool_input")
	assert.Contains(t, string(ti), `"command":"ls"`)
	p = hooktest.NewPermissionRequest("Bash", jsontext.Value(`{"command":"x"}`))
	ti, _ = hooktest.Field(p, "tool_input")
	assert.Equal(t, `{"command":"x"}`, string(ti))
	p = hooktest.NewPostToolUse("Bash", []byte(`{"command":"x"}`), map[string]any{"stdout": "ok"})
	resp, _ := hooktest.Field(p, "tool_response")
	assert.Equal(t, `{"stdout":"ok"}`, string(resp))
	assert.Panics(t, func() { hooktest.NewPreToolUse("Bash", []int{1}) })
	assert.Panics(t, func() { hooktest.NewPreToolUse("Bash", make(chan int)) })
}

func TestPropertyRunShowsTheWholeError(t *testing.T) {
	long := "the policy server said no: " + strings.Repeat("because ", 60) + "end"
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, errors.New(long)
	})
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(h, p), nil },
		&hooktest.Options{Fixtures: []hooktest.Fixture{{Name: "bash", Event: "PreToolUse", JSON: hooktest.Payload("pretooluse-bash")}}, Values: hooktest.RoomNames()[:1]})
	require.NotEmpty(t, rep.Failures)
	assert.Contains(t, rep.Failures[0].Error(), long+" ("+hooktest.RuleFails+")")
}

func TestRecordKeepsFailClosed(t *testing.T) {
	failing := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, errors.New("policy server down")
	})
	r := hooktest.Record(hook.FailClosed(failing), hooktest.Payload("pretooluse-bash"))
	assert.Equal(t, hook.ExitBlock, r.Code, "stderr: %s", r.Stderr)
	r = hooktest.Record(hook.FailClosed(failing), []byte(`{"hook_event_name":"PreToolUse","tool_input":`))
	assert.Equal(t, hook.ExitBlock, r.Code, "unreadable input fails closed too: %s", r.Stderr)
	r = hooktest.Record(failing, hooktest.Payload("pretooluse-bash"))
	assert.Equal(t, hook.ExitError, r.Code)

	dropper := hook.FailClosed(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Remove(e.ToolInput, "description")
		return &hook.PreToolUseOutput{UpdatedInput: upd, Removed: []string{"description"}}, err
	}))
	r = hooktest.Record(dropper, hooktest.Payload("pretooluse-bash"))
	assert.Equal(t, []string{"description"}, r.Removed)
	assert.NoError(t, r.Err())
}

func TestRecorderRefusedAnswerNamesTheAgent(t *testing.T) {
	// Under Codex an UpdatedInput without a decision is refused: Codex,
	// not Claude Code, is the client that got no answer.
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"command": "ls"})
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
	var in jsontext.Value
	for _, f := range hooktest.CodexFixtures() {
		if f.Name == "codex/pre-tool-use" {
			in = f.JSON
		}
	}
	require.NotNil(t, in, "the Codex PreToolUse fixture")
	r := hooktest.Record(h, in)
	require.Equal(t, hook.ExitError, r.Code, "stderr: %s", r.Stderr)
	require.Error(t, r.Err())
	v := r.Problems[0].(*hooktest.Violation)
	assert.Equal(t, hooktest.RuleRefused, v.Rule)
	assert.Contains(t, v.Detail, "Codex got no answer")
	assert.NotContains(t, v.Detail, "Claude Code got no answer")
}
