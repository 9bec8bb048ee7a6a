//go:build unix

package hooktest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// TestRunCommandKillsTheProcessGroupOnTimeout: when ctx is done, Run
// kills the hook's whole process tree, a grandchild that holds stdout open
// included, and says why. The test waits for the hook to have started
// its grandchild, then cancels with a deadline's cause: nothing depends on
// how fast the machine is.
func TestRunCommandKillsTheProcessGroupOnTimeout(t *testing.T) {
	needs(t, "bash")
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	type ran struct {
		r   *hooktest.Recorder
		err error
	}
	done := make(chan ran, 1)
	go func() {
		// The hook starts a grandchild that holds stdout open, then waits.
		r, err := (&hooktest.Command{Path: "bash", Args: []string{"-c", `sleep 86400 & echo $! >"$1.tmp" && mv "$1.tmp" "$1"; wait`, "hook", pidFile}}).Run(ctx, hooktest.Payload("pretooluse-bash"))
		done <- ran{r, err}
	}()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(pidFile)
		if err == nil {
			pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		return err == nil
	}, 5*time.Minute, 10*time.Millisecond, "the hook started its grandchild")
	cancel(context.DeadlineExceeded)
	res := <-done
	require.Error(t, res.err)
	assert.True(t, errors.Is(res.err, context.DeadlineExceeded), "%v", res.err)
	assert.Contains(t, res.err.Error(), "did not finish in time and was killed")
	require.NotNil(t, res.r)
	assert.Equal(t, -1, res.r.Code)
	assert.Contains(t, res.r.Err().Error(), hooktest.RuleExitCode)
	assert.Eventually(t, func() bool { return gone(pid) }, 5*time.Minute, 10*time.Millisecond, "the grandchild %d was killed", pid)
}

// TestRunCommandDeadline: a hook that never ends is killed at the
// context's deadline. The deadline is short, since it is what is tested:
// the hook never finishes, however fast the machine.
func TestRunCommandDeadline(t *testing.T) {
	needs(t, "sleep")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, err := (&hooktest.Command{Path: "sleep", Args: []string{"86400"}}).Run(ctx, hooktest.Payload("stop"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
	require.NotNil(t, r)
	assert.Equal(t, -1, r.Code)
}

// gone reports whether the process pid has ended: it no longer exists, or
// it is a zombie waiting for its parent.
func gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && strings.Contains(string(b), ") Z ")
}

func TestRunCommandEnvironment(t *testing.T) {
	needs(t, "bash")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	in := hooktest.WithField(hooktest.Payload("pretooluse-bash"), "cwd", dir)
	cmd := &hooktest.Command{Path: "bash", Args: []string{"-c", `cat >/dev/null; printf '%s\n%s\n%s\n' "$CLAUDE_PROJECT_DIR" "$PWD" "$EXTRA"`}, Env: []string{"EXTRA=yes"}}
	r, err := cmd.Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, dir+"\n"+dir+"\nyes\n", string(r.Stdout), "run in the payload's cwd, which is the project directory")
	assert.NoError(t, r.Err())

	// A cwd that does not exist here: the current directory.
	wd, err := os.Getwd()
	require.NoError(t, err)
	r, err = cmd.Run(context.Background(), hooktest.Payload("pretooluse-bash"))
	require.NoError(t, err)
	assert.Equal(t, "/home/dev/acme-api\n"+wd+"\nyes\n", string(r.Stdout))
}

func TestRunCommandStdin(t *testing.T) {
	needs(t, "bash")
	// Claude Code writes the payload, one newline, and closes stdin.
	in := hooktest.Payload("stop")
	r, err := (&hooktest.Command{Path: "bash", Args: []string{"-c", `cat >&2`}}).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, string(in)+"\n", string(r.Stderr))
	assert.Equal(t, 0, r.Code)
}

func TestRunCommandKillsASetsidChild(t *testing.T) {
	needs(t, "setsid")
	needs(t, "sleep")
	// The child leaves the process group and outlives the hook.
	r, err := (&hooktest.Command{Path: "sh", Args: []string{"-c", `setsid sleep 297 </dev/null >/dev/null 2>&1 & echo started`}}).Run(context.Background(), hooktest.Payload("stop"))
	require.NoError(t, err)
	assert.Equal(t, 0, r.Code)
	require.Len(t, r.Survivors, 1, "stderr: %s", r.Stderr)
	assert.Contains(t, r.Survivors[0], "sleep 297")
	require.Error(t, r.Err())
	assert.Contains(t, r.Err().Error(), hooktest.RuleSurvivors)
	pid, err := strconv.Atoi(strings.Fields(r.Survivors[0])[0])
	require.NoError(t, err)
	assert.Eventually(t, func() bool { return gone(pid) }, 5*time.Minute, 10*time.Millisecond, "the setsid child %d was killed", pid)
}

func TestRunCommandCapsOutput(t *testing.T) {
	needs(t, "yes")
	c := &hooktest.Command{Path: "yes", MaxOutputBytes: 1 << 16}
	r, err := c.Run(context.Background(), hooktest.Payload("stop"))
	require.NoError(t, err)
	assert.True(t, r.StdoutOver)
	assert.False(t, r.StderrOver)
	assert.Len(t, r.Stdout, 1<<16)
	require.Error(t, r.Err())
	assert.Contains(t, r.Err().Error(), "stdout over 65536 bytes; the hook was stopped")
	assert.NotContains(t, r.Err().Error(), hooktest.RuleExitCode, "the stop is reported once, as what it is")
}
