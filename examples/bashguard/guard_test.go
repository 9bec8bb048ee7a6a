package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/bashrules"
	"github.com/gohooks/hook/hooktest"
)

const (
	home    = "/home/dev"
	project = "/home/dev/acme-api" // also the cwd of the fixtures
)

// branches maps a folder to the branch checked out there; other folders
// are not repositories.
var branches = map[string]string{project: "main", "/home/dev/feature-work": "feature/login", "/srv/other": "master"}

func testGuard() *bashrules.Guard {
	return &bashrules.Guard{Home: home, ProjectDir: project, Branch: func(_ context.Context, dir string) (string, error) {
		if b, ok := branches[dir]; ok {
			return b, nil
		}
		return "", errors.New("not a git repository")
	}}
}

// denied lists commands bashguard must refuse (in the project root), each
// with a word the reason must contain.
var denied = []struct{ cmd, says string }{
	// rm of the root folder, in every spelling.
	{"rm -rf /", "root folder"},
	{"rm -fr /", "root folder"},
	{"rm -Rf /", "root folder"},
	{"rm -rfv /", "root folder"},
	{"rm -r -f /", "root folder"},
	{"rm --recursive --force /", "root folder"},
	{"rm -rf --no-preserve-root /", "root folder"},
	{"rm / -rf", "root folder"},
	{"rm -rf -- /", "root folder"},
	{`rm -rf "/"`, "root folder"},
	{"rm -rf //", "root folder"},
	{"rm -rf /./", "root folder"},
	{"rm -r /", "root folder"},
	{"rm -rf /*", "everything in the root folder"},
	{"rm -rf /u*", "top-level system folders matching /u*"},
	{"rm -rf /usr", "top-level system folder /usr"},
	{"rm -rf /etc/", "top-level system folder /etc"},
	{"rm -rf /home", "holds your home folder"},
	// Home.
	{"rm -rf ~", "home folder"},
	{"rm -rf ~/", "home folder"},
	{"rm -rf $HOME", "home folder"},
	{`rm -rf "${HOME}"`, "home folder"},
	{"rm -rf /home/dev", "home folder"},
	{"rm -rf /home/dev/../dev", "home folder"},
	{"rm -rf ~/*", "everything in your home folder"},
	{"rm -rf ~/.*", "everything in your home folder"},
	{"rm -rf {~,/tmp/x}", "home folder"},
	// The project root, as the working folder and by name.
	{"rm -rf .", "project root"},
	{"rm -rf ./", "project root"},
	{"rm -rf *", "everything in the project root"},
	{"rm -rf .*", "everything in the project root"},
	{"rm -rf ./*", "everything in the project root"},
	{"rm -rf ..", "home folder"},
	{"rm -rf ../acme-api", "project root"},
	{`rm -rf "$CLAUDE_PROJECT_DIR"`, "project root"},
	{"rm -rf ${CLAUDE_PROJECT_DIR}/", "project root"},
	{"rm -rf /home/dev/acme-api/", "project root"},
	{`rm -rf "$(pwd)"`, "project root"},
	{`rm -rf "$PWD"`, "project root"},
	{"rm -rf /home/dev/acme-*", "project root"},
	{"rm -rf /home/*/acme-api", "project root"},
	// Unknown variables may be empty.
	{`rm -rf "$BUILD_DIR/"`, "$BUILD_DIR is empty or unset"},
	{"rm -rf $PREFIX/*", "$PREFIX is empty or unset"},
	{`rm -rf "$(dirname "$x")/"`, "cannot work out"},
	// Wrappers, lists, pipes, scripts.
	{"sudo rm -rf /", "root folder"},
	{"sudo -u root -E rm -rf --no-preserve-root /", "root folder"},
	{"env FOO=1 rm -rf ~", "home folder"},
	{"FOO=1 nice -n 5 nohup rm -rf ~", "home folder"},
	{"command rm -rf ~", "home folder"},
	{"/bin/rm -rf ~", "home folder"},
	{`\rm -rf ~`, "home folder"},
	{"make build && rm -rf ~", "home folder"},
	{"false || rm -rf ~", "home folder"},
	{"echo y | rm -rf ~", "home folder"},
	{"echo ok; rm -rf ~ &", "home folder"},
	{"echo ok\nrm -rf ~", "home folder"},
	{"ls $(rm -rf ~)", "home folder"},
	{"echo `rm -rf ~`", "home folder"},
	{`bash -c 'rm -rf "$HOME"'`, "home folder"},
	{`sh -ec "cd / && rm -rf *"`, "everything in the root folder"},
	{`eval "rm -rf ~"`, "home folder"},
	{"bash <<'EOF'\nrm -rf ~\nEOF", "home folder"},
	{"find . -name x | xargs rm -rf /", "root folder"},
	{"if true; then rm -rf ~; fi", "home folder"},
	{"(cd / && rm -rf usr)", "top-level system folder /usr"},
	// cd changes what relative paths mean.
	{"cd ~ && rm -rf .", "home folder"},
	{"cd && rm -rf *", "everything in your home folder"},
	{"cd / && rm -rf *", "everything in the root folder"},
	{"cd .. && rm -rf acme-api", "project root"},
	{`cd "$SOMEWHERE" && rm -rf .`, "cannot tell"},
	{"cd - && rm -rf *", "cannot tell"},
	{"sudo -D / rm -rf usr", "top-level system folder /usr"},
	{"env -C / rm -rf etc", "top-level system folder /etc"},
	// Force pushes to protected branches.
	{"git push --force origin main", "force push to main"},
	{"git push -f origin master", "force push to master"},
	{"git push origin +main", "force push to main"},
	{"git push --force-with-lease origin main", "force push to main"},
	{"git push --force-with-lease=main:abc123 origin main", "force push to main"},
	{"git push -fu origin main", "force push to main"},
	{"git push -uf origin main", "force push to main"},
	{"git push origin HEAD:main --force", "force push to main"},
	{"git push origin feature:main -f", "force push to main"},
	{"git push --force origin refs/heads/main", "force push to main"},
	{"git push --force origin HEAD", "force push to main"},
	{"git push --force", "force push to main"},
	{"git push -f origin", "force push to main"},
	{"git -C /srv/other push -f", "force push to master"},
	{"cd /srv/other && git push --force", "force push to master"},
	{"git -c push.default=current push -f", "force push to main"},
	{"git --no-pager push -f origin main", "force push to main"},
	{"sudo git push -f origin main", "force push to main"},
	{`bash -c "git push -f origin main"`, "force push to main"},
	{"git push origin :main", "deletes the protected branch main"},
	{"git push origin --delete master", "deletes the protected branch master"},
	{"git push -d origin main", "deletes the protected branch main"},
	{"git push --mirror", "--mirror"},
	{"git push --all --force", "every branch"},
	{"cd /tmp && git push -f", "cannot tell which branch"},
	{"git push -f origin HEAD", "force push to main"},
	// Commands the guard cannot read are refused.
	{`echo 'unterminated`, "could not parse"},
	{`rm -rf "$(echo`, "could not parse"},
}

