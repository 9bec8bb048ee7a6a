//go:build unix

package hooktest

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// setProcessGroup starts cmd in a new process group and makes a
// cancellation kill the whole group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killProcessGroup kills what is left of cmd's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killMarked kills every process whose environment holds the run's mark
// (markVar=mark), found in /proc; it returns "pid command line" for each.
// It looks again after a pass that killed something, for a process forked
// meanwhile. Without /proc (outside Linux) it finds nothing. A process
// that clears its environment escapes it.
func killMarked(mark string) []string {
	var out []string
	for range 5 {
		n := len(out)
		out = killMarkedOnce(mark, out)
		if len(out) == n {
			break
		}
	}
	return out
}

func killMarkedOnce(mark string, out []string) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	want := []byte(markVar + "=" + mark + "\x00")
	self := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || slices.ContainsFunc(out, func(s string) bool { return strings.HasPrefix(s, e.Name()+" ") }) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !hasEntry(env, want) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if syscall.Kill(pid, syscall.SIGKILL) != nil {
			continue
		}
		out = append(out, e.Name()+" "+string(bytes.TrimSpace(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))))
	}
	return out
}

// hasEntry reports whether the NUL-separated environment env holds the
// entry want (which ends in NUL).
func hasEntry(env, want []byte) bool {
	if bytes.HasPrefix(env, want) {
		return true
	}
	return bytes.Contains(env, append([]byte{0}, want...))
}
