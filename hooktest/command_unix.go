//go:build unix

package hooktest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
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
// (markVar=mark), found in /proc among those not in before (the processes
// that ran before the run started); it returns "pid command line" for
// each.
// It looks again after a pass that killed something (a process forked
// meanwhile) or that could not read a process's environment (one in the
// middle of an exec shows none for a moment, longer on a loaded machine:
// it waits up to a quarter of a second for those), up to a few dozen
// times. Without /proc (outside Linux) it finds nothing. A process that
// clears its environment escapes it.
func killMarked(mark string, before map[string]bool) []string {
	var out []string
	// For unreadable environments: a process started with an empty one
	// stays so, so the wait is bounded.
	deadline := time.Now().Add(250 * time.Millisecond)
	for range 40 {
		n := len(out)
		var unsure bool
		out, unsure = killMarkedOnce(mark, before, out)
		if len(out) == n && (!unsure || time.Now().After(deadline)) {
			break
		}
		if unsure && len(out) == n {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return out
}

// killMarkedOnce is one pass of killMarked. unsure reports a live
// process whose environment could not be read.
func killMarkedOnce(mark string, before map[string]bool, out []string) (_ []string, unsure bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out, false
	}
	want := []byte(markVar + "=" + mark + "\x00")
	self := os.Getpid()
	for _, e := range ents {
		if before[e.Name()] {
			continue
		}
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || slices.ContainsFunc(out, func(s string) bool { return strings.HasPrefix(s, e.Name()+" ") }) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || len(env) == 0 {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) && live(e.Name()) {
				unsure = true
			}
			continue
		}
		if !hasEntry(env, want) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if syscall.Kill(pid, syscall.SIGKILL) != nil {
			continue
		}
		out = append(out, e.Name()+" "+string(bytes.TrimSpace(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))))
	}
	return out, unsure
}

// processes returns the names of /proc's process entries, to tell the
// processes a run started from those that ran before it (nil without
// /proc).
func processes() map[string]bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	m := make(map[string]bool, len(ents))
	for _, e := range ents {
		if c := e.Name()[0]; '0' <= c && c <= '9' {
			m[e.Name()] = true
		}
	}
	return m
}

// live reports whether the process pid (a /proc entry name) exists, owned
// by this user, is not a zombie and not a kernel thread.
func live(pid string) bool {
	st, err := os.Stat("/proc/" + pid)
	if err != nil {
		return false
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != os.Getuid() {
		return false
	}
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X' {
		return false
	}
	f := bytes.Fields(stat[i+2:]) // state, ppid, …
	return len(f) > 1 && string(f[1]) != "2" && pid != "2"
}

// hasEntry reports whether the NUL-separated environment env holds the
// entry want (which ends in NUL).
func hasEntry(env, want []byte) bool {
	if bytes.HasPrefix(env, want) {
		return true
	}
	return bytes.Contains(env, append([]byte{0}, want...))
}
