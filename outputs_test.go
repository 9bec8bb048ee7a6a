package hook

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// serveAnswer serves the input fixture in with a handler that decodes the
// event with its typed adapter and returns what answer builds from it.
func serveAnswer(t *testing.T, in string, answer func(t *testing.T, e any) Output) (int, string, string) {
	t.Helper()
	h := HandlerFunc(func(ctx context.Context, ev *Event) (Output, error) {
		return answer(t, decodeWithAdapter(t, ev)), nil
	})
	var stdout, stderr bytes.Buffer
	wire := append(compactFixture(t, readFixture(t, in)), '\n')
	code := Serve(context.Background(), bytes.NewReader(wire), &stdout, &stderr, h)
	return code, stdout.String(), stderr.String()
}

// raw is shorthand for a literal raw JSON value.
func raw(s string) jsontext.Value { return jsontext.Value(s) }

// mustValue returns a function that fails the test on err and returns v,
// for calls that return a raw value and an error.
func mustValue(t *testing.T) func(v jsontext.Value, err error) jsontext.Value {
	return func(v jsontext.Value, err error) jsontext.Value {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}

// outputCase produces one file of hooktest/fixtures/outputs: the answer
// built by answer for the input fixture in.
type outputCase struct {
	in     string
	answer func(t *testing.T, e any) Output
}

var outputCases = map[string]outputCase{
	"async.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return Async{Timeout: 60 * time.Second}
	}},
	"configchange-block.json": {"configchange.json", func(t *testing.T, e any) Output {
		return &ConfigChangeOutput{Block: true, Reason: "Project settings changes need review"}
	}},
	"continue-false.json": {"stop.json", func(t *testing.T, e any) Output {
		return &StopOutput{Common: Common{Halt: true, StopReason: "Build is broken on main; stopping until it is fixed."}}
	}},
	"cwdchanged-watchpaths.json": {"cwdchanged.json", func(t *testing.T, e any) Output {
		return &CwdChangedOutput{WatchPaths: []string{e.(*CwdChanged).NewCwd + "/.envrc"}}
	}},
	"elicitation-accept.json": {"elicitation-form.json", func(t *testing.T, e any) Output {
		return &ElicitationOutput{Action: ElicitationAccept, Content: raw(`{"environment":"staging"}`)}
	}},
	"elicitationresult-decline.json": {"elicitationresult.json", func(t *testing.T, e any) Output {
		return &ElicitationResultOutput{Action: ElicitationDecline, Content: raw(`{}`)}
	}},
	"filechanged-watchpaths.json": {"filechanged.json", func(t *testing.T, e any) Output {
		return &FileChangedOutput{
			Common:     Common{SystemMessage: ".envrc changed; environment reloaded"},
			WatchPaths: []string{"/home/dev/acme-api/.env", "/home/dev/acme-api/.envrc"},
		}
	}},
	"messagedisplay-displaycontent.json": {"messagedisplay.json", func(t *testing.T, e any) Output {
		return &MessageDisplayOutput{DisplayContent: strings.ReplaceAll(e.(*MessageDisplay).Delta, "**", "")}
	}},
	"permissiondenied-retry.json": {"permissiondenied-bash.json", func(t *testing.T, e any) Output {
		return &PermissionDeniedOutput{Retry: true}
	}},
	"permissionrequest-allow-updatedinput.json": {"permissionrequest-bash-rule.json", func(t *testing.T, e any) Output {
		// A real rewrite: one that leaves the input as it is is not
		// written (TestNoOpRewrite).
		pr := e.(*PermissionRequest)
		view, err := DecodeView[BashInput](pr.ToolInput)
		require.NoError(t, err)
		view.Command, view.Description = "rm -rf ./dist", "Remove the build output directory"
		return &PermissionRequestOutput{Decision: Allow, UpdatedInput: mustValue(t)(pr.Update(view))}
	}},
	"permissionrequest-allow-updatedpermissions.json": {"permissionrequest-bash-rule.json", func(t *testing.T, e any) Output {
		pr := e.(*PermissionRequest)
		return &PermissionRequestOutput{Decision: Allow, UpdatedPermissions: []PermissionUpdate{
			pr.PermissionSuggestions[0],
			{Type: PermissionUpdateSetMode, Mode: PermissionModeAcceptEdits, Destination: DestinationSession},
		}}
	}},
	"permissionrequest-allow.json": {"permissionrequest-bash.json", func(t *testing.T, e any) Output {
		return &PermissionRequestOutput{Decision: Allow}
	}},
	"permissionrequest-deny-interrupt.json": {"permissionrequest-bash.json", func(t *testing.T, e any) Output {
		return &PermissionRequestOutput{Decision: Deny, Message: "Stopping: this session must not touch production", Interrupt: true}
	}},
	"permissionrequest-deny.json": {"permissionrequest-bash.json", func(t *testing.T, e any) Output {
		return &PermissionRequestOutput{Decision: Deny, Message: "Deleting build output is disabled by team policy"}
	}},
	"plaintext-context.txt": {"userpromptsubmit.json", func(t *testing.T, e any) Output {
		return &UserPromptSubmitOutput{Text: "Current branch: feat/health\nOpen PR: #212\n"}
	}},
	"postmodelswitch-context.json": {"postmodelswitch.json", func(t *testing.T, e any) Output {
		return &PostModelSwitchOutput{AdditionalContext: "You are now running on a larger model; keep answers short."}
	}},
	"posttoolbatch-additionalcontext.json": {"posttoolbatch.json", func(t *testing.T, e any) Output {
		return &PostToolBatchOutput{AdditionalContext: "These files belong to the ledger module. Run pytest tests/ledger before finishing."}
	}},
	"posttoolbatch-block.json": {"posttoolbatch.json", func(t *testing.T, e any) Output {
		return &PostToolBatchOutput{Block: true, Reason: "Too many files read in one batch; stop and summarise first."}
	}},
	"posttooluse-additionalcontext.json": {"posttooluse-edit.json", func(t *testing.T, e any) Output {
		return &PostToolUseOutput{AdditionalContext: "This file is generated. Edit src/schema.ts and run `npm run generate` instead."}
	}},
	"posttooluse-block.json": {"posttooluse-edit.json", func(t *testing.T, e any) Output {
		return &PostToolUseOutput{Block: true, Reason: "Lint failed: src/server.ts:12 unused variable 'log'. Fix it before continuing."}
	}},
	"posttooluse-classifiercontext.json": {"posttooluse-bash.json", func(t *testing.T, e any) Output {
		return &PostToolUseOutput{ClassifierContext: "This query ran against the staging database, not production."}
	}},
	"posttooluse-updatedmcptooloutput.json": {"posttooluse-mcp-listen_here.json", func(t *testing.T, e any) Output {
		return &PostToolUseOutput{UpdatedMCPToolOutput: raw(`[{"type":"text","text":"listening; got {\"room\":\"general\"} (fingerprint redacted)"}]`)}
	}},
	"posttooluse-updatedtooloutput-bash.json": {"posttooluse-bash.json", func(t *testing.T, e any) Output {
		pu := e.(*PostToolUse)
		out := mustValue(t)(Remove(pu.ToolResponse, "noOutputExpected"))
		out = mustValue(t)(Edit(out, func(r *BashResponse) error {
			r.Stdout = "[redacted: 3 lines containing secrets]"
			return nil
		}))
		return &PostToolUseOutput{UpdatedToolOutput: out}
	}},
	"posttoolusefailure-additionalcontext.json": {"posttoolusefailure-bash.json", func(t *testing.T, e any) Output {
		return &PostToolUseFailureOutput{AdditionalContext: "Dependencies are not installed in this checkout; run `npm ci` first."}
	}},
	"precompact-block.json": {"precompact-manual.json", func(t *testing.T, e any) Output {
		return &PreCompactOutput{Block: true, Reason: "Compaction disabled while the migration plan is in progress"}
	}},
	"premodelswitch-deny.json": {"premodelswitch.json", func(t *testing.T, e any) Output {
		return &PreModelSwitchOutput{Decision: Deny, Reason: "Model switches are disabled during this benchmark run"}
	}},
	"preskillshellcommand-deny.json": {"preskillshellcommand.json", func(t *testing.T, e any) Output {
		return &PreSkillShellCommandOutput{Decision: Deny, Reason: "Skills may not run git push"}
	}},
	"pretooluse-additionalcontext.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Decision: Allow, AdditionalContext: "The deployment target for this branch is staging."}
	}},
	"pretooluse-allow-updatedinput.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		upd := mustValue(t)(Edit(e.(*PreToolUse).ToolInput, func(in *BashInput) error {
			in.Command = "npm run test:ci"
			return nil
		}))
		return &PreToolUseOutput{Decision: Allow, Reason: "Rewrote to use the project test script", UpdatedInput: upd}
	}},
	"pretooluse-allow.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Decision: Allow, Reason: "Read-only git command"}
	}},
	"pretooluse-ask.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Decision: Ask, Reason: "This command touches production credentials"}
	}},
	"pretooluse-askuserquestion-answer.json": {"pretooluse-askuserquestion.json", func(t *testing.T, e any) Output {
		upd := mustValue(t)(Edit(e.(*PreToolUse).ToolInput, func(in *AskUserQuestionInput) error {
			in.Answers = map[string]string{in.Questions[0].Question: in.Questions[0].Options[0].Label}
			return nil
		}))
		return &PreToolUseOutput{Decision: Allow, UpdatedInput: upd}
	}},
	"pretooluse-defer.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Decision: Defer}
	}},
	"pretooluse-deny.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Decision: Deny, Reason: "rm -rf outside ./dist is not allowed in this repo"}
	}},
	"pretooluse-legacy-approve.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Legacy: true, Decision: Allow, Reason: "Allowed by legacy hook"}
	}},
	"pretooluse-legacy-block.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		return &PreToolUseOutput{Legacy: true, Decision: Deny, Reason: "Blocked by legacy hook"}
	}},
	"pretooluse-updatedinput-only.json": {"pretooluse-bash.json", func(t *testing.T, e any) Output {
		upd := mustValue(t)(e.(*PreToolUse).Merge(map[string]string{"command": "npm run test:ci"}))
		upd = mustValue(t)(Remove(upd, "timeout"))
		return &PreToolUseOutput{UpdatedInput: upd, Removed: []string{"timeout"}}
	}},
	"sessionstart-context.json": {"sessionstart-startup.json", func(t *testing.T, e any) Output {
		return &SessionStartOutput{
			AdditionalContext: "Current branch: feat/health\nUncommitted changes: src/server.ts",
			SessionTitle:      "feat/health",
			WatchPaths:        []string{e.(*SessionStart).Cwd + "/.envrc"},
		}
	}},
	"sessionstart-initialusermessage.json": {"sessionstart-startup.json", func(t *testing.T, e any) Output {
		return &SessionStartOutput{InitialUserMessage: "Summarise the open TODOs in src/.", ReloadSkills: true}
	}},
	"setup-context.json": {"setup.json", func(t *testing.T, e any) Output {
		return &SetupOutput{AdditionalContext: "Dependencies installed: node_modules, .venv"}
	}},
	"stop-additionalcontext.json": {"stop.json", func(t *testing.T, e any) Output {
		return &StopOutput{AdditionalContext: "Please run the test suite before finishing."}
	}},
	"stop-block.json": {"stop.json", func(t *testing.T, e any) Output {
		return &StopOutput{Block: true, Reason: "Tests are failing (2 failures in src/health.test.ts). Fix them before finishing."}
	}},
	"subagentstart-context.json": {"subagentstart.json", func(t *testing.T, e any) Output {
		return &SubagentStartOutput{AdditionalContext: "Never read files under secrets/."}
	}},
	"subagentstop-additionalcontext.json": {"subagentstop.json", func(t *testing.T, e any) Output {
		return &SubagentStopOutput{AdditionalContext: "Also list the middleware applied to each route."}
	}},
	"subagentstop-block.json": {"subagentstop.json", func(t *testing.T, e any) Output {
		return &SubagentStopOutput{Block: true, Reason: "Include file paths for every route in the table."}
	}},
	"systemmessage.json": {"sessionstart-startup.json", func(t *testing.T, e any) Output {
		return &SessionStartOutput{Common: Common{SystemMessage: "Heads up: this repo is in a release freeze."}}
	}},
	"taskcreated-block.json": {"taskcreated.json", func(t *testing.T, e any) Output {
		return &TaskCreatedOutput{Block: true, Reason: "Task subjects must start with a ticket id, e.g. [ACME-123]"}
	}},
	"terminalsequence.json": {"notification-idle_prompt.json", func(t *testing.T, e any) Output {
		return &NotificationOutput{Common: Common{TerminalSequence: "\x1b]777;notify;Claude Code;Needs your attention\a"}}
	}},
	"userpromptexpansion-block.json": {"userpromptexpansion.json", func(t *testing.T, e any) Output {
		return &UserPromptExpansionOutput{Block: true, Reason: "/deploy needs an approval file at .deploy-approved"}
	}},
	"userpromptexpansion-context.json": {"userpromptexpansion.json", func(t *testing.T, e any) Output {
		return &UserPromptExpansionOutput{AdditionalContext: "Review checklist: tests, migrations, feature flags."}
	}},
	"userpromptsubmit-block.json": {"userpromptsubmit.json", func(t *testing.T, e any) Output {
		return &UserPromptSubmitOutput{Block: true, Reason: "Prompts that contain API keys are not sent. Remove the key and try again.", SuppressOriginalPrompt: true}
	}},
	"userpromptsubmit-context.json": {"userpromptsubmit.json", func(t *testing.T, e any) Output {
		return &UserPromptSubmitOutput{AdditionalContext: "Current branch: feat/health. Open PR: #212.", SessionTitle: "health endpoint"}
	}},
	"worktreecreate-command-stdout.txt": {"worktreecreate.json", func(t *testing.T, e any) Output {
		return &WorktreeCreateOutput{WorktreePath: "/home/dev/acme-api-worktrees/" + e.(*WorktreeCreate).Name}
	}},
	"worktreecreate-http.json": {"worktreecreate.json", func(t *testing.T, e any) Output {
		return &WorktreeCreateOutput{WorktreePath: "/home/dev/acme-api-worktrees/" + e.(*WorktreeCreate).Name, JSONForm: true}
	}},
}

