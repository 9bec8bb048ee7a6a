package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestParseStatus(t *testing.T) {
	out := strings.Join([]string{
		"# branch.oid 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
		"# branch.head feature/login",
		"# branch.upstream origin/feature/login",
		"# branch.ab +2 -1",
		"1 M. N... 100644 100644 100644 aaaa bbbb api/server.go",
		"1 .M N... 100644 100644 100644 aaaa bbbb api/server test.go",
		"2 R. N... 100644 100644 100644 aaaa bbbb R100 docs/new name.md",
		"docs/old name.md",
		"u UU N... 100644 100644 100644 100644 aaaa bbbb cccc go.sum",
		"? notes\nwith newline.txt",
		"",
	}, "\x00")
	s := ParseStatus([]byte(out))
	assert.Equal(t, Status{
		Branch: "feature/login", Commit: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b", Upstream: "origin/feature/login",
		Ahead: 2, Behind: 1, Staged: 2, Modified: 1, Untracked: 1, Conflicted: 1,
		Paths: []string{"api/server.go", "api/server test.go", "docs/new name.md", "go.sum", "notes\nwith newline.txt"},
	}, s)
	assert.Equal(t, "Git: on branch feature/login, tracking origin/feature/login (2 ahead, 1 behind); 2 staged, 1 modified, 1 untracked, 1 with merge conflicts. Changed: api/server.go, api/server test.go, docs/new name.md, go.sum, notes\nwith newline.txt.", Summary(s))
}

func TestSummary(t *testing.T) {
	assert.Equal(t, "Git: on branch main (no commits yet); the working tree is clean.", Summary(Status{Branch: "main"}))
	assert.Equal(t, "Git: detached HEAD at 1a2b3c4d5e6f; the working tree is clean.", Summary(Status{Commit: "1a2b3c4d5e6f7a8b9c0d"}))
	assert.Equal(t, "Git: on branch main, tracking origin/main (up to date); the working tree is clean.", Summary(Status{Branch: "main", Commit: "1a", Upstream: "origin/main"}))
	many := Status{Branch: "main", Commit: "1a", Untracked: 10}
	for i := 0; i < 10; i++ {
		many.Paths = append(many.Paths, string(rune('a'+i)))
	}
	assert.Equal(t, "Git: on branch main; 10 untracked. Changed: a, b, c, d, e, f, g, h and 2 more.", Summary(many))
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
}

// contextIn runs the hook for a session started in dir.
func contextIn(t *testing.T, dir string) *hooktest.Recorder {
	t.Helper()
	p := hooktest.WithField(hooktest.NewEvent(hook.EventSessionStart), "cwd", dir)
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code, "stderr %s", rec.Stderr)
	return rec
}

func TestRealRepositories(t *testing.T) {
	_, err := exec.LookPath("git")
	require.NoError(t, err, "these tests need git")

	// A repository without commits.
	empty := t.TempDir()
	git(t, empty, "init", "-q", "-b", "main")
	assert.Equal(t, "Git: on branch main (no commits yet); the working tree is clean.", contextIn(t, empty).AdditionalContext)

	// A clone that is ahead of and behind its upstream, with changes.
	origin := t.TempDir()
	git(t, origin, "init", "-q", "-b", "main")
	write(t, origin, "README.md", "hello\n")
	git(t, origin, "add", ".")
	git(t, origin, "commit", "-q", "-m", "one")
	work := filepath.Join(t.TempDir(), "work")
	git(t, origin, "clone", "-q", origin, work)
	write(t, origin, "OTHER.md", "x\n")
	git(t, origin, "add", ".")
	git(t, origin, "commit", "-q", "-m", "two")
	git(t, work, "fetch", "-q")
	write(t, work, "a.go", "package a\n")
	git(t, work, "add", ".")
	git(t, work, "commit", "-q", "-m", "local")
	write(t, work, "README.md", "changed\n")
	write(t, work, "staged.go", "package a\n")
	git(t, work, "add", "staged.go")
	write(t, work, "new dir/notes.txt", "x\n")
	assert.Equal(t, "Git: on branch main, tracking origin/main (1 ahead, 1 behind); 1 staged, 1 modified, 1 untracked. Changed: README.md, staged.go, new dir/.",
		contextIn(t, work).AdditionalContext)

	// Detached HEAD, clean.
	head := git(t, origin, "rev-parse", "HEAD")
	git(t, origin, "checkout", "-q", "--detach")
	assert.Equal(t, "Git: detached HEAD at "+head[:12]+"; the working tree is clean.", contextIn(t, origin).AdditionalContext)

	// A subfolder of a repository works too.
	assert.Contains(t, contextIn(t, filepath.Join(work, "new dir")).AdditionalContext, "Git: on branch main")
}

func TestNotARepositoryAddsNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	rec := contextIn(t, dir)
	assert.Empty(t, rec.Stdout)
	assert.Empty(t, rec.Stderr)
}

func TestGitMissingAddsNothing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	rec := contextIn(t, t.TempDir())
	assert.Empty(t, rec.Stdout)
}

func TestOtherEventsGetNoAnswer(t *testing.T) {
	rec := hooktest.Record(Handler(), hooktest.NewEvent(hook.EventStop))
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout)
}
