package hook

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWorktreePathAbsoluteAsClaudeCodeReadsIt checks the WorktreePath rule
// for both readings, whatever machine the test runs on: Claude Code on
// Windows (Node's path.win32) takes rooted and UNC paths as absolute, which
// Go's filepath.IsAbs refuses there; elsewhere only /… is absolute.
func TestWorktreePathAbsoluteAsClaudeCodeReadsIt(t *testing.T) {
	cases := []struct {
		path           string
		windows, posix string // "" accepted, else a piece of the error
	}{
		{`/home/dev/wt/bold-oak`, "", ""},
		{`/c/Users/dev/wt`, "", ""}, // Git Bash's form: rooted on the current drive
		{`\wt\bold-oak`, "", "not absolute"},
		{`C:\Users\dev\wt`, "", "not absolute"},
		{`c:/Users/dev/wt`, "", "not absolute"},
		{`\\server\share\wt`, "", "not absolute"},
		{`//server/share/wt`, "", ""},
		{`\\?\C:\Users\dev\wt`, "", "not absolute"},
		{`C:wt`, "not absolute", "not absolute"}, // drive-relative
		{`C:`, "not absolute", "not absolute"},
		{`1:\wt`, "not absolute", "not absolute"},
		{`wt\bold-oak`, "not absolute", "not absolute"},
		{`wt/bold-oak`, "not absolute", "not absolute"},
		{`C:\Users\..\wt`, `".." segment`, "not absolute"},
		{`C:\Users\.\wt`, `"." segment`, "not absolute"},
		{`/home/dev/..\wt`, `".." segment`, ""}, // a backslash is a name character on POSIX
		{`/home/dev/../wt`, `".." segment`, `".." segment`},
		{`\\.\C:\wt`, `"." segment`, "not absolute"},
	}
	for _, c := range cases {
		for goos, want := range map[string]string{"windows": c.windows, "linux": c.posix, "darwin": c.posix} {
			err := checkWorktreePathOn(goos, c.path)
			if want == "" {
				assert.NoError(t, err, "%s on %s", c.path, goos)
			} else if assert.Error(t, err, "%s on %s", c.path, goos) {
				assert.Contains(t, err.Error(), want, "%s on %s", c.path, goos)
			}
		}
	}
}

// TestWorktreePathOnThisMachine checks that the answer is judged by the
// reading of the machine the hook runs on: a rooted path is accepted
// everywhere, a drive path only on Windows.
func TestWorktreePathOnThisMachine(t *testing.T) {
	ev := &Event{HookEventName: EventWorktreeCreate}
	b, err := (&WorktreeCreateOutput{WorktreePath: "/srv/wt/bold-oak"}).appendAnswer(nil, ev)
	assert.NoError(t, err)
	assert.Equal(t, "/srv/wt/bold-oak", string(b))

	b, err = (&WorktreeCreateOutput{WorktreePath: `C:\wt\bold-oak`}).appendAnswer(nil, ev)
	if runtime.GOOS == "windows" {
		assert.NoError(t, err)
		assert.Equal(t, `C:\wt\bold-oak`, string(b))
	} else {
		assert.ErrorContains(t, err, "not absolute")
		assert.Empty(t, b)
	}
}

func FuzzWorktreePath(f *testing.F) {
	for _, s := range []string{"/a/b", "/a/../b", "a/b", "/a/./b", "/a\n/b", " /a", "/a/b/", "/", "/a\x1b[31m", `C:\a`, `C:a`, `\\s\h\..\x`, `\\?\C:\a`} {
		f.Add(s)
	}
	ev := &Event{HookEventName: EventWorktreeCreate}
	f.Fuzz(func(t *testing.T, p string) {
		b, err := (&WorktreeCreateOutput{WorktreePath: p}).appendAnswer(nil, ev)
		if err != nil {
			assert.Empty(t, b)
			return
		}
		assert.Equal(t, p, string(b))
		windows := runtime.GOOS == "windows"
		if windows {
			assert.True(t, strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") || len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'), p)
		} else {
			assert.True(t, strings.HasPrefix(p, "/"), p)
		}
		assert.NotContains(t, p, "\n")
		segs := strings.Split(p, "/")
		if windows {
			segs = strings.Split(strings.ReplaceAll(p, `\`, "/"), "/")
		}
		for _, seg := range segs {
			assert.NotEqual(t, "..", seg)
			assert.NotEqual(t, ".", seg)
		}
	})
}
