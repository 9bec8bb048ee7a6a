// Command approver is a PermissionRequest hook that answers the permission
// prompts nobody needs to see: it allows the tools that only read local
// files (Read, Glob, Grep, LS, NotebookRead) and leaves every other
// prompt to the person at the keyboard by giving no answer. It never
// allows reading a path that looks like a secret (.env, private keys,
// credential files; see examples/protectfiles), nor searching a folder
// such as ~/.ssh.
//
// Claude Code asks only when its permission rules do not already decide,
// so approver sees, for instance, a Read of a file outside the project.
// Deny rules still win after its allow. In a -p (headless) session, where
// nobody can answer, the prompts it leaves alone are refused. Register it:
//
//	{"hooks": {"PermissionRequest": [{"matcher": "*",
//	  "hooks": [{"type": "command", "command": "/path/to/approver"}]}]}}
//
// Try it:
//
//	go run ./examples/approver < examples/approver/testdata/read-outside.json
package main

import (
	"context"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/secrets"
	"github.com/gohooks/hook/examples/internal/winpath"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the approver hook.
func Handler() hook.Handler {
	return hook.PermissionRequestFunc(approve)
}

// ReadOnly are the tools approver allows: each only reads local files.
var ReadOnly = map[string]bool{
	hook.ToolRead:  true,
	hook.ToolGlob:  true,
	hook.ToolGrep:  true,
	"LS":           true,
	"NotebookRead": true,
}

// paths are the path members of the read-only tools' inputs.
type paths struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
}

func approve(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
	if !ReadOnly[e.ToolName] {
		return nil, nil // the person decides
	}
	in, err := hook.DecodeView[paths](e.ToolInput)
	if err != nil {
		return nil, nil // an input we cannot read: the person decides
	}
	for _, c := range []struct {
		path   string
		folder bool // searched: check what lies inside too
	}{{in.FilePath, false}, {in.NotebookPath, false}, {in.Path, true}} {
		p := c.path
		if p == "" {
			continue
		}
		if !winpath.IsAbs(p) {
			p = winpath.Join(e.Cwd, p)
		}
		if _, secret := secrets.Match(p); secret {
			return nil, nil
		}
		if _, secret := secrets.Match(p + "/_"); c.folder && secret {
			return nil, nil
		}
	}
	return &hook.PermissionRequestOutput{Decision: hook.Allow}, nil
}
