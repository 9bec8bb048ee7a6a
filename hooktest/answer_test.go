package hooktest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// violationsOf returns the violations in err, failing the test on any other
// error.
func violationsOf(t *testing.T, err error) []*hooktest.Violation {
	t.Helper()
	var out []*hooktest.Violation
	if err == nil {
		return nil
	}
	j, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "CheckAnswer returns errors.Join: %v", err)
	for _, e := range j.Unwrap() {
		var v *hooktest.Violation
		require.True(t, errors.As(e, &v), "not a Violation: %v", e)
		out = append(out, v)
	}
	return out
}

// bashInput is the tool_input of the pretooluse-bash fixture.
const bashInput = `{"command":"npm test -- --runInBand","description":"Run the test suite","timeout":120000}`

func TestCheckAnswer(t *testing.T) {
	pre := hooktest.Payload("pretooluse-bash")
	perm := hooktest.NewPermissionRequest("Bash", bashInput)
	type want struct{ rule, pointer, detail string }
	cases := []struct {
		name   string
		in     jsontext.Value
		code   int
		stdout string
		stderr string
		want   []want
	}{
		{name: "nothing", in: pre},
		{name: "plain text", in: hooktest.NewEvent("UserPromptSubmit"), stdout: "Current branch: main\n"},
		{name: "exit 1 with a message", in: pre, code: 1, stderr: "hook: something broke\n"},
		{name: "block", in: pre, code: 2, stderr: "rm is not allowed\n"},
		{name: "allow", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n"},
		{name: "pretty-printed full update", in: pre, stdout: "{\n  \"hookSpecificOutput\": {\n    \"hookEventName\": \"PreToolUse\",\n    \"updatedInput\": {\n      \"command\": \"npm run test:ci\",\n      \"description\": \"Run the test suite\",\n      \"timeout\": 120000\n    }\n  }\n}\n"},
		{name: "async then answer", in: pre, stdout: `{"async":true,"asyncTimeout":5000}` + "\n" + `{"systemMessage":"done"}` + "\n"},
		{name: "exit code 3", in: pre, code: 3,
			want: []want{{hooktest.RuleExitCode, "", "exit code 3"}}},
		{name: "killed", in: pre, code: -1,
			want: []want{{hooktest.RuleExitCode, "", "killed"}}},
		{name: "Go panic", in: pre, code: 2, stderr: "panic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/hook/main.go:12 +0x1d\n",
			want: []want{{hooktest.RuleCrash, "", "nothing on stderr but the Go runtime's crash report (panic: runtime error: index out of range"}}},
		{name: "Go panic, exit 1", in: pre, code: 1, stderr: "panic: boom\n",
			want: []want{{hooktest.RuleCrash, "", "Go panic: panic: boom"}}},
		{name: "exit 2 quoting go test's panic", in: pre, code: 2, stderr: "tests fail:\n--- FAIL: TestX (0.00s)\npanic: boom [recovered]\n\tpanic: boom\n\ngoroutine 7 [running]:\ntesting.tRunner.func1.2({0x5, 0x6})\n\t/go/src/testing/testing.go:1632 +0x230\nFAIL\texample.com/x\t0.005s\nFAIL\n"},
		{name: "exit 2 quoting a traceback", in: pre, code: 2, stderr: "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\nKeyError: 'room'\n"},
		{name: "exit 2 quoting a Node stack", in: pre, code: 2, stderr: "tests fail: TypeError: x\n    at Object.<anonymous> (/x/t.js:3:22)\n"},
		{name: "exit 0 after a caught traceback", in: pre, code: 0, stderr: "Traceback (most recent call last):\n  File \"hook.py\", line 3, in <module>\nKeyError: 'room'\n",
			want: []want{{hooktest.RuleCrash, "", "Python traceback: KeyError: 'room'"}}},
		{name: "Python traceback", in: pre, code: 1, stderr: "Traceback (most recent call last):\n  File \"hook.py\", line 3, in <module>\nKeyError: 'room'\n",
			want: []want{{hooktest.RuleCrash, "", "Python traceback: KeyError: 'room'"}}},
		{name: "Node stack", in: pre, code: 1, stderr: "TypeError: Cannot read properties of undefined (reading 'room')\n    at Object.<anonymous> (/x/hook.js:3:22)\n    at Module._compile (node:internal/modules/cjs/loader:1554:14)\n",
			want: []want{{hooktest.RuleCrash, "", "Node.js stack trace: at Object.<anonymous> (/x/hook.js:3:22)"}}},
		{name: "exit 2 with JSON", in: pre, code: 2, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, stderr: "no\n",
			want: []want{{hooktest.RuleBlockStdout, "", "exit code 2 with 82 bytes on stdout"}}},
		{name: "exit 2 on PermissionRequest", in: perm, code: 2, stderr: "no\n",
			want: []want{{hooktest.RuleNoEffect, "", "exit code 2 does not deny a PermissionRequest"}}},
		{name: "trailing comma", in: pre, stdout: `{"decision": "block", "reason": "x" ,}`,
			want: []want{{hooktest.RuleStdout, "", "looks like a JSON object but is not valid JSON"}}},
		{name: "truncated", in: pre, stdout: `{"decision": "block", "reason": "cut off`,
			want: []want{{hooktest.RuleStdout, "", "starts with { but is not one JSON object"}}},
		{name: "JSON lines", in: pre, stdout: "{\"decision\": \"block\", \"reason\": \"first\"}\n{\"continue\": false}\n",
			want: []want{{hooktest.RuleStdout, "", "2 JSON values on 2 lines"}}},
		{name: "banner", in: pre, stdout: "Welcome to bash!\n{\"decision\": \"block\", \"reason\": \"never parsed\"}\n",
			want: []want{{hooktest.RuleStdout, "", "text before its JSON object (the object starts on line 2)"}}},
		{name: "array", in: pre, stdout: `[{"decision":"block"}]`,
			want: []want{{hooktest.RuleStdout, "", "JSON array"}}},
		{name: "duplicate name", in: pre, stdout: `{"decision":"block","decision":"approve"}`,
			want: []want{{hooktest.RuleStdout, "", "member name twice"}}},
		{name: "null systemMessage", in: pre, stdout: `{"systemMessage":null}`,
			want: []want{{hooktest.RuleNull, "/systemMessage", "is null"}}},
		{name: "null updatedInput", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":null,"updatedInput":null}}`,
			want: []want{
				{hooktest.RuleNull, "/hookSpecificOutput/permissionDecisionReason", "is null"},
				{hooktest.RuleNull, "/hookSpecificOutput/updatedInput", "is null"},
			}},
		{name: "null hookSpecificOutput", in: pre, stdout: `{"hookSpecificOutput":null}`,
			want: []want{{hooktest.RuleNull, "/hookSpecificOutput", "is null"}}},
		{name: "null any-typed field", in: hooktest.NewEvent("PostToolUse"), stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":null}}`},
		{name: "wrong type", in: pre, stdout: `{"continue":"false"}`,
			want: []want{{hooktest.RuleFields, "/continue", "must be a boolean, not a string"}}},
		{name: "bad enum", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"approve"}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput/permissionDecision", `must be one of allow, deny, ask, defer, not "approve"`}}},
		{name: "top-level deny", in: pre, stdout: `{"decision":"deny"}`,
			want: []want{{hooktest.RuleFields, "/decision", "legacy approve/block field"}}},
		{name: "unknown fields", in: pre, stdout: `{"foo":1,"additionalContext":"x","hookSpecificOutput":{"hookEventName":"PreToolUse","bar":2}}`,
			want: []want{
				{hooktest.RuleFields, "/foo", "unknown field"},
				{hooktest.RuleFields, "/additionalContext", "belongs in hookSpecificOutput"},
				{hooktest.RuleFields, "/hookSpecificOutput/bar", "unknown field"},
			}},
		{name: "missing hookEventName", in: pre, stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
			want: []want{{hooktest.RuleEventName, "/hookSpecificOutput", "lacks hookEventName"}}},
		{name: "wrong hookEventName", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}`,
			want: []want{{hooktest.RuleEventName, "/hookSpecificOutput/hookEventName", `"PostToolUse", but the event is PreToolUse`}}},
		{name: "event without variant", in: hooktest.NewEvent("SessionEnd"), stdout: `{"hookSpecificOutput":{"hookEventName":"SessionEnd"}}`,
			want: []want{{hooktest.RuleEventName, "/hookSpecificOutput", "SessionEnd takes no hookSpecificOutput"}}},
		{name: "block where it does nothing", in: hooktest.NewEvent("SessionStart"), stdout: `{"decision":"block","reason":"x"}`,
			want: []want{{hooktest.RuleNoEffect, "/decision", `"block" has no effect on SessionStart`}}},
		{name: "updatedInput on PostToolUse", in: hooktest.NewEvent("PostToolUse"), stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedInput":{"a":1}}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput/updatedInput", "unknown field"}}},
		{name: "updatedInput array", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":["npm test"]}}`,
			want: []want{{hooktest.RuleUpdatedInput, "/hookSpecificOutput/updatedInput", "must be an object, not an array"}}},
		{name: "updatedInput empty", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{}}}`,
			want: []want{{hooktest.RuleUpdatedInput, "/hookSpecificOutput/updatedInput", "is empty"}}},
		{name: "updatedInput partial", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"npm run test:ci"}}}`,
			want: []want{
				{hooktest.RuleKeep, "/hookSpecificOutput/updatedInput/description", "member lost"},
				{hooktest.RuleKeep, "/hookSpecificOutput/updatedInput/timeout", "member lost"},
			}},
		{name: "updatedInput rewritten", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"npm test -- --runInBand","description":"Run the test suite","timeout":1.2e5}}}`,
			want: []want{{hooktest.RuleKeep, "/hookSpecificOutput/updatedInput/timeout", "member rewritten from 120000 to 1.2e5"}}},
		{name: "updatedInput reordered", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"timeout":120000,"command":"npm test -- --runInBand","description":"Run the test suite"}}}`,
			want: []want{{hooktest.RuleKeep, "/hookSpecificOutput/updatedInput/timeout", "member moved"}}},
		{name: "updatedInput reserved name", in: pre, stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"npm test -- --runInBand","description":"Run the test suite","timeout":120000,"__ArtifactId":"x"}}}`,
			want: []want{{hooktest.RuleUpdatedInput, "/hookSpecificOutput/updatedInput/__ArtifactId", "reserved"}}},
		{name: "updatedInput on PreSkillShellCommand", in: hooktest.NewEvent("PreSkillShellCommand"), stdout: `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","updatedInput":{"command":"ls"}}}`,
			want: []want{{hooktest.RuleNoEffect, "/hookSpecificOutput/updatedInput", "blocks the command"}}},
		{name: "PermissionRequest allow with full input", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":` + bashInput + `}}}`},
		{name: "PermissionRequest without decision", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest"}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput", `lacks required field "decision"`}}},
		{name: "PermissionRequest bad behavior", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"ask"}}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput/decision/behavior", `must be "allow" or "deny"`}}},
		{name: "PermissionRequest deny with updatedInput", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","updatedInput":{"command":"ls"}}}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput/decision/updatedInput", `only goes with behavior "allow"`}}},
		{name: "PermissionRequest partial input", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`,
			want: []want{
				{hooktest.RuleKeep, "/hookSpecificOutput/decision/updatedInput/description", "member lost"},
				{hooktest.RuleKeep, "/hookSpecificOutput/decision/updatedInput/timeout", "member lost"},
			}},
		{name: "PermissionRequest bad update", in: perm, stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"yolo","destination":"session"},{"type":"addRules","rules":[{"ruleContent":"x"}],"behavior":"allow","destination":"session"}]}}}`,
			want: []want{
				{hooktest.RuleFields, "/hookSpecificOutput/decision/updatedPermissions/0/mode", `not "yolo"`},
				{hooktest.RuleFields, "/hookSpecificOutput/decision/updatedPermissions/1/rules/0", `lacks required field "toolName"`},
			}},
		{name: "PermissionRequest top-level block", in: perm, stdout: `{"decision":"block"}`,
			want: []want{{hooktest.RuleNoEffect, "/decision", "PermissionRequest ignores the top-level decision"}}},
		{name: "watchPaths not strings", in: hooktest.NewEvent("CwdChanged"), stdout: `{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":["a",1]}}`,
			want: []want{{hooktest.RuleFields, "/hookSpecificOutput/watchPaths/1", "must be a string, not a number"}}},
		{name: "WorktreeCreate path", in: hooktest.NewEvent("WorktreeCreate"), stdout: "Preparing\n/tmp/wt\n"},
		{name: "WorktreeCreate JSON", in: hooktest.NewEvent("WorktreeCreate"), stdout: `{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/tmp/wt"}}`,
			want: []want{{hooktest.RuleNoEffect, "", "prints the worktree path"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := hooktest.CheckAnswer(tc.in, tc.code, []byte(tc.stdout), []byte(tc.stderr))
			vs := violationsOf(t, err)
			require.Len(t, vs, len(tc.want), "%v", err)
			for i, w := range tc.want {
				assert.Equal(t, w.rule, vs[i].Rule, "%v", vs[i])
				assert.Equal(t, w.pointer, vs[i].Pointer, "%v", vs[i])
				assert.Contains(t, vs[i].Detail, w.detail)
				assert.True(t, strings.HasSuffix(vs[i].Error(), "("+w.rule+")"), vs[i].Error())
			}
		})
	}
}