// allowed lists commands bashguard must let through (in the project
// root).
var allowed = []string{
	"ls -la",
	"rm -rf build",
	"rm -rf ./build/ dist node_modules",
	"rm -rf /tmp/scratch",
	"rm -rf ~/.cache/go-build",
	`rm -rf "$HOME/.npm/_cacache"`,
	"rm -rf ~/{.cache,.npm}",
	"rm -rf /home/dev/acme-api/build",
	"rm -rf *.o ./*.tmp build/*",
	"rm -rf .git/hooks/*",
	"rm -f /", // not recursive: rm refuses a folder
	"rm ~",
	"rm -f ~/.bash_history",
	"rm -rf ${BUILD_DIR:?}/",
	`rm -rf "$BUILD_DIR"`,
	`rm -rf "$(mktemp -d)"`,
	"rm -rf /tmp/build-*",
	"cd /tmp && rm -rf *",
	"cd build && rm -rf *",
	`cd "$(mktemp -d)" && rm -rf build`,
	"find . -name '*.pyc' -delete",
	"find . -name node_modules | xargs rm -rf",
	"echo 'rm -rf /'",
	`grep -r "rm -rf ~" .`,
	`git commit -m "rm -rf / is bad"`,
	"# rm -rf /",
	"echo rm -rf ~ # harmless",
	"command -v rm",
	"git status",
	"git push",
	"git push origin main",
	"git push -u origin main",
	"git push -f origin feature/login",
	"git push --force origin my-branch:my-branch",
	"git push origin +feature",
	"git push origin HEAD:refs/heads/fix --force",
	"git -C /home/dev/feature-work push -f",
	"cd /home/dev/feature-work && git push --force",
	"git push origin --delete old-feature",
	"git push origin :old-feature",
	"git push --dry-run -f origin main",
	"git push -nf origin main",
	"git push --all",
	"git push --tags --force",
	"git log --force-with-lease main",
	"git fetch -f origin main:main",
	"git push -o ci.skip origin main",
}

