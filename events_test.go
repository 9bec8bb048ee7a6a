package hook

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsstr"
	"github.com/gohooks/hook/internal/wire"
)

// serveCase is one run of Serve: an input fixture, a handler, and the
// exact stdout, stderr and exit code expected.
type serveCase struct {
	name   string
	in     string
	h      Handler
	code   int
	stdout string
	stderr string
}

// serveCases holds a representative answer for each of the 35 events, and
// a blocking or refused answer for some.
var serveCases = []serveCase{
	{"PreToolUse deny", "pretooluse-bash.json",
		PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
			return &PreToolUseOutput{Decision: Deny, Reason: "no " + e.ToolName}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no Bash"}}` + "\n", ""},
	{"PreToolUse block", "pretooluse-bash.json",
		PreToolUseFunc(func(context.Context, *PreToolUse) (*PreToolUseOutput, error) {
			return nil, Block("rm is not allowed")
		}), ExitBlock, "", "rm is not allowed\n"},
	{"PermissionRequest allow with rewritten input", "permissionrequest-edit.json",
		PermissionRequestFunc(func(_ context.Context, e *PermissionRequest) (*PermissionRequestOutput, error) {
			upd, err := Edit(e.ToolInput, func(in *EditInput) error { in.ReplaceAll = true; return nil })
			return &PermissionRequestOutput{Decision: Allow, UpdatedInput: upd, UpdatedPermissions: e.PermissionSuggestions}, err
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"file_path":"/home/dev/acme-api/src/server.ts","old_string":"app.listen(port);","new_string":"app.listen(port, () => log.info(` + "`listening on ${port}`" + `));","replace_all":true},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}` + "\n", ""},
	{"PermissionRequest deny", "permissionrequest-mcp.json",
		PermissionRequestFunc(func(context.Context, *PermissionRequest) (*PermissionRequestOutput, error) {
			return &PermissionRequestOutput{Decision: Deny, Message: "no PRs today"}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no PRs today"}}}` + "\n", ""},
	{"PermissionDenied retry", "permissiondenied-bash.json",
		PermissionDeniedFunc(func(context.Context, *PermissionDenied) (*PermissionDeniedOutput, error) {
			return &PermissionDeniedOutput{Retry: true}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}` + "\n", ""},
	{"PostToolUse block with context", "posttooluse-bash.json",
		PostToolUseFunc(func(context.Context, *PostToolUse) (*PostToolUseOutput, error) {
			return &PostToolUseOutput{Block: true, Reason: "tests are flaky", AdditionalContext: "rerun once"}, nil
		}), ExitOK, `{"decision":"block","reason":"tests are flaky","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"rerun once"}}` + "\n", ""},
	{"PostToolUseFailure context", "posttoolusefailure-bash.json",
		PostToolUseFailureFunc(func(context.Context, *PostToolUseFailure) (*PostToolUseFailureOutput, error) {
			return &PostToolUseFailureOutput{AdditionalContext: "run npm ci"}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"run npm ci"}}` + "\n", ""},
	{"PostToolBatch halt", "posttoolbatch.json",
		PostToolBatchFunc(func(context.Context, *PostToolBatch) (*PostToolBatchOutput, error) {
			return &PostToolBatchOutput{Common: Common{Halt: true, StopReason: "enough"}}, nil
		}), ExitOK, `{"continue":false,"stopReason":"enough"}` + "\n", ""},
	{"PostToolBatch block", "posttoolbatch-mixed.json",
		PostToolBatchFunc(func(context.Context, *PostToolBatch) (*PostToolBatchOutput, error) {
			return nil, Block("stop the loop")
		}), ExitBlock, "", "stop the loop\n"},
	{"Notification terminal sequence", "notification-permission_prompt.json",
		NotificationFunc(func(_ context.Context, e *Notification) (*NotificationOutput, error) {
			return &NotificationOutput{Common: Common{TerminalSequence: "\x1b]9;" + e.Title + "\a"}}, nil
		}), ExitOK, `{"terminalSequence":"\u001b]9;Permission needed\u0007"}` + "\n", ""},
	{"UserPromptSubmit context and title", "userpromptsubmit-titled.json",
		UserPromptSubmitFunc(func(_ context.Context, e *UserPromptSubmit) (*UserPromptSubmitOutput, error) {
			return &UserPromptSubmitOutput{AdditionalContext: "PORT is read in src/server.ts", SessionTitle: e.SessionTitle + " (port)"}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"PORT is read in src/server.ts","sessionTitle":"health endpoint (port)"}}` + "\n", ""},
	{"UserPromptSubmit block", "userpromptsubmit.json",
		UserPromptSubmitFunc(func(context.Context, *UserPromptSubmit) (*UserPromptSubmitOutput, error) {
			return nil, Block("not now")
		}), ExitBlock, "", "not now\n"},
	{"UserPromptExpansion block", "userpromptexpansion.json",
		UserPromptExpansionFunc(func(_ context.Context, e *UserPromptExpansion) (*UserPromptExpansionOutput, error) {
			return &UserPromptExpansionOutput{Block: true, Reason: "/" + e.CommandName + " is disabled", SuppressOriginalPrompt: true}, nil
		}), ExitOK, `{"decision":"block","reason":"/deploy is disabled","hookSpecificOutput":{"hookEventName":"UserPromptExpansion","suppressOriginalPrompt":true}}` + "\n", ""},
	{"SessionStart clears the watch list", "sessionstart-clear.json",
		SessionStartFunc(func(context.Context, *SessionStart) (*SessionStartOutput, error) {
			return &SessionStartOutput{WatchPaths: []string{}}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":[]}}` + "\n", ""},
	{"SessionEnd system message", "sessionend.json",
		SessionEndFunc(func(_ context.Context, e *SessionEnd) (*SessionEndOutput, error) {
			return &SessionEndOutput{Common: Common{SystemMessage: "bye: " + string(e.Reason)}}, nil
		}), ExitOK, `{"systemMessage":"bye: prompt_input_exit"}` + "\n", ""},
	{"Stop block", "stop.json",
		StopFunc(func(_ context.Context, e *Stop) (*StopOutput, error) {
			if e.StopHookActive {
				return nil, nil
			}
			return &StopOutput{Block: true, Reason: "run the tests"}, nil
		}), ExitOK, `{"decision":"block","reason":"run the tests"}` + "\n", ""},
	{"Stop already continuing", "stop-active.json",
		StopFunc(func(_ context.Context, e *Stop) (*StopOutput, error) {
			if e.StopHookActive {
				return nil, nil
			}
			return &StopOutput{Block: true, Reason: "run the tests"}, nil
		}), ExitOK, "", ""},
	{"StopFailure bell", "stopfailure.json",
		StopFailureFunc(func(context.Context, *StopFailure) (*StopFailureOutput, error) {
			return &StopFailureOutput{Common: Common{TerminalSequence: "\a"}}, nil
		}), ExitOK, `{"terminalSequence":"\u0007"}` + "\n", ""},
	{"Interrupt read", "interrupt.json",
		InterruptFunc(func(_ context.Context, e *Interrupt) (*InterruptOutput, error) {
			return &InterruptOutput{Common: Common{SystemMessage: string(e.Source) + " " + string(e.Reason) + " via " + string(e.Via)}}, nil
		}), ExitOK, `{"systemMessage":"user stop via client"}` + "\n", ""},
	{"SubagentStart context", "subagentstart.json",
		SubagentStartFunc(func(_ context.Context, e *SubagentStart) (*SubagentStartOutput, error) {
			return &SubagentStartOutput{AdditionalContext: "you are " + e.AgentID}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"you are a882a806d90a12026"}}` + "\n", ""},
	{"SubagentStop block", "subagentstop.json",
		SubagentStopFunc(func(context.Context, *SubagentStop) (*SubagentStopOutput, error) {
			return &SubagentStopOutput{Block: true, Reason: "add the POST routes"}, nil
		}), ExitOK, `{"decision":"block","reason":"add the POST routes"}` + "\n", ""},
	{"PreCompact block", "precompact-auto.json",
		PreCompactFunc(func(context.Context, *PreCompact) (*PreCompactOutput, error) {
			return &PreCompactOutput{Block: true}, nil
		}), ExitOK, `{"decision":"block","reason":"blocked by hook"}` + "\n", ""},
	{"PostCompact nothing", "postcompact.json",
		PostCompactFunc(func(context.Context, *PostCompact) (*PostCompactOutput, error) {
			return &PostCompactOutput{}, nil
		}), ExitOK, "", ""},
	{"PreModelSwitch ask", "premodelswitch.json",
		PreModelSwitchFunc(func(_ context.Context, e *PreModelSwitch) (*PreModelSwitchOutput, error) {
			return &PreModelSwitchOutput{Decision: Ask, Reason: "switching to " + e.ToModel}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"ask","permissionDecisionReason":"switching to claude-opus-5-5"}}` + "\n", ""},
	{"PreModelSwitch defer refused", "premodelswitch.json",
		PreModelSwitchFunc(func(context.Context, *PreModelSwitch) (*PreModelSwitchOutput, error) {
			return &PreModelSwitchOutput{Decision: Defer}, nil
		}), ExitError, "", `hook: invalid answer to PreModelSwitch: permission decision "defer" is not one of allow, deny, ask (a model switch cannot be deferred)` + "\n"},
	{"PostModelSwitch context", "postmodelswitch.json",
		PostModelSwitchFunc(func(context.Context, *PostModelSwitch) (*PostModelSwitchOutput, error) {
			return &PostModelSwitchOutput{AdditionalContext: "be brief"}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PostModelSwitch","additionalContext":"be brief"}}` + "\n", ""},
	{"Setup context", "setup.json",
		SetupFunc(func(_ context.Context, e *Setup) (*SetupOutput, error) {
			return &SetupOutput{AdditionalContext: "setup " + string(e.Trigger)}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"Setup","additionalContext":"setup init"}}` + "\n", ""},
	{"TeammateIdle halt", "teammateidle.json",
		TeammateIdleFunc(func(_ context.Context, e *TeammateIdle) (*TeammateIdleOutput, error) {
			return &TeammateIdleOutput{Common: Common{Halt: true, StopReason: e.TeammateName + " is done"}}, nil
		}), ExitOK, `{"continue":false,"stopReason":"researcher is done"}` + "\n", ""},
	{"TaskCreated block", "taskcreated.json",
		TaskCreatedFunc(func(_ context.Context, e *TaskCreated) (*TaskCreatedOutput, error) {
			return &TaskCreatedOutput{Block: true, Reason: "no ticket id in " + e.TaskSubject}, nil
		}), ExitOK, `{"decision":"block","reason":"no ticket id in Add rate limiting to /login"}` + "\n", ""},
	{"TaskCompleted refused by exit 2", "taskcompleted.json",
		TaskCompletedFunc(func(context.Context, *TaskCompleted) (*TaskCompletedOutput, error) {
			return nil, Block("tests missing")
		}), ExitBlock, "", "tests missing\n"},
	{"Elicitation accept", "elicitation-form.json",
		ElicitationFunc(func(context.Context, *Elicitation) (*ElicitationOutput, error) {
			content, err := Merge([]byte(`{}`), map[string]string{"environment": "staging"})
			return &ElicitationOutput{Action: ElicitationAccept, Content: content}, err
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"environment":"staging"}}}` + "\n", ""},
	{"Elicitation block", "elicitation-url.json",
		ElicitationFunc(func(context.Context, *Elicitation) (*ElicitationOutput, error) {
			return &ElicitationOutput{Block: true, Reason: "no sign-in from hooks"}, nil
		}), ExitOK, `{"decision":"block","reason":"no sign-in from hooks"}` + "\n", ""},
	{"ElicitationResult cancel", "elicitationresult.json",
		ElicitationResultFunc(func(context.Context, *ElicitationResult) (*ElicitationResultOutput, error) {
			return &ElicitationResultOutput{Action: ElicitationCancel}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"cancel"}}` + "\n", ""},
	{"ConfigChange block", "configchange.json",
		ConfigChangeFunc(func(context.Context, *ConfigChange) (*ConfigChangeOutput, error) {
			return &ConfigChangeOutput{Block: true, Reason: "review first"}, nil
		}), ExitOK, `{"decision":"block","reason":"review first"}` + "\n", ""},
	{"WorktreeCreate JSON form", "worktreecreate.json",
		WorktreeCreateFunc(func(_ context.Context, e *WorktreeCreate) (*WorktreeCreateOutput, error) {
			return &WorktreeCreateOutput{WorktreePath: "/srv/worktrees/" + e.Name, JSONForm: true}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/srv/worktrees/bold-oak-a3f2"}}` + "\n", ""},
	{"WorktreeCreate failure", "worktreecreate.json",
		WorktreeCreateFunc(func(context.Context, *WorktreeCreate) (*WorktreeCreateOutput, error) {
			return nil, errors.New("git worktree add failed")
		}), ExitError, "", "hook: git worktree add failed\n"},
	{"WorktreeRemove nothing", "worktreeremove.json",
		WorktreeRemoveFunc(func(context.Context, *WorktreeRemove) (*WorktreeRemoveOutput, error) {
			return nil, nil
		}), ExitOK, "", ""},
	{"InstructionsLoaded system message", "instructionsloaded.json",
		InstructionsLoadedFunc(func(_ context.Context, e *InstructionsLoaded) (*InstructionsLoadedOutput, error) {
			return &InstructionsLoadedOutput{Common: Common{SystemMessage: "loaded " + string(e.LoadReason)}}, nil
		}), ExitOK, `{"systemMessage":"loaded session_start"}` + "\n", ""},
	{"CwdChanged watch list", "cwdchanged.json",
		CwdChangedFunc(func(_ context.Context, e *CwdChanged) (*CwdChangedOutput, error) {
			return &CwdChangedOutput{WatchPaths: []string{e.NewCwd + "/.env"}}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":["/home/dev/acme-api/packages/web/.env"]}}` + "\n", ""},
	{"FileChanged clears the watch list", "filechanged.json",
		FileChangedFunc(func(context.Context, *FileChanged) (*FileChangedOutput, error) {
			return &FileChangedOutput{WatchPaths: []string{}}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"FileChanged","watchPaths":[]}}` + "\n", ""},
	{"DirectoryAdded context for Claude", "directoryadded.json",
		DirectoryAddedFunc(func(_ context.Context, e *DirectoryAdded) (*DirectoryAddedOutput, error) {
			return &DirectoryAddedOutput{Common: Common{SystemMessage: e.Directory + " is read-only"}}, nil
		}), ExitOK, `{"systemMessage":"/home/dev/acme-shared is read-only"}` + "\n", ""},
	{"MessageDisplay replaces the delta", "messagedisplay.json",
		MessageDisplayFunc(func(_ context.Context, e *MessageDisplay) (*MessageDisplayOutput, error) {
			return &MessageDisplayOutput{DisplayContent: strings.ToUpper(e.Delta)}, nil
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"MessageDisplay","displayContent":"HERE IS THE PLAN:\n1. ADD **SRC/HEALTH.TS**\n"}}` + "\n", ""},
	{"PreSkillShellCommand deny", "preskillshellcommand.json",
		PreSkillShellCommandFunc(func(_ context.Context, e *PreSkillShellCommand) (*PreSkillShellCommandOutput, error) {
			cmd, err := e.Command()
			return &PreSkillShellCommandOutput{Decision: Deny, Reason: "no " + cmd}, err
		}), ExitOK, `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no git log --oneline -5"}}` + "\n", ""},
	{"PreSkillShellCommand ask refused", "preskillshellcommand.json",
		PreSkillShellCommandFunc(func(context.Context, *PreSkillShellCommand) (*PreSkillShellCommandOutput, error) {
			return &PreSkillShellCommandOutput{Decision: Ask}, nil
		}), ExitError, "", `hook: invalid answer to PreSkillShellCommand: a skill's shell command cannot wait for approval: Claude Code turns "ask" into a block; use Deny to block` + "\n"},
	{"Async announcement", "posttooluse-bash.json",
		HandlerFunc(func(context.Context, *Event) (Output, error) {
			return Async{Timeout: 90 * time.Second}, nil
		}), ExitOK, `{"async":true,"asyncTimeout":90000}` + "\n", ""},
}

func TestServeEveryEvent(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range serveCases {
		t.Run(c.name, func(t *testing.T) {
			wire := append(compactFixture(t, readFixture(t, c.in)), '\n')
			event := eventFromBytes(t, wire).HookEventName
			seen[event] = true
			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), bytes.NewReader(wire), &stdout, &stderr, c.h)
			assert.Equal(t, c.code, code)
			assert.Equal(t, c.stdout, stdout.String())
			assert.Equal(t, c.stderr, stderr.String())
			if stdout.Len() > 0 {
				assert.Equal(t, ExitOK, code, "stdout is written only with exit 0")
				checkWireAnswer(t, event, stdout.String())
			}
		})
	}
	for name := range adapters {
		assert.True(t, seen[name], "no Serve case for %s", name)
	}
}

// refusal is an answer the library refuses for an input fixture, with a
// part of the error it gives.
type refusal struct {
	in  string
	out Output
	err string
}

var refusals = map[string]refusal{
	"stop reason without halt":           {"stop.json", &StopOutput{Common: Common{StopReason: "x"}}, "StopReason is set but Halt is not"},
	"terminal sequence plain text":       {"stop.json", &StopOutput{Common: Common{TerminalSequence: "hello"}}, "not made of OSC sequences"},
	"terminal sequence OSC 52":           {"stop.json", &StopOutput{Common: Common{TerminalSequence: "\x1b]52;c;eA==\a"}}, `uses OSC "52"`},
	"terminal sequence unterminated":     {"stop.json", &StopOutput{Common: Common{TerminalSequence: "\x1b]0;title"}}, "without its BEL"},
	"terminal sequence OSC 9 digit":      {"stop.json", &StopOutput{Common: Common{TerminalSequence: "\x1b]9;1 new\a"}}, "9;4 progress form"},
	"pretooluse reason without decision": {"pretooluse-bash.json", &PreToolUseOutput{Reason: "x"}, "needs a decision"},
	"pretooluse removed without input":   {"pretooluse-bash.json", &PreToolUseOutput{Removed: []string{"timeout"}}, "Removed is set without UpdatedInput"},
	"pretooluse legacy with context":     {"pretooluse-bash.json", &PreToolUseOutput{Legacy: true, Decision: Allow, AdditionalContext: "x"}, "legacy form cannot carry"},
	"pretooluse input not an object":     {"pretooluse-bash.json", &PreToolUseOutput{UpdatedInput: raw(`["ls"]`)}, "updatedInput must be one JSON object"},
	"permissionrequest ask":              {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Ask}, `"ask" is not allow or deny`},
	"permissionrequest partial input":    {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, UpdatedInput: raw(`{"command":"ls"}`)}, "lacks /description"},
	"permissionrequest deny with input":  {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Deny, UpdatedInput: raw(`{"command":"ls","description":"d"}`)}, "belong to an Allow"},
	"permissionrequest allow message":    {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, Interrupt: true}, "belong to a Deny"},
	"permissionrequest bad update":       {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, UpdatedPermissions: []PermissionUpdate{{Type: PermissionUpdateAddRules, Destination: DestinationSession, Behavior: BehaviorAllow}}}, "UpdatedPermissions[0]: a addRules update needs at least one rule"},
	"permissionrequest bad destination":  {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, UpdatedPermissions: []PermissionUpdate{{Type: PermissionUpdateSetMode, Mode: PermissionModePlan, Destination: "global"}}}, `destination "global"`},
	"permissionrequest mode with rules":  {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, UpdatedPermissions: []PermissionUpdate{{Type: PermissionUpdateSetMode, Mode: PermissionModePlan, Destination: DestinationSession, Directories: []string{"/x"}}}}, "takes no Directories"},
	"permissionrequest bad mode":         {"permissionrequest-bash.json", &PermissionRequestOutput{Decision: Allow, UpdatedPermissions: []PermissionUpdate{{Type: PermissionUpdateSetMode, Mode: "yolo", Destination: DestinationSession}}}, `not "yolo"`},
	"posttooluse reason without block":   {"posttooluse-bash.json", &PostToolUseOutput{Reason: "x"}, "Reason is set but Block is not"},
	"posttooluse output of another kind": {"posttooluse-bash.json", &PostToolUseOutput{UpdatedToolOutput: raw(`"just text"`)}, "is a JSON string but Bash's result is a JSON object"},
	"posttooluse output lacking members": {"posttooluse-bash.json", &PostToolUseOutput{UpdatedToolOutput: raw(`{"stdout":"x"}`)}, "lacks stderr, interrupted"},
	"posttooluse null output":            {"posttooluse-bash.json", &PostToolUseOutput{UpdatedToolOutput: raw(`null`)}, "UpdatedToolOutput is null"},
	"posttooluse invalid output":         {"posttooluse-mcp-listen_here.json", &PostToolUseOutput{UpdatedToolOutput: raw(`{"a":`)}, "not one valid JSON value"},
	"posttooluse mcp output on bash":     {"posttooluse-bash.json", &PostToolUseOutput{UpdatedMCPToolOutput: raw(`"x"`)}, "only applies to MCP tools"},
	"posttooluse falsy mcp output":       {"posttooluse-mcp-listen_here.json", &PostToolUseOutput{UpdatedMCPToolOutput: raw(`0.0`)}, "falsy"},
	"posttooluse both outputs":           {"posttooluse-mcp-listen_here.json", &PostToolUseOutput{UpdatedToolOutput: raw(`"a"`), UpdatedMCPToolOutput: raw(`"b"`)}, "set only one"},
	"posttoolbatch reason alone":         {"posttoolbatch.json", &PostToolBatchOutput{Reason: "x"}, "Reason is set but Block is not"},
	"userpromptsubmit suppress alone":    {"userpromptsubmit.json", &UserPromptSubmitOutput{SuppressOriginalPrompt: true}, "set Block"},
	"userpromptsubmit text and title":    {"userpromptsubmit.json", &UserPromptSubmitOutput{Text: "ctx", SessionTitle: "t"}, "must be the whole answer"},
	"userpromptsubmit blank text":        {"userpromptsubmit.json", &UserPromptSubmitOutput{Text: " \n\t"}, "Text is blank"},
	"userpromptsubmit text with halt":    {"userpromptsubmit.json", &UserPromptSubmitOutput{Text: "ctx", Common: Common{Halt: true}}, "must be the whole answer"},
	"userpromptexpansion suppress alone": {"userpromptexpansion.json", &UserPromptExpansionOutput{SuppressOriginalPrompt: true}, "set Block"},
	"sessionstart text json":             {"sessionstart-startup.json", &SessionStartOutput{Text: `{"async":true}`}, `Text starts with "{"`},
	"postmodelswitch text and context":   {"postmodelswitch.json", &PostModelSwitchOutput{Text: "a", AdditionalContext: "b"}, "must be the whole answer"},
	"precompact text and block":          {"precompact-manual.json", &PreCompactOutput{Text: "a", Block: true}, "must be the whole answer"},
	"elicitation content with decline":   {"elicitation-form.json", &ElicitationOutput{Action: ElicitationDecline, Content: raw(`{"environment":"staging"}`)}, "only used with accept"},
	"elicitation content not an object":  {"elicitation-form.json", &ElicitationOutput{Action: ElicitationAccept, Content: raw(`["staging"]`)}, "must be one JSON object"},
	"elicitation bad action":             {"elicitation-form.json", &ElicitationOutput{Action: "approve"}, `"approve" is not one of accept, decline, cancel`},
	"elicitation block and action":       {"elicitation-form.json", &ElicitationOutput{Block: true, Action: ElicitationAccept}, "cannot be combined"},
	"elicitationresult content null":     {"elicitationresult.json", &ElicitationResultOutput{Action: ElicitationAccept, Content: raw(`null`)}, "must be one JSON object"},
	"worktreecreate no path":             {"worktreecreate.json", &WorktreeCreateOutput{}, "WorktreePath is required"},
	"worktreecreate relative":            {"worktreecreate.json", &WorktreeCreateOutput{WorktreePath: "wt/bold-oak"}, "is not absolute"},
	"worktreecreate dot-dot":             {"worktreecreate.json", &WorktreeCreateOutput{WorktreePath: "/home/dev/../wt"}, `has a ".." segment`},
	"worktreecreate two lines":           {"worktreecreate.json", &WorktreeCreateOutput{WorktreePath: "/a\n/b"}, "line break"},
	"worktreecreate common":              {"worktreecreate.json", &WorktreeCreateOutput{WorktreePath: "/wt", Common: Common{SystemMessage: "x"}}, "need JSONForm"},
	"preskill updated reason":            {"preskillshellcommand.json", &PreSkillShellCommandOutput{Reason: "x"}, "needs a decision"},
	"preskill defer":                     {"preskillshellcommand.json", &PreSkillShellCommandOutput{Decision: Defer}, "cannot wait for approval"},
	"answer for another event":           {"stop.json", &SubagentStopOutput{Block: true, Reason: "x"}, "a SubagentStopOutput cannot answer a Stop event"},
	"async negative":                     {"stop.json", Async{Timeout: -time.Second}, "negative"},
	"async sub-millisecond":              {"stop.json", Async{Timeout: time.Microsecond}, "less than a millisecond"},
}

func TestAnswersRefusedBeforeWriting(t *testing.T) {
	for name, r := range refusals {
		t.Run(name, func(t *testing.T) {
			ev := fixtureEvent(t, r.in)
			b, err := r.out.appendAnswer([]byte("kept"), ev)
			require.Error(t, err)
			assert.Contains(t, err.Error(), r.err)
			assert.Equal(t, "kept", string(b), "nothing is appended on error")

			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), bytes.NewReader(append(bytes.Clone(ev.Raw()), '\n')), &stdout, &stderr,
				HandlerFunc(func(context.Context, *Event) (Output, error) { return r.out, nil }))
			assert.Equal(t, ExitError, code)
			assert.Empty(t, stdout.String(), "a refused answer writes nothing on stdout")
			assert.Contains(t, stderr.String(), r.err)
		})
	}
}

func TestConfigChangePolicyCannotBeBlocked(t *testing.T) {
	ev := fixtureEvent(t, "configchange.json")
	b, err := (&ConfigChangeOutput{Block: true}).appendAnswer(nil, ev)
	require.NoError(t, err, "project_settings can be blocked")
	assert.Equal(t, `{"decision":"block","reason":"blocked by hook"}`, string(b))

	policy := bytes.Replace(ev.Raw(), []byte(`"project_settings"`), []byte(`"policy_settings"`), 1)
	_, err = (&ConfigChangeOutput{Block: true}).appendAnswer(nil, eventFromBytes(t, policy))
	assert.ErrorContains(t, err, "a policy_settings change cannot be blocked")
}

func TestTerminalSequencesClaudeCodeWrites(t *testing.T) {
	for _, s := range []string{
		"\a",
		"\x1b]0;title\a",
		"\x1b]2;title\x1b\\",
		"\x1b]9;build done\a",
		"\x1b]9;4;1;50\a",
		"\x1b]99;i=1;hello\x1b\\",
		"\x1b]777;notify;Claude Code;Needs you\a\a",
		"\x1b]1;Zürich ☕\a",
	} {
		assert.NoError(t, checkTerminalSequence(s), "%q", s)
	}
}

func TestEmptyAnswersWriteNothing(t *testing.T) {
	empty := map[string]Output{
		"pretooluse-bash.json":          &PreToolUseOutput{},
		"permissionrequest-bash.json":   &PermissionRequestOutput{},
		"permissiondenied-bash.json":    &PermissionDeniedOutput{},
		"posttooluse-bash.json":         &PostToolUseOutput{},
		"posttoolusefailure-bash.json":  &PostToolUseFailureOutput{},
		"posttoolbatch.json":            &PostToolBatchOutput{},
		"notification-idle_prompt.json": &NotificationOutput{},
		"userpromptsubmit.json":         &UserPromptSubmitOutput{},
		"userpromptexpansion.json":      &UserPromptExpansionOutput{},
		"sessionstart-startup.json":     &SessionStartOutput{},
		"sessionend.json":               &SessionEndOutput{},
		"stop.json":                     &StopOutput{},
		"stopfailure.json":              &StopFailureOutput{},
		"interrupt.json":                &InterruptOutput{},
		"subagentstart.json":            &SubagentStartOutput{},
		"subagentstop.json":             &SubagentStopOutput{},
		"precompact-manual.json":        &PreCompactOutput{},
		"postcompact.json":              &PostCompactOutput{},
		"premodelswitch.json":           &PreModelSwitchOutput{},
		"postmodelswitch.json":          &PostModelSwitchOutput{},
		"setup.json":                    &SetupOutput{},
		"teammateidle.json":             &TeammateIdleOutput{},
		"taskcreated.json":              &TaskCreatedOutput{},
		"taskcompleted.json":            &TaskCompletedOutput{},
		"elicitation-form.json":         &ElicitationOutput{},
		"elicitationresult.json":        &ElicitationResultOutput{},
		"configchange.json":             &ConfigChangeOutput{},
		"worktreeremove.json":           &WorktreeRemoveOutput{},
		"instructionsloaded.json":       &InstructionsLoadedOutput{},
		"cwdchanged.json":               &CwdChangedOutput{},
		"filechanged.json":              &FileChangedOutput{},
		"directoryadded.json":           &DirectoryAddedOutput{},
		"messagedisplay.json":           &MessageDisplayOutput{},
		"preskillshellcommand.json":     &PreSkillShellCommandOutput{},
	}
	assert.Len(t, empty, 34, "every event but WorktreeCreate, whose answer needs a path")
	for in, out := range empty {
		b, err := out.appendAnswer(nil, fixtureEvent(t, in))
		assert.NoError(t, err, in)
		assert.Empty(t, string(b), in)
	}
}

func TestPlainTextAnswers(t *testing.T) {
	cases := []struct {
		in   string
		out  Output
		want string
	}{
		{"userpromptsubmit.json", &UserPromptSubmitOutput{Text: "\n  Current branch: feat/health\n"}, "Current branch: feat/health"},
		{"userpromptexpansion.json", &UserPromptExpansionOutput{Text: "checklist: tests"}, "checklist: tests"},
		{"sessionstart-startup.json", &SessionStartOutput{Text: "Welcome!\n{\"not\":\"json\"}"}, "Welcome!\n{\"not\":\"json\"}"},
		{"precompact-manual.json", &PreCompactOutput{Text: "Keep the failing tests."}, "Keep the failing tests."},
		{"postcompact.json", &PostCompactOutput{Text: "Compacted."}, "Compacted."},
		{"postmodelswitch.json", &PostModelSwitchOutput{Text: "Now on Opus."}, "Now on Opus."},
		{"worktreecreate.json", &WorktreeCreateOutput{WorktreePath: "/srv/wt/bold-oak-a3f2"}, "/srv/wt/bold-oak-a3f2"},
	}
	for _, c := range cases {
		ev := fixtureEvent(t, c.in)
		b, err := c.out.appendAnswer(nil, ev)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, string(b), c.in)
		pt, ok := c.out.(plainTextAnswer)
		require.True(t, ok)
		assert.True(t, pt.plainText(), c.in)
	}
	// The JSON forms of the same answer types are not plain text.
	for _, out := range []plainTextAnswer{&UserPromptSubmitOutput{AdditionalContext: "x"}, &WorktreeCreateOutput{WorktreePath: "/wt", JSONForm: true}} {
		assert.False(t, out.plainText())
	}
}

// trickyStrings are texts that hand-built JSON gets wrong.
var trickyStrings = []string{
	`Bob's "war room"`, `C:\rooms\ops`, "Zürich Besprechungsraum ☕", "Ops\tNight",
	`{"room":"lobby","id":1}`, "line\u2028para\u2029end", "👩‍👩‍👧‍👦 family 🏳️‍🌈",
	"<script>&amp;</script>", "a\x00b\x1f\x7f", "line one\r\nline two\r\n", "abc\u202edef", "שלום עולם مرحبا",
}

func TestTrickyStringsSurviveAnswers(t *testing.T) {
	answers := []struct {
		in    string
		out   func(s string) Output
		field func(ms map[string]any) any
	}{
		{"stop.json", func(s string) Output { return &StopOutput{Block: true, Reason: s} },
			func(m map[string]any) any { return m["reason"] }},
		{"pretooluse-bash.json", func(s string) Output { return &PreToolUseOutput{Decision: Deny, Reason: s} },
			func(m map[string]any) any {
				return m["hookSpecificOutput"].(map[string]any)["permissionDecisionReason"]
			}},
		{"posttooluse-bash.json", func(s string) Output { return &PostToolUseOutput{AdditionalContext: s} },
			func(m map[string]any) any { return m["hookSpecificOutput"].(map[string]any)["additionalContext"] }},
		{"permissionrequest-bash.json", func(s string) Output { return &PermissionRequestOutput{Decision: Deny, Message: s} },
			func(m map[string]any) any {
				return m["hookSpecificOutput"].(map[string]any)["decision"].(map[string]any)["message"]
			}},
		{"sessionstart-startup.json", func(s string) Output { return &SessionStartOutput{SessionTitle: s, WatchPaths: []string{s}} },
			func(m map[string]any) any { return m["hookSpecificOutput"].(map[string]any)["sessionTitle"] }},
		{"messagedisplay.json", func(s string) Output { return &MessageDisplayOutput{DisplayContent: s} },
			func(m map[string]any) any { return m["hookSpecificOutput"].(map[string]any)["displayContent"] }},
		{"userpromptsubmit.json", func(s string) Output { return &UserPromptSubmitOutput{Common: Common{SystemMessage: s}} },
			func(m map[string]any) any { return m["systemMessage"] }},
	}
	for _, a := range answers {
		ev := fixtureEvent(t, a.in)
		for _, s := range trickyStrings {
			b, err := a.out(s).appendAnswer(nil, ev)
			require.NoError(t, err, "%s %q", a.in, s)
			checkWireAnswer(t, ev.HookEventName, string(b)+"\n")
			var m map[string]any
			require.NoError(t, wire.Unmarshal(b, &m))
			assert.Equal(t, s, a.field(m), "%s %q", a.in, s)
		}
	}
}

func FuzzPlainText(f *testing.F) {
	for _, s := range append(trickyStrings, "", " ", "{", " \n{\"async\":true}", "ok\n{", "\xff", "\u0085", "\ufeff{") {
		f.Add(s)
	}
	ev := &Event{HookEventName: EventUserPromptSubmit}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := (&UserPromptSubmitOutput{Text: s}).appendAnswer(nil, ev)
		if s == "" {
			assert.NoError(t, err)
			assert.Empty(t, b, "an empty Text is no answer")
			return
		}
		if err != nil {
			assert.Empty(t, b)
			return
		}
		out := string(b)
		assert.NotEmpty(t, out)
		// Trimmed as Claude Code trims (JavaScript's trim: U+FEFF yes,
		// U+0085 no), and never read as a JSON answer.
		assert.Equal(t, jsstr.TrimSpace(out), out)
		assert.False(t, jsstr.LooksLikeJSON(out), "plain text never looks like a JSON answer")
		assert.True(t, utf8.ValidString(out))
	})
}
