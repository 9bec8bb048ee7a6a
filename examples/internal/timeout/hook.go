package timeout

import "github.com/gohooks/hook"

// Rewrite answers a PreToolUse event for the Bash tool with the command
// bounded by [Bound] and every other member of the input kept byte for
// byte, or with no answer: for other tools, background commands and
// commands Bound leaves alone (among them every command it has bounded,
// so a second call on its own rewrite answers nothing). It makes no
// permission decision under Claude Code, where an allow would skip the
// permission prompt; under Codex, which applies a rewrite only beside
// permissionDecision "allow" and reads nothing more in it, the rewrite
// carries that allow.
func Rewrite(e *hook.PreToolUse, lookPath func(string) (string, error)) (*hook.PreToolUseOutput, error) {
	if e.ToolName != hook.ToolBash {
		return nil, nil
	}
	in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
	if err != nil {
		return nil, err
	}
	if in.RunInBackground {
		return nil, nil // meant to outlive the call
	}
	cmd, ok := Bound(in.Command, lookPath)
	if !ok {
		return nil, nil
	}
	upd, err := hook.Edit(e.ToolInput, func(b *hook.BashInput) error {
		b.Command = cmd
		return nil
	})
	if err != nil {
		return nil, err
	}
	// No decision: the user decides on the bounded command. Codex applies
	// a rewrite only beside an allow, which skips its approval: bounding
	// a command is a rewrite we approve there.
	return &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: hook.CodexRewriteAllow}, nil
}