func TestCheckDenies(t *testing.T) {
	g := testGuard()
	for _, tt := range denied {
		reason, err := g.Check(context.Background(), tt.cmd, project)
		require.NoError(t, err, tt.cmd)
		if assert.NotEmpty(t, reason, "command should be denied: %q", tt.cmd) {
			assert.Contains(t, reason, tt.says, tt.cmd)
			assert.True(t, strings.HasPrefix(reason, "bashguard "), reason)
		}
	}
}

func TestCheckAllows(t *testing.T) {
	g := testGuard()
	for _, cmd := range allowed {
		reason, err := g.Check(context.Background(), cmd, project)
		require.NoError(t, err, cmd)
		assert.Empty(t, reason, "command should be allowed: %q", cmd)
	}
}

func TestReasonQuotesTheCommandAndSaysWhatToDo(t *testing.T) {
	reason, err := testGuard().Check(context.Background(), "make clean && sudo rm -fr ~/", project)
	require.NoError(t, err)
	assert.Equal(t, "bashguard blocked `sudo rm -fr ~/`: it would delete your home folder (/home/dev). Delete only the files or folders you mean, by a path inside the project (for example `rm -rf ./build`); if this really is intended, ask the user to run it themselves.", reason)
}

// payload returns a PreToolUse payload for a Bash call of command in the
// project root.
func payload(t *testing.T, command string) []byte {
	t.Helper()
	in, err := json.Marshal(map[string]any{"command": command, "description": "x"})
	require.NoError(t, err)
	return hooktest.NewPreToolUse(hook.ToolBash, string(in))
}

func TestHandlerDeniesWithReason(t *testing.T) {
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	rec := hooktest.Record(Handler(), payload(t, "rm -rf $HOME"))
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code)
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, "bashguard blocked `rm -rf $HOME`: it would delete your home folder (/home/dev).")
	assert.Nil(t, rec.UpdatedInput)
	assert.Empty(t, rec.Stderr)
}

func TestHandlerAllowsWithoutAnswer(t *testing.T) {
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	rec := hooktest.Record(Handler(), payload(t, "rm -rf ./build && go test ./..."))
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code)
	assert.Empty(t, rec.Stdout, "no answer: the normal permission flow decides")
}

func TestHandlerIgnoresOtherTools(t *testing.T) {
	rec := hooktest.Record(Handler(), hooktest.NewPreToolUse(hook.ToolWrite, `{"file_path":"/home/dev/acme-api/rm -rf ~","content":"rm -rf /"}`))
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code)
	assert.Empty(t, rec.Stdout)
}

