package bashrules

import (
	"context"
	"os"

	"github.com/gohooks/hook"
)

// Deny answers a PreToolUse event for the Bash tool: a denial with the
// guard's reason, or no answer. It takes the home folder from $HOME (on
// Windows, where a hook may get no HOME, from %USERPROFILE%), the profile
// folder from %USERPROFILE% and the project root from
// $CLAUDE_PROJECT_DIR, which Claude Code sets for hooks, at each event;
// branch finds the branch checked out in a folder (nil: ask git). Other
// tools get no answer.
func Deny(ctx context.Context, e *hook.PreToolUse, branch func(ctx context.Context, dir string) (string, error)) (*hook.PreToolUseOutput, error) {
	if e.ToolName != hook.ToolBash {
		return nil, nil
	}
	in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
	if err != nil {
		return nil, err
	}
	home, profile := os.Getenv("HOME"), os.Getenv("USERPROFILE")
	if home == "" {
		home = profile
	}
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	// The variable itself, not hook.Event.ProjectDir: the guard expands
	// $CLAUDE_PROJECT_DIR in a command line as the Bash tool's shell will,
	// and where the variable is unset there it expands to nothing.
	user := os.Getenv("USER")
	if user == "" {
		user = os.Getenv("USERNAME")
	}
	g := Guard{Home: home, UserProfile: profile, ProjectDir: os.Getenv("CLAUDE_PROJECT_DIR"), Branch: branch, User: user}
	reason, err := g.Check(ctx, in.Command, e.Cwd)
	if err != nil || reason == "" {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: reason}, nil
}
