//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// These tests run the built hookcheck against hooks that attack it: one
// that prints without end, one that prints 100 MB per run, one that
// leaves a setsid child behind. They measure hookcheck's peak memory and
// look for processes left behind.

// hostile runs the hookcheck binary with args and returns its report and
// its peak resident set size in MiB (that of hookcheck or, if larger, of
// the largest process it waited for: the hooks here stay small).
func hostile(t *testing.T, bin string, args ...string) (*report, float64) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-json", "-timeout", "10m"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors_As(err, &ee) {
		require.NoError(t, err)
	}
	require.NotEqual(t, exitUsage, cmd.ProcessState.ExitCode(), stderr.String())
	var rep report
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep), "stderr: %s", stderr.String())
	rss := float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024
	return &rep, rss
}

func errors_As(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}

// processes returns the pids of the live processes whose command line
// starts with s, or with "setsid " and s.
func processes(s string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		line := string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		if strings.HasPrefix(line, s) || strings.HasPrefix(line, "setsid "+s) {
			out = append(out, pid)
		}
	}
	return out
}

func buildHookcheck(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"sh", "yes", "head", "setsid", "sleep"} {
		needs(t, p)
	}
	return hooktest.BuildGo(t, ".")
}

func TestHostileHooks(t *testing.T) {
	bin := buildHookcheck(t)
	few := []string{"-matcher", "Bash", "-per-member", "1", "-values", "title,quote,big integer"}

	t.Run("yes", func(t *testing.T) {
		rep, rss := hostile(t, bin, append(few, "--", "yes")...)
		t.Logf("yes: %d runs, peak RSS %.1f MiB", rep.Runs, rss)
		assert.Less(t, rss, 200.0)
		assert.False(t, rep.Passed)
		require.NotEmpty(t, rep.Cases)
		for _, c := range rep.Cases {
			fs := append(c.Findings, c.Strict...)
			require.NotEmpty(t, fs, c.Name)
			assert.Equal(t, kindOutput, fs[0].Kind, c.Name)
			assert.Contains(t, fs[0].Message, "stdout over 1048576 bytes")
			assert.False(t, c.TimedOut, "stopped at the cap, not at the timeout")
			assert.LessOrEqual(t, len(c.Stdout), kept+100)
		}
	})
	t.Run("100 MB printer", func(t *testing.T) {
		rep, rss := hostile(t, bin, append(few, "--", "sh", "-c", "cat >/dev/null; head -c 100000000 /dev/zero | tr '\\0' x")...)
		t.Logf("100 MB printer: %d runs, peak RSS %.1f MiB", rep.Runs, rss)
		assert.Less(t, rss, 200.0)
		for _, c := range rep.Cases {
			fs := append(c.Findings, c.Strict...)
			require.NotEmpty(t, fs, c.Name)
			assert.Equal(t, kindOutput, fs[0].Kind, c.Name)
		}
	})
	t.Run("setsid forker", func(t *testing.T) {
		rep, rss := hostile(t, bin, append(few, "--", "sh", "-c", "cat >/dev/null; setsid sleep 3131 </dev/null >/dev/null 2>&1 & echo forked")...)
		t.Logf("setsid forker: %d runs, peak RSS %.1f MiB", rep.Runs, rss)
		assert.Less(t, rss, 200.0)
		require.NotEmpty(t, rep.Cases)
		// A case reports the processes left running, unless its child was
		// still in the hook's process group when the hook exited (on a
		// loaded machine setsid may not have run yet) and died with it.
		// A process caught in the middle of its exec has no command line
		// yet, so the message names sleep 3131 in most reports, not all.
		reported, named := 0, 0
		for _, c := range rep.Cases {
			for _, f := range append(c.Findings, c.Strict...) {
				if f.Kind == kindSurvivors {
					reported++
					if strings.Contains(f.Message, "sleep 3131") {
						named++
					}
					break
				}
			}
		}
		assert.GreaterOrEqual(t, 2*reported, len(rep.Cases), "most runs leave a setsid child, and each is reported")
		assert.Positive(t, named, "the report names the process it killed")
		assert.Eventually(t, func() bool { return len(processes("sleep 3131")) == 0 }, 5*time.Minute, 20*time.Millisecond,
			"the setsid children were killed")
	})
}

// TestSignalKillsEveryRun stops hookcheck with SIGTERM while its runs
// wait, each with a setsid child: no process of theirs is left.
func TestSignalKillsEveryRun(t *testing.T) {
	bin := buildHookcheck(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			marker := "sleep 313" + strconv.Itoa(int(sig))
			cmd := exec.Command(bin, "-timeout", "5m", "-event", "Stop", "--", "sh", "-c",
				"cat >/dev/null; setsid "+marker+" </dev/null >/dev/null 2>&1 & "+marker+"1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			require.Eventually(t, func() bool { return len(processes(marker+" ")) > 0 && len(processes(marker+"1")) > 0 },
				5*time.Minute, 20*time.Millisecond, "the hooks started their children")
			require.NoError(t, cmd.Process.Signal(sig))
			select {
			case <-done:
			case <-time.After(5 * time.Minute): // a bound on a hang, not a speed target
				_ = cmd.Process.Kill()
				t.Fatal("hookcheck did not stop")
			}
			assert.Equal(t, exitFindings, cmd.ProcessState.ExitCode(), stderr.String())
			assert.Contains(t, stderr.String(), "interrupted after")
			// Killed processes take a moment to die; nothing else would end
			// these before their hour is up.
			assert.Eventually(t, func() bool { return len(processes(marker)) == 0 }, 5*time.Minute, 10*time.Millisecond,
				"hookcheck killed every run's processes: %v", processes(marker))
		})
	}
}