func TestHandlerFailsClosed(t *testing.T) {
	// A command that is not a string cannot be judged: the call is
	// blocked (exit 2) rather than let through.
	rec := hooktest.Record(Handler(), hooktest.NewPreToolUse(hook.ToolBash, `{"command":["rm","-rf","/"]}`))
	assert.Equal(t, hook.ExitBlock, rec.Code)
	assert.Empty(t, rec.Stdout)
	assert.NotEmpty(t, rec.Stderr)
}

func TestHandlerProjectDirFromEnvironment(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	t.Setenv("CLAUDE_PROJECT_DIR", "/srv/app")
	// The session runs in a subfolder; the project root is protected too.
	p := hooktest.WithField(payload(t, "rm -rf ../.."), "cwd", "/srv/app/cmd/tool")
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, "the project root (/srv/app)")
}

func TestHandlerAnswersAreValidForTrickyInput(t *testing.T) {
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	// Every payload of the corpus: bashguard never writes an answer the
	// client would reject, and never an updatedInput.
	rep := hooktest.CheckHandler(t, Handler(), nil)
	assert.Greater(t, rep.Cases, 50)
	assert.Zero(t, rep.Updates)
}

func TestExampleFiles(t *testing.T) {
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	for file, says := range map[string]string{
		"testdata/rm-home.json":    "bashguard blocked `sudo rm -fr ~/`: it would delete your home folder (/home/dev).",
		"testdata/force-push.json": "bashguard blocked `git push --force origin main`: a force push to main",
	} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		rec := hooktest.Record(Handler(), b)
		require.NoError(t, rec.Err(), file)
		assert.Equal(t, hook.Deny, rec.PermissionDecision, file)
		assert.Contains(t, rec.Reason, says, file)
	}
}

func TestGitBranchFromRealRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	out, err := exec.Command("git", "-C", repo, "init", "-q", "-b", "main").CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := &bashrules.Guard{Home: home, ProjectDir: repo} // Branch nil: ask git
	reason, err := g.Check(context.Background(), "git push --force", repo)
	require.NoError(t, err)
	assert.Contains(t, reason, "force push to main")

	out, err = exec.Command("git", "-C", repo, "checkout", "-q", "-b", "topic").CombinedOutput()
	require.NoError(t, err, "%s", out)
	reason, err = g.Check(context.Background(), "git push --force", repo)
	require.NoError(t, err)
	assert.Empty(t, reason)

	notRepo := t.TempDir()
	reason, err = g.Check(context.Background(), "git push -f", notRepo)
	require.NoError(t, err)
	assert.Contains(t, reason, "cannot tell which branch")
}

// The folders of a session of Claude Code on Windows, as it sends them.
const (
	winHome    = `C:\Users\dev`
	winProject = `C:\Users\dev\acme-api`
)

func winGuard() *bashrules.Guard {
	return &bashrules.Guard{Home: winHome, UserProfile: winHome, ProjectDir: winProject, Branch: func(_ context.Context, dir string) (string, error) {
		if strings.EqualFold(dir, winProject) {
			return "main", nil
		}
		return "", errors.New("not a git repository: " + dir)
	}}
}

