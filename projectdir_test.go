package hook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// abs spells a slash-separated absolute path as this system does.
func abs(t *testing.T, p string) string {
	t.Helper()
	root := string(filepath.Separator)
	if v := filepath.VolumeName(os.TempDir()); v != "" {
		root = v + root
	}
	return filepath.Join(root, filepath.FromSlash(p))
}

func TestProjectDir(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	proj := abs(t, "src/app")
	for _, tc := range []struct {
		name, env, cwd, want string
	}{
		{"env wins over cwd", proj, abs(t, "src/app/sub"), proj},
		{"env when cwd is elsewhere", proj, abs(t, "tmp"), proj},
		{"env when cwd is empty", proj, "", proj},
		{"env is cleaned", proj + string(filepath.Separator) + "x" + string(filepath.Separator) + "..", "", proj},
		{"worktree of a claude -w session", proj, abs(t, "src/app/.claude/worktrees/feat-1/pkg/x"), abs(t, "src/app/.claude/worktrees/feat-1")},
		{"worktree root itself", proj, abs(t, "src/app/.claude/worktrees/feat-1"), abs(t, "src/app/.claude/worktrees/feat-1")},
		{"the worktrees folder is no worktree", proj, abs(t, "src/app/.claude/worktrees"), proj},
		{"a sibling that shares a prefix", proj, abs(t, "src/app/.claude/worktrees-old/x"), proj},
		{"unset env: cwd", "", abs(t, "src/other"), abs(t, "src/other")},
		{"relative env is ignored", "src/app", abs(t, "src/other"), abs(t, "src/other")},
		{"relative cwd is ignored", "", "src/other", wd},
		{"nothing known: the working directory", "", "", wd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(projectDirEnv, tc.env)
			e := &Event{Cwd: tc.cwd}
			assert.Equal(t, tc.want, e.ProjectDir())
		})
	}
	t.Run("nil event", func(t *testing.T) {
		t.Setenv(projectDirEnv, "")
		var e *Event
		assert.Equal(t, wd, e.ProjectDir())
	})
}

func TestCutDir(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tc := range []struct {
		dir, path, rest string
		ok              bool
	}{
		{"a" + sep + "b", "a" + sep + "b" + sep + "c", "c", true},
		{"a" + sep + "b", "a" + sep + "b", "", false},
		{"a" + sep + "b", "a" + sep + "bc", "", false},
		{"a" + sep + "b", "a", "", false},
		{sep, sep + "x", "x", true},
	} {
		rest, ok := cutDir(tc.dir, tc.path)
		assert.Equal(t, tc.ok, ok, "%q in %q", tc.path, tc.dir)
		assert.Equal(t, tc.rest, rest, "%q in %q", tc.path, tc.dir)
	}
}