// outputFiles lists the files directly in dir.
func outputFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(fixtureDir, dir))
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	require.NotEmpty(t, names)
	sort.Strings(names)
	return names
}

func TestEveryOutputFixtureIsProduced(t *testing.T) {
	files := outputFiles(t, "outputs")
	assert.Len(t, outputCases, len(files), "one case per file in outputs/")
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			c, ok := outputCases[name]
			require.True(t, ok, "no typed answer produces outputs/%s", name)
			want := readFixture(t, filepath.Join("outputs", name))
			code, stdout, stderr := serveAnswer(t, c.in, c.answer)
			require.Equal(t, ExitOK, code, stderr)
			assert.Empty(t, stderr)
			if strings.HasSuffix(name, ".txt") {
				assertPlainText(t, c, stdout)
			}
			switch {
			case strings.HasSuffix(name, ".json"):
				assert.Equal(t, string(compactFixture(t, want))+"\n", stdout)
				event := fixtureEvent(t, c.in).HookEventName
				checkWireAnswer(t, event, stdout)
			case name == "worktreecreate-command-stdout.txt":
				// The fixture shows a progress line before the path; a
				// hook built with the library writes progress on stderr,
				// and stdout is the path line alone.
				lines := strings.Split(strings.TrimSpace(string(want)), "\n")
				assert.Equal(t, lines[len(lines)-1]+"\n", stdout)
			default:
				assert.Equal(t, string(want), stdout)
			}
		})
	}
}

