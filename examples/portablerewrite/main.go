// Command portablerewrite is a PreToolUse hook for the Bash tool that
// rewrites a call but leaves the permission decision to the user, under
// every agent that runs Claude Code hooks. It makes `sed -i` keep a backup:
// `sed -i 's/a/b/' f.txt` becomes `sed -i.bak 's/a/b/' f.txt` (and
// `--in-place` becomes `--in-place=.bak`), so an in-place edit the model
// gets wrong can be undone. Every other member of the tool input is kept
// byte for byte (the update is built with hook.Edit).
//
// The answer is an UpdatedInput without a Decision: Claude Code and the
// GitHub Copilot CLI apply the rewrite and then run their normal
// permission flow on the new command, so the user (or the user's
// permission rules) still decides. The OpenAI Codex CLI applies a rewrite
// only beside an allow, and an allow skips its approval prompt; there the
// answer's CodexRewrite says what happens instead, chosen with -codex:
//
//	-codex deny   (the default) deny the call and tell the model to run
//	              sed with a backup suffix itself; Codex's approval policy
//	              then applies to the call the model makes
//	-codex skip   let the original call run, through Codex's approval
//	-codex allow  rewrite and approve: Codex runs the rewritten call
//	              without asking, script included (GNU sed's e command
//	              runs a program and w writes any file: allow approves
//	              those too)
//
// It rewrites only a single simple sed command (no ;, &&, |, redirections
// or substitutions) whose in-place flag is the word -i or --in-place, and
// leaves alone one that already names a suffix. Register it for Bash:
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash",
//	  "hooks": [{"type": "command", "command": "/path/to/portablerewrite"}]}]}}
//
// Try it:
//
//	go run ./examples/portablerewrite < examples/portablerewrite/testdata/sed.json
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/gohooks/hook"
)

func main() {
	codex := flag.String("codex", "deny", "what a rewrite becomes under Codex: deny, skip or allow")
	flag.Parse()
	choice, err := codexChoice(*codex)
	if err != nil {
		fmt.Fprintln(os.Stderr, "portablerewrite:", err)
		os.Exit(1)
	}
	hook.Run(Handler(choice))
}

// codexChoice reads the -codex flag.
func codexChoice(s string) (hook.CodexRewrite, error) {
	switch s {
	case "deny":
		return hook.CodexRewriteDeny, nil
	case "skip":
		return hook.CodexRewriteSkip, nil
	case "allow":
		return hook.CodexRewriteAllow, nil
	}
	return 0, fmt.Errorf("-codex %q: want deny, skip or allow", s)
}

// Handler returns the hook, with choice as what its rewrite becomes under
// Codex.
func Handler(choice hook.CodexRewrite) hook.Handler {
	return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != hook.ToolBash {
			return nil, nil
		}
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		cmd, ok := Backup(in.Command)
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
		out := &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: choice}
		// The reason of what the choice writes under Codex; not written
		// under Claude Code and Copilot, where there is no decision.
		switch choice {
		case hook.CodexRewriteDeny:
			out.Reason = "portablerewrite: run sed -i with a backup suffix, as in: " + cmd
		case hook.CodexRewriteAllow:
			out.Reason = "portablerewrite: sed keeps a .bak backup"
		}
		return out, nil
	})
}
