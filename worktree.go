package hook

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/gohooks/hook/internal/jsstr"
)

// EventWorktreeCreate fires when a worktree is being created.
const EventWorktreeCreate = "WorktreeCreate"

// WorktreeCreate fires when Claude Code needs a worktree, and lets the hook
// create it. It has no matcher. The answer names the worktree's path (see
// [WorktreeCreateOutput]); any non-zero exit code, [Block] included, makes
// the creation fail.
type WorktreeCreate struct {
	Event
	// Name is the worktree's slug, e.g. "bold-oak-a3f2".
	Name string `json:"name"`
}

// WorktreeCreateOutput is the answer to a [WorktreeCreate] event.
//
// A command hook (the kind [Serve] runs) answers with the path as plain
// text: Claude Code reads the last non-empty stdout line and does not read
// JSON from a command hook. That is what the library writes by default:
// WorktreePath and a newline, nothing else. JSONForm writes the
// hookSpecificOutput answer of an HTTP hook instead.
type WorktreeCreateOutput struct {
	// Common holds the common fields; they are only written (and only
	// allowed) with JSONForm, since a command hook's JSON is not read.
	Common

	// WorktreePath is the absolute path of the worktree the hook created
	// (required). Claude Code refuses paths with "." or ".." segments; the
	// library also refuses relative paths, which Claude Code would resolve
	// against the hook's working directory, and paths that are not one
	// line. "Absolute" is what Claude Code, a Node program on the same
	// machine, takes as absolute: on Windows a drive path (C:\wt, C:/wt),
	// a UNC or device path (\\server\share\wt, \\?\C:\wt) and a rooted
	// path (\wt or /wt, on the current drive, as Git Bash writes it); a
	// drive-relative C:wt is refused. Elsewhere only /wt is.
	WorktreePath string
	// JSONForm writes {"hookSpecificOutput":{"hookEventName":
	// "WorktreeCreate","worktreePath":…}}, the form HTTP hooks return,
	// instead of the plain path line.
	JSONForm bool
}

func (o *WorktreeCreateOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if err := checkWorktreePath(o.WorktreePath); err != nil {
		return dst, err
	}
	if o.JSONForm {
		return appendWire(dst, answer{common: &o.Common,
			specific: &worktreeCreateSpecific{HookEventName: EventWorktreeCreate, WorktreePath: o.WorktreePath}})
	}
	if o.Common != (Common{}) {
		return dst, errors.New("a command hook answers WorktreeCreate with the path as plain text, and Claude Code reads no JSON from it: the common fields need JSONForm")
	}
	return append(dst, o.WorktreePath...), nil
}

// join merges n into a as [Chain] combines WorktreeCreate answers: the
// first path given creates the worktree and stops the chain.
func (a *WorktreeCreateOutput) join(n *WorktreeCreateOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	if n.WorktreePath != "" {
		a.WorktreePath, a.JSONForm = n.WorktreePath, n.JSONForm
		return true, nil
	}
	return false, nil
}

// plainText reports whether the answer is written as plain text: the
// path line, unless JSONForm is set.
func (o *WorktreeCreateOutput) plainText() bool { return !o.JSONForm }

// jsonForm returns the JSON form of a valid path answer, for an http
// hook: the path as worktreePath.
func (o *WorktreeCreateOutput) jsonForm(*Event) (Output, error) {
	c := *o
	c.JSONForm = true
	return &c, nil
}

// checkWorktreePath refuses a worktree path Claude Code would refuse or
// misread on this machine.
func checkWorktreePath(p string) error {
	return checkWorktreePathOn(runtime.GOOS, p)
}

// checkWorktreePathOn refuses a worktree path Claude Code running on goos
// would refuse or misread. It depends on goos, not on the machine it runs
// on, so that both readings are tested everywhere.
func checkWorktreePathOn(goos, p string) error {
	switch {
	case p == "":
		return errors.New("WorktreePath is required")
	case strings.TrimSpace(p) != p || jsstr.TrimSpace(p) != p:
		return fmt.Errorf("WorktreePath %q has leading or trailing blanks", p)
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("WorktreePath %q holds a line break or control character; Claude Code reads the last line only", p)
	case !clientAbs(goos, p):
		return fmt.Errorf("WorktreePath %q is not absolute", p)
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' && goos == "windows" }) {
		if seg == "." || seg == ".." {
			return fmt.Errorf("WorktreePath %q has a %q segment; Claude Code refuses it", p, seg)
		}
	}
	return nil
}

// clientAbs reports whether Claude Code on goos reads p as an absolute
// path. It is Node's path.isAbsolute: path.win32's on Windows, where a
// path that starts with a separator (rooted, UNC, \\?\ device) or with a
// drive letter, a colon and a separator is absolute; path.posix's
// elsewhere, where a path that starts with / is. Go's filepath.IsAbs
// differs on Windows: it refuses the rooted \wt and /wt, which Claude
// Code accepts.
func clientAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	sep := func(c byte) bool { return c == '/' || c == '\\' }
	if p != "" && sep(p[0]) {
		return true
	}
	letter := len(p) > 0 && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
	return letter && len(p) > 2 && p[1] == ':' && sep(p[2])
}

// worktreeCreateSpecific is the hookSpecificOutput of a WorktreeCreate
// answer.
type worktreeCreateSpecific struct {
	HookEventName string `json:"hookEventName"`
	WorktreePath  string `json:"worktreePath"`
}

// EventWorktreeRemove fires when a worktree is being removed.
const EventWorktreeRemove = "WorktreeRemove"

// WorktreeRemove fires when a worktree is being removed. It has no
// matcher and nothing can be decided: failures are only logged in debug
// mode, and Claude Code discards the answer's fields.
type WorktreeRemove struct {
	Event
	// WorktreePath is the worktree's absolute path.
	WorktreePath string `json:"worktree_path"`
}

// WorktreeRemoveOutput is the answer to a [WorktreeRemove] event: only the
// common fields, which Claude Code discards for this event.
type WorktreeRemoveOutput struct {
	Common
}
