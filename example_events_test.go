package hook_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gohooks/hook"
)

// A Stop hook that sends Claude back to work once, and lets it stop when
// the turn already goes on because of a Stop hook.
func ExampleStopFunc() {
	h := hook.StopFunc(func(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
		if e.StopHookActive {
			return nil, nil
		}
		return &hook.StopOutput{Block: true, Reason: "Run the test suite before finishing."}, nil
	})
	in := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"Stop","stop_hook_active":false}` + "\n"
	code := hook.Serve(context.Background(), strings.NewReader(in), os.Stdout, os.Stderr, h)
	fmt.Println("exit", code)
	// Output:
	// {"decision":"block","reason":"Run the test suite before finishing."}
	// exit 0
}

// A PermissionRequest hook that picks the first "always allow" choice the
// dialog would offer for git commands, and refuses everything else.
func ExamplePermissionRequestFunc() {
	h := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil || e.ToolName != hook.ToolBash || !strings.HasPrefix(in.Command, "git ") {
			return &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "only git commands are approved by this hook"}, nil
		}
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedPermissions: e.PermissionSuggestions[:1]}, nil
	})
	in := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PermissionRequest",` +
		`"tool_name":"Bash","tool_input":{"command":"git push","description":"Push"},` +
		`"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"git push *"}],"behavior":"allow","destination":"localSettings"}]}` + "\n"
	hook.Serve(context.Background(), strings.NewReader(in), os.Stdout, os.Stderr, h)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"git push *"}],"behavior":"allow","destination":"localSettings"}]}}}
}

// A PostToolUse hook that redacts a secret from what Claude sees of a Bash
// result. hook.Edit changes stdout and keeps every other member of the
// tool_response byte for byte.
func ExamplePostToolUseFunc() {
	h := hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		if e.ToolName != hook.ToolBash {
			return nil, nil
		}
		out, err := hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error {
			r.Stdout = strings.ReplaceAll(r.Stdout, "hunter2", "[redacted]")
			return nil
		})
		if err != nil {
			return nil, err
		}
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, nil
	})
	in := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"PostToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"cat .env"},"tool_response":{"stdout":"PASSWORD=hunter2","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},` +
		`"tool_use_id":"toolu_1"}` + "\n"
	hook.Serve(context.Background(), strings.NewReader(in), os.Stdout, os.Stderr, h)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"PASSWORD=[redacted]","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}}}
}

// One hook binary for several events: a Mux dispatches each event to its
// typed adapter.
func ExampleMux_events() {
	m := hook.NewMux()
	m.Handle(hook.EventSessionStart, hook.SessionStartFunc(func(ctx context.Context, e *hook.SessionStart) (*hook.SessionStartOutput, error) {
		return &hook.SessionStartOutput{AdditionalContext: "Session " + string(e.Source) + " in " + e.Cwd}, nil
	}))
	m.Handle(hook.EventPreSkillShellCommand, hook.PreSkillShellCommandFunc(func(ctx context.Context, e *hook.PreSkillShellCommand) (*hook.PreSkillShellCommandOutput, error) {
		cmd, err := e.Command()
		if err != nil || strings.Contains(cmd, "git push") {
			return &hook.PreSkillShellCommandOutput{Decision: hook.Deny, Reason: "skills may not push"}, nil
		}
		return nil, nil
	}))
	for _, in := range []string{
		`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"SessionStart","source":"startup"}`,
		`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"git push origin main"},"tool_use_id":"u","command_name":"release","invoked_by":"user"}`,
		`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"SessionEnd","reason":"other"}`,
	} {
		code := hook.Serve(context.Background(), strings.NewReader(in+"\n"), os.Stdout, os.Stderr, m)
		fmt.Println("exit", code)
	}
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Session startup in /repo"}}
	// exit 0
	// {"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"skills may not push"}}
	// exit 0
	// exit 0
}
