// Command protectfiles is a PreToolUse hook that keeps Claude's file tools
// (Read, Write, Edit, NotebookEdit) away from files that look like they
// hold secrets: .env files (but not .env.example and other samples),
// private keys (*.pem, *.key, id_rsa, id_ed25519, …), key stores, and
// credential files such as ~/.aws/credentials, ~/.netrc, ~/.npmrc and
// ~/.docker/config.json. It applies inside and outside the project, and
// it follows symbolic links: a harmless-looking link to a .env file is
// refused too. It reads paths as Windows opens them, whatever machine it
// runs on: C:\proj\.env with a trailing space or dot, in another case, as
// the data stream .env::$DATA, behind \\?\ or as the 8.3 name ENV~1 is
// refused like .env.
//
// The model is told which file was refused and why, so it can ask the
// user or use a sample file instead. It does not stop Bash from reading
// files; pair it with permission deny rules for that.
//
// It fails closed: if it breaks, the call is blocked. Register it for the
// file tools with "onFailure": "block", so that Claude Code blocks too when
// the guard cannot start or is killed (docs/reliability.md):
//
//	{"hooks": {"PreToolUse": [{"matcher": "Read|Write|Edit|NotebookEdit",
//	  "hooks": [{"type": "command", "command": "/path/to/protectfiles", "onFailure": "block"}]}]}}
//
// Try it:
//
//	go run ./examples/protectfiles < examples/protectfiles/testdata/read-env.json
package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/secrets"
	"github.com/gohooks/hook/examples/internal/winpath"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the protectfiles hook.
func Handler() hook.Handler {
	return hook.FailClosed(hook.PreToolUseFunc(protect))
}

// target is the path member of the file tools' inputs.
type target struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	// Path is the file of the GitHub Copilot CLI's create, edit and view
	// calls, which reach hooks as Write, Edit and Read with members of
	// their own (docs/agents.md), relative to the working folder.
	Path string `json:"path"`
}

func protect(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	switch e.ToolName {
	case hook.ToolRead, hook.ToolWrite, hook.ToolEdit, hook.ToolNotebookEdit:
	default:
		return nil, nil
	}
	in, err := hook.DecodeView[target](e.ToolInput)
	if err != nil {
		return nil, err
	}
	p := in.FilePath
	if e.ToolName == hook.ToolNotebookEdit {
		p = in.NotebookPath
	} else if p == "" {
		p = in.Path // Copilot's Write, Edit and Read
	}
	if p == "" {
		return nil, nil // the tool itself refuses a call without a path
	}
	if !winpath.IsAbs(p) {
		p = winpath.Join(e.Cwd, p)
	}
	for _, cand := range candidates(p) {
		if rule, ok := secrets.Match(cand); ok {
			what := cand
			if cand != p {
				what = fmt.Sprintf("%s (a link to %s)", p, cand)
			}
			return &hook.PreToolUseOutput{
				Decision: hook.Deny,
				Reason: fmt.Sprintf("protectfiles blocked %s of %s: it looks like a secret (%s), and secrets stay out of this session. "+
					"Do not read, copy or change it; if you need to know which settings exist, look for a sample such as .env.example, and ask the user for any values.",
					e.ToolName, what, rule),
			}, nil
		}
	}
	return nil, nil
}

// candidates returns p and, where the file system names it otherwise, the
// real path of p (or of its folder, for a file that does not exist yet):
// where symbolic links lead elsewhere and, on Windows, where an 8.3 short
// name (C:\proj\ENV~1) stands for a long one (C:\proj\.env). The names
// themselves are judged the Windows way on every machine (see
// secrets.Match); only what the file system knows needs it.
func candidates(p string) []string {
	out := []string{p}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		dir, derr := filepath.EvalSymlinks(filepath.Dir(p))
		if derr != nil {
			return out
		}
		real = filepath.Join(dir, filepath.Base(p))
	}
	if real != filepath.Clean(p) {
		out = append(out, real)
	}
	return out
}