// assertPlainText checks that the answer of c is plain text by design and
// that Serve wrote it as such: never starting with "{", so Claude Code
// cannot take it for a broken JSON answer.
func assertPlainText(t *testing.T, c outputCase, stdout string) {
	t.Helper()
	out := c.answer(t, decodeWithAdapter(t, fixtureEvent(t, c.in)))
	pt, ok := out.(plainTextAnswer)
	require.True(t, ok, "%T cannot be plain text", out)
	assert.True(t, pt.plainText())
	require.NotEmpty(t, stdout)
	assert.NotEqual(t, byte('{'), stdout[0])
}

// hookSpecificKeys lists, for each event with a hookSpecificOutput variant,
// the members the variant has besides hookEventName (spec §5.5).
var hookSpecificKeys = map[string][]string{
	EventPreToolUse:           {"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"},
	EventPermissionRequest:    {"decision"},
	EventPermissionDenied:     {"retry"},
	EventPostToolUse:          {"additionalContext", "classifierContext", "updatedToolOutput", "updatedMCPToolOutput"},
	EventPostToolUseFailure:   {"additionalContext"},
	EventPostToolBatch:        {"additionalContext"},
	EventUserPromptSubmit:     {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
	EventUserPromptExpansion:  {"additionalContext", "suppressOriginalPrompt"},
	EventSessionStart:         {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"},
	EventSetup:                {"additionalContext"},
	EventSubagentStart:        {"additionalContext"},
	EventStop:                 {"additionalContext"},
	EventSubagentStop:         {"additionalContext"},
	EventNotification:         {"additionalContext"},
	EventElicitation:          {"action", "content"},
	EventElicitationResult:    {"action", "content"},
	EventCwdChanged:           {"watchPaths"},
	EventFileChanged:          {"watchPaths"},
	EventWorktreeCreate:       {"worktreePath"},
	EventMessageDisplay:       {"displayContent"},
	EventPreModelSwitch:       {"permissionDecision", "permissionDecisionReason"},
	EventPostModelSwitch:      {"additionalContext"},
	EventPreSkillShellCommand: {"permissionDecision", "permissionDecisionReason", "updatedInput"},
}

// topLevelDecision lists the events whose answers may carry a top-level
// decision, with the values they may carry.
var topLevelDecision = map[string][]string{
	EventPreToolUse:          {"approve", "block"},
	EventPostToolUse:         {"block"},
	EventPostToolBatch:       {"block"},
	EventUserPromptSubmit:    {"block"},
	EventUserPromptExpansion: {"block"},
	EventStop:                {"block"},
	EventSubagentStop:        {"block"},
	EventPreCompact:          {"block"},
	EventConfigChange:        {"block"},
	EventTaskCreated:         {"block"},
	EventElicitation:         {"block"},
	EventElicitationResult:   {"block"},
}

var wireTopKeys = []string{"continue", "stopReason", "suppressOutput", "decision", "reason", "systemMessage", "terminalSequence", "hookSpecificOutput"}

// checkWireAnswer checks a JSON answer on stdout the way Claude Code's
// parser and schema would: one compact line holding exactly one object,
// only known members, no null where a value is expected, the right
// hookEventName, and a top-level decision only where the event takes one.
func checkWireAnswer(t *testing.T, event, stdout string) {
	t.Helper()
	require.True(t, strings.HasPrefix(stdout, "{"), "a JSON answer starts with {: %q", stdout)
	require.True(t, strings.HasSuffix(stdout, "}\n"), "a JSON answer is one object and a newline: %q", stdout)
	require.Equal(t, 1, strings.Count(stdout, "\n"), "a JSON answer is one line")
	dec := jsontext.NewDecoder(strings.NewReader(stdout))
	v, err := dec.ReadValue()
	require.NoError(t, err)
	v = v.Clone()
	_, err = dec.ReadValue()
	require.ErrorIs(t, err, io.EOF, "exactly one JSON value")
	ms, err := rawjson.Members(v)
	require.NoError(t, err)
	if m, ok := rawjson.Find(ms, "async"); ok {
		assert.Equal(t, "true", string(m.Value))
		for _, m := range ms {
			assert.Contains(t, []string{"async", "asyncTimeout"}, m.Key)
		}
		return
	}
	for _, m := range ms {
		assert.Contains(t, wireTopKeys, m.Key, "unknown top-level member")
		assert.NotEqual(t, jsontext.Kind('n'), jsontext.Value(m.Value).Kind(), "%s is null", m.Key)
	}
	if m, ok := rawjson.Find(ms, "continue"); ok {
		assert.Equal(t, "false", string(m.Value))
	}
	if m, ok := rawjson.Find(ms, "decision"); ok {
		var d string
		require.NoError(t, wire.Unmarshal(m.Value, &d))
		assert.Contains(t, topLevelDecision[event], d, "top-level decision of %s", event)
	}
	m, ok := rawjson.Find(ms, "hookSpecificOutput")
	if !ok {
		return
	}
	allowed, ok := hookSpecificKeys[event]
	require.True(t, ok, "%s has no hookSpecificOutput variant", event)
	hs, err := rawjson.Members(m.Value)
	require.NoError(t, err)
	require.NotEmpty(t, hs)
	assert.Equal(t, "hookEventName", hs[0].Key)
	assert.Equal(t, `"`+event+`"`, string(hs[0].Value))
	for _, h := range hs[1:] {
		assert.Contains(t, allowed, h.Key, "member of the %s variant", event)
		assert.NotEqual(t, jsontext.Kind('n'), jsontext.Value(h.Value).Kind(), "hookSpecificOutput.%s is null", h.Key)
	}
	if event == EventPermissionRequest {
		d, ok := rawjson.Find(hs, "decision")
		require.True(t, ok, "a PermissionRequest variant always has its decision")
		dm, err := rawjson.Members(d.Value)
		require.NoError(t, err)
		b, ok := rawjson.Find(dm, "behavior")
		require.True(t, ok)
		assert.Contains(t, []string{`"allow"`, `"deny"`}, string(b.Value))
	}
}

// answerTo runs appendAnswer of out for the input fixture in.
func answerTo(t *testing.T, in string, out Output) (string, error) {
	t.Helper()
	b, err := out.appendAnswer(nil, fixtureEvent(t, in))
	return string(b), err
}

// invalidCases shows, for each file of outputs/invalid, that the typed
// API refuses the answer or cannot express it.
var invalidCases = map[string]func(t *testing.T){
	"null-systemmessage.json": func(t *testing.T) {
		// Unset optional fields are left out, never written as null; the
		// answers of every output fixture and of every Serve case are
		// checked for null members by checkWireAnswer.
		out, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny, Reason: "never applied"})
		require.NoError(t, err)
		assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"never applied"}}`, out)
		assert.NotContains(t, out, "null")
	},
	"unknown-keys.json": func(t *testing.T) {
		// Output is sealed (its method is unexported) and the answer
		// types have no field for extra members: unknown keys cannot be
		// written. checkWireAnswer verifies the member names of every
		// answer the tests produce.
		out, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny, Reason: "applied; foo and bar are ignored"})
		require.NoError(t, err)
		checkWireAnswer(t, EventPreToolUse, out+"\n")
		assert.NotContains(t, out, `"foo"`)
	},
	"additionalcontext-top-level.json": func(t *testing.T) {
		out, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{AdditionalContext: "goes inside hookSpecificOutput"})
		require.NoError(t, err)
		assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"goes inside hookSpecificOutput"}}`, out)
	},
	"missing-hookeventname.json": func(t *testing.T) {
		// hookEventName is filled in by the library in every variant.
		out, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny})
		require.NoError(t, err)
		assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`, out)
	},
	"wrong-hookeventname.json": func(t *testing.T) {
		_, err := answerTo(t, "pretooluse-bash.json", &PostToolUseOutput{AdditionalContext: "answer for another event"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "a PostToolUseOutput cannot answer a PreToolUse event")
	},
	"unknown-hookeventname.json": func(t *testing.T) {
		// SessionEnd has no variant: SessionEndOutput has no event-specific
		// field, so it never writes hookSpecificOutput, and the answer
		// types of the other events refuse a SessionEnd event.
		out, err := answerTo(t, "sessionend.json", &SessionEndOutput{})
		require.NoError(t, err)
		assert.Empty(t, out)
		out, err = answerTo(t, "sessionend.json", &SessionEndOutput{Common: Common{SystemMessage: "bye"}})
		require.NoError(t, err)
		assert.Equal(t, `{"systemMessage":"bye"}`, out)
		_, err = answerTo(t, "sessionend.json", &StopOutput{AdditionalContext: "x"})
		assert.ErrorContains(t, err, "cannot answer a SessionEnd event")
	},
	"bad-enum-permissiondecision.json": func(t *testing.T) {
		_, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: "approve"})
		assert.ErrorContains(t, err, `permission decision "approve" is not one of allow, deny, ask, defer`)
	},
	"bad-enum-toplevel-decision.json": func(t *testing.T) {
		// The top-level decision is written only as "block" (Block fields)
		// or, for PreToolUse's legacy form, "approve"/"block".
		_, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Legacy: true, Decision: Ask, Reason: "top-level decision only accepts approve|block"})
		assert.ErrorContains(t, err, "the legacy form has only approve (Allow) and block (Deny)")
		out, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Legacy: true, Decision: Deny, Reason: "x"})
		require.NoError(t, err)
		assert.Equal(t, `{"decision":"block","reason":"x"}`, out)
	},
	"wrong-type-continue.json": func(t *testing.T) {
		// Halt is a bool, written as the JSON literal false.
		out, err := answerTo(t, "stop.json", &StopOutput{Common: Common{Halt: true}})
		require.NoError(t, err)
		assert.Equal(t, `{"continue":false}`, out)
	},
	"permissionrequest-missing-decision.json": func(t *testing.T) {
		_, err := answerTo(t, "permissionrequest-bash.json", &PermissionRequestOutput{Message: "no behavior"})
		assert.ErrorContains(t, err, "needs a Decision")
		out, err := answerTo(t, "permissionrequest-bash.json", &PermissionRequestOutput{Common: Common{SystemMessage: "only a message"}})
		require.NoError(t, err)
		assert.Equal(t, `{"systemMessage":"only a message"}`, out, "no variant without its decision")
	},
	"updatedinput-empty.json": func(t *testing.T) {
		_, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: Allow, UpdatedInput: raw(`{}`)})
		assert.ErrorContains(t, err, "updatedInput is empty")
	},
	"updatedinput-partial.json": func(t *testing.T) {
		_, err := answerTo(t, "pretooluse-bash.json", &PreToolUseOutput{Decision: Allow, UpdatedInput: raw(`{"description":"only the description"}`)})
		assert.ErrorContains(t, err, "updatedInput is partial: it lacks /command, /timeout")
	},
	"not-json-trailing-comma.txt": func(t *testing.T) {
		checkTextCannotLookLikeJSON(t, readFixture(t, "outputs/invalid/not-json-trailing-comma.txt"))
	},
	"json-lines.txt": func(t *testing.T) {
		checkTextCannotLookLikeJSON(t, readFixture(t, "outputs/invalid/json-lines.txt"))
	},
	"truncated-object.txt": func(t *testing.T) {
		checkTextCannotLookLikeJSON(t, readFixture(t, "outputs/invalid/truncated-object.txt"))
	},
	"banner-then-json.txt": func(t *testing.T) {
		// A JSON answer is written alone, from its first byte: Serve's
		// stdout for every output fixture starts with "{" (checked by
		// checkWireAnswer). A plain-text answer is plain text on
		// purpose: Claude Code reads it as text, which is its meaning.
		code, stdout, _ := serveAnswer(t, "userpromptsubmit.json", func(t *testing.T, e any) Output {
			return &UserPromptSubmitOutput{Block: true, Reason: "never parsed"}
		})
		require.Equal(t, ExitOK, code)
		assert.Equal(t, `{"decision":"block","reason":"never parsed"}`+"\n", stdout)
	},
}

// checkTextCannotLookLikeJSON shows that the broken JSON of a .txt case
// can be written neither as a JSON answer (the library encodes those) nor
// as a plain-text answer (refused when it starts with "{").
func checkTextCannotLookLikeJSON(t *testing.T, text []byte) {
	t.Helper()
	for _, out := range []Output{
		&UserPromptSubmitOutput{Text: string(text)},
		&UserPromptSubmitOutput{Text: "  \n" + string(text)},
	} {
		_, err := answerTo(t, "userpromptsubmit.json", out)
		assert.ErrorContains(t, err, `Text starts with "{"`)
	}
	_, err := answerTo(t, "sessionstart-startup.json", &SessionStartOutput{Text: string(text)})
	assert.ErrorContains(t, err, `Text starts with "{"`)
}

func TestEveryInvalidOutputIsRefusedOrImpossible(t *testing.T) {
	files := outputFiles(t, filepath.Join("outputs", "invalid"))
	assert.Len(t, invalidCases, len(files), "one case per file in outputs/invalid/")
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			c, ok := invalidCases[name]
			require.True(t, ok, "no case shows outputs/invalid/%s refused or impossible", name)
			c(t)
		})
	}
}
