package hook

import (
	"github.com/gohooks/hook/internal/jsstr"

	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

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
	// line.
	WorktreePath string
	// JSONForm writes {"hookSpecificOutput":{"hookEventName":
	// "WorktreeCreate","worktreePath":…}}, the form HTTP hooks return,
	// instead of the plain path line.
	JSONForm bool
}

// worktreeCreateSpecific is the hookSpecificOutput of a WorktreeCreate
// answer.
type worktreeCreateSpecific struct {
	HookEventName string `json:"hookEventName"`
	WorktreePath  string `json:"worktreePath"`
}

func (o *WorktreeCreateOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventWorktreeCreate); err != nil {
		return dst, err
	}
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

// checkWorktreePath refuses a worktree path Claude Code would refuse or
// misread.
func checkWorktreePath(p string) error {
	switch {
	case p == "":
		return errors.New("WorktreePath is required")
	case strings.TrimSpace(p) != p || jsstr.TrimSpace(p) != p:
		return fmt.Errorf("WorktreePath %q has leading or trailing blanks", p)
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("WorktreePath %q holds a line break or control character; Claude Code reads the last line only", p)
	case !filepath.IsAbs(p):
		return fmt.Errorf("WorktreePath %q is not absolute", p)
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if seg == "." || seg == ".." {
			return fmt.Errorf("WorktreePath %q has a %q segment; Claude Code refuses it", p, seg)
		}
	}
	return nil
}

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

func (o *WorktreeRemoveOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventWorktreeRemove); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common})
}
