package hook

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// projectDirEnv is the environment variable in which Claude Code passes a
// command hook the project's root folder.
const projectDirEnv = "CLAUDE_PROJECT_DIR"

// ProjectDir returns the root folder of the project the hook runs for,
// spelled as the system running the hook spells paths. Claude Code
// passes it in $CLAUDE_PROJECT_DIR, but that variable is missing in some
// launches (plugin hooks, some versions and platforms) and names the main
// checkout rather than the worktree in a session started with
// `claude -w`; ProjectDir therefore tries, in this order:
//
//  1. $CLAUDE_PROJECT_DIR, when it is an absolute path. When the event's
//     Cwd lies inside one of its worktrees (<dir>/.claude/worktrees/<name>),
//     that worktree's folder is returned instead.
//  2. The event's Cwd (the session's folder), when it is absolute.
//  3. The hook process's working directory, which Claude Code sets to the
//     session's folder.
//
// It returns "" only when none of them is known. ProjectDir reads the
// environment on every call; it never touches the file system beyond
// [os.Getwd]. A hook served over HTTP runs in a server that Claude Code
// did not start: its environment and working directory are the
// server's, so such a hook should read the event's Cwd instead.
func (e *Event) ProjectDir() string {
	cwd := ""
	if e != nil && filepath.IsAbs(e.Cwd) {
		cwd = filepath.Clean(e.Cwd)
	}
	if dir := os.Getenv(projectDirEnv); filepath.IsAbs(dir) {
		dir = filepath.Clean(dir)
		if wt, ok := worktreeOf(dir, cwd); ok {
			return wt
		}
		return dir
	}
	if cwd != "" {
		return cwd
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return ""
}

// worktreeOf returns the folder of the `claude -w` worktree of project
// that holds cwd, if cwd is inside one.
func worktreeOf(project, cwd string) (string, bool) {
	if cwd == "" {
		return "", false
	}
	base := filepath.Join(project, ".claude", "worktrees")
	rest, ok := cutDir(base, cwd)
	if !ok || rest == "" {
		return "", false
	}
	name, _, _ := strings.Cut(rest, string(filepath.Separator))
	return filepath.Join(base, name), true
}

// cutDir reports whether path lies inside dir (both clean) and returns
// the rest of path after dir and its separator. Windows compares
// without regard to case, as its file systems do.
func cutDir(dir, path string) (string, bool) {
	if len(path) <= len(dir) {
		return "", false
	}
	head, rest := path[:len(dir)], path[len(dir):]
	same := head == dir
	if runtime.GOOS == "windows" {
		same = strings.EqualFold(head, dir)
	}
	if !same {
		return "", false
	}
	if !os.IsPathSeparator(rest[0]) {
		if !os.IsPathSeparator(dir[len(dir)-1]) {
			return "", false
		}
		return rest, true
	}
	return rest[1:], true
}
