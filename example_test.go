package hook_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// A PreToolUse payload as Claude Code writes it on the hook's stdin.
const examplePayload = `{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/home/dev/acme-api","hook_event_name":"PreToolUse","tool_name":"mcp__probe__listen_here","tool_input":{"room":"Bob's \"war room\"","seats":12345678901234567890},"tool_use_id":"toolu_01"}`

func ExampleServe() {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": "6689668a49dc648b"})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	code := hook.Serve(context.Background(), strings.NewReader(examplePayload+"\n"), os.Stdout, os.Stderr, h)
	fmt.Println("exit", code)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"room":"Bob's \"war room\"","seats":12345678901234567890,"fingerprint":"6689668a49dc648b"}}}
	// exit 0
}

func ExampleBlock() {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Block("listen_here is closed today")
	})
	code := hook.Serve(context.Background(), strings.NewReader(examplePayload), os.Stdout, os.Stdout, h)
	fmt.Println("exit", code)
	// Output:
	// listen_here is closed today
	// exit 2
}

func ExampleMerge() {
	in := jsontext.Value(`{"room":"Zürich \"HQ\"","n":2.50,"e":"\u00f6"}`)
	out, err := hook.Merge(in, map[string]string{"fingerprint": "abc"})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output: {"room":"Zürich \"HQ\"","n":2.50,"e":"\u00f6","fingerprint":"abc"}
}

func ExampleRemove() {
	out, err := hook.Remove(jsontext.Value(`{"file_path":"/a","offset":3,"limit":1}`), "offset", "limit")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output: {"file_path":"/a"}
}

func ExampleEdit() {
	in := jsontext.Value(`{"command":"npm test","description":"Run \u0074ests","timeout":120000}`)
	out, err := hook.Edit(in, func(b *hook.BashInput) error {
		b.Command = "timeout 600 " + b.Command
		return nil
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output: {"command":"timeout 600 npm test","description":"Run \u0074ests","timeout":120000}
}

func ExampleMux() {
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "read-only day"}, nil
	}))
	code := hook.Serve(context.Background(), strings.NewReader(examplePayload), os.Stdout, os.Stderr, m)
	fmt.Println("exit", code)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"read-only day"}}
	// exit 0
}

func ExampleSplitMCPToolName() {
	server, tool, ok := hook.SplitMCPToolName("mcp__probe__listen_here")
	fmt.Println(server, tool, ok)
	// Output: probe listen_here true
}

// Run is the whole main function of a hook: it serves the event on the
// process's stdin and exits with the code Serve returns. (Compile-only:
// it would exit the test binary.)
func ExampleRun() {
	guard := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName == hook.ToolBash {
			in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			if strings.Contains(in.Command, "rm -rf /") {
				return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "refusing to delete /"}, nil
			}
		}
		return nil, nil // no answer: Claude Code's own permission rules decide
	})
	// In func main:
	hook.Run(hook.FailClosed(guard))
}

// A typed adapter answers one event: here it adds a member to every MCP
// call of one tool and leaves every other member of the input as it was.
func ExamplePreToolUseFunc() {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != "mcp__probe__listen_here" {
			return nil, nil
		}
		upd, err := e.Merge(map[string]bool{"quiet": true})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{UpdatedInput: upd}, nil
	})
	hook.Serve(context.Background(), strings.NewReader(examplePayload), os.Stdout, os.Stderr, h)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"room":"Bob's \"war room\"","seats":12345678901234567890,"quiet":true}}}
}