// TestCheckWindowsPaths checks the commands of a Windows session (run in
// Git Bash, with the folders written the Windows way) on every machine:
// the guard reads them from the paths, not from the platform it runs on.
func TestCheckWindowsPaths(t *testing.T) {
	g := winGuard()
	for _, tt := range []struct{ cmd, says string }{
		{"sudo rm -fr ~/", `your home folder (C:\users\dev)`},
		{"cd build && sudo rm -fr ~/", "home folder"},
		{"rm -rf ~", "home folder"},
		{"rm -rf $HOME", "home folder"},
		{`rm -rf "$USERPROFILE"`, "home folder"},
		{"rm -rf ~/*", "everything in your home folder"},
		{`rm -rf 'C:\Users\dev'`, "home folder"},
		{`rm -rf 'c:\users\DEV\'`, "home folder"},
		{`rm -rf C:/Users/dev`, "home folder"},
		{`rm -rf /c/Users/dev`, "home folder"},
		{`rm -rf /cygdrive/c/Users/dev`, "home folder"},
		{`rm -rf '\\?\C:\Users\dev'`, "home folder"},
		{`rm -rf 'C:\Users\dev.'`, "home folder"},
		{`rm -rf 'C:\Users\dev '`, "home folder"},
		{`rm -rf 'C:\Users\dev\acme-api\..'`, "home folder"},
		{`rm -rf 'C:\Users'`, `a folder (C:\users) that holds your home folder`},
		{`rm -rf C:/Users/*`, "home folder"},
		{`rm -rf C:/users/D*`, "home folder"},
		{`rm -rf 'C:\'`, `the root folder C:\ of a drive`},
		{`rm -rf C:/`, "root folder"},
		{`rm -rf /c`, "root folder"},
		{`rm -rf 'D:\'`, `the root folder D:\ of a drive`},
		{`rm -rf C:/*`, "holds your home folder"},
		{`rm -rf D:/*`, `top-level system folders matching D:\*`},
		{`rm -rf 'C:\Windows'`, `the top-level system folder C:\windows`},
		{`rm -rf '/c/Program Files'`, "top-level system folder"},
		{"rm -rf /", "root folder"},
		{"rm -rf .", "project root"},
		{"rm -rf *", "everything in the project root"},
		{`rm -rf "$CLAUDE_PROJECT_DIR"`, `the project root (C:\users\dev\acme-api)`},
		{`cd .. && rm -rf acme-api`, "project root"},
		{`cd 'C:\Users' && rm -rf dev`, "home folder"},
		{`cd /c/users && rm -rf *`, "home folder"},
		{"git push --force", "force push to main"},
		{`git -C 'C:\Users\dev\acme-api' push -f origin HEAD`, "force push to main"},
	} {
		reason, err := g.Check(context.Background(), tt.cmd, winProject)
		require.NoError(t, err, tt.cmd)
		if assert.NotEmpty(t, reason, "command should be denied: %q", tt.cmd) {
			assert.Contains(t, reason, tt.says, tt.cmd)
		}
	}
	for _, cmd := range []string{
		"rm -rf ./build",
		`rm -rf 'C:\Users\dev\acme-api\build'`,
		`rm -rf /c/Users/dev/acme-api/node_modules`,
		`rm -rf 'C:\Users\dev\Downloads\old'`,
		`rm -rf 'C:\Users\dev\acme-api\dist\*'`,
		`rm 'C:\Users\dev'`, // not recursive
		"git push origin main",
	} {
		reason, err := g.Check(context.Background(), cmd, winProject)
		require.NoError(t, err, cmd)
		assert.Empty(t, reason, "command should be allowed: %q", cmd)
	}
}

// TestCheckPOSIXPathsStayPOSIX checks that the Windows reading stays off
// for a POSIX session: there C:\x is a relative name and case matters.
func TestCheckPOSIXPathsStayPOSIX(t *testing.T) {
	g := testGuard()
	for _, cmd := range []string{`rm -rf 'C:\Users\dev'`, "rm -rf /HOME/DEV", "rm -rf /c/Users/dev/build"} {
		reason, err := g.Check(context.Background(), cmd, project)
		require.NoError(t, err, cmd)
		assert.Empty(t, reason, "command should be allowed: %q", cmd)
	}
}

// TestHandlerHomeFromUserProfile checks the hook's reading of its
// environment on Windows, where Claude Code may start it with no HOME:
// the home folder is %USERPROFILE%.
func TestHandlerHomeFromUserProfile(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("USERPROFILE", winHome)
	t.Setenv("CLAUDE_PROJECT_DIR", winProject)
	p := hooktest.WithField(payload(t, "cd build && sudo rm -fr ~/"), "cwd", winProject)
	rec := hooktest.Record(Handler(), p)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.Contains(t, rec.Reason, `it would delete your home folder (C:\users\dev)`)
}