func TestCheckAnswerMessageForTheSeedBug(t *testing.T) {
	in := hooktest.Payload("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1")
	out := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"abc"}}}`
	err := hooktest.CheckAnswer(in, 0, []byte(out), nil)
	require.Error(t, err)
	assert.Equal(t, "/hookSpecificOutput/updatedInput/room: member lost (a hook must keep every tool_input member it did not change)", err.Error())
	var me *hooktest.MemberError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "/room", me.Pointer)
	assert.Equal(t, `"Probe"`, string(me.In))
}

func TestCheckAnswerBadPayload(t *testing.T) {
	err := hooktest.CheckAnswer(jsontext.Value(`[1]`), 0, nil, nil)
	require.Error(t, err)
	var v *hooktest.Violation
	assert.False(t, errors.As(err, &v), "a bad payload is the caller's error, not a rule the hook broke")
	assert.Error(t, hooktest.CheckAnswer(jsontext.Value(`{"a":1}`), 0, nil, nil))
}

func TestCheckAnswerUnknownEvent(t *testing.T) {
	in := hooktest.WithField(hooktest.NewEvent("Stop"), "hook_event_name", "FutureEvent")
	assert.NoError(t, hooktest.CheckAnswer(in, 0, []byte(`{"hookSpecificOutput":{"hookEventName":"FutureEvent","x":1}}`), nil))
	err := hooktest.CheckAnswer(in, 0, []byte(`{"systemMessage":null}`), nil)
	assert.ErrorContains(t, err, "/systemMessage: is null")
}

func TestInvalidAnswerFixtures(t *testing.T) {
	want := map[string]string{
		"outputs/invalid/additionalcontext-top-level":        hooktest.RuleFields,
		"outputs/invalid/bad-enum-permissiondecision":        hooktest.RuleFields,
		"outputs/invalid/bad-enum-toplevel-decision":         hooktest.RuleFields,
		"outputs/invalid/banner-then-json":                   hooktest.RuleStdout,
		"outputs/invalid/json-lines":                         hooktest.RuleStdout,
		"outputs/invalid/missing-hookeventname":              hooktest.RuleEventName,
		"outputs/invalid/not-json-trailing-comma":            hooktest.RuleStdout,
		"outputs/invalid/null-systemmessage":                 hooktest.RuleNull,
		"outputs/invalid/permissionrequest-missing-decision": hooktest.RuleFields,
		"outputs/invalid/truncated-object":                   hooktest.RuleStdout,
		"outputs/invalid/unknown-hookeventname":              hooktest.RuleEventName,
		"outputs/invalid/unknown-keys":                       hooktest.RuleFields,
		"outputs/invalid/updatedinput-empty":                 hooktest.RuleUpdatedInput,
		"outputs/invalid/updatedinput-partial":               hooktest.RuleKeep,
		"outputs/invalid/wrong-hookeventname":                hooktest.RuleEventName,
		"outputs/invalid/wrong-type-continue":                hooktest.RuleFields,
		"outputs/worktreecreate-http":                        hooktest.RuleNoEffect,
	}
	seen := 0
	for _, a := range hooktest.Answers() {
		rule, ok := want[a.Name]
		if !ok {
			continue
		}
		seen++
		assert.False(t, a.Valid, a.Name)
		in := hooktest.NewEvent(a.Event)
		if a.Event == "PreToolUse" {
			in = hooktest.Payload("pretooluse-bash")
		}
		vs := violationsOf(t, hooktest.CheckAnswer(in, 0, a.Stdout, nil))
		require.NotEmpty(t, vs, a.Name)
		assert.Equal(t, rule, vs[0].Rule, "%s: %v", a.Name, vs[0])
	}
	assert.Equal(t, len(want), seen)
}
