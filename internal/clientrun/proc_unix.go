//go:build unix

package clientrun

import (
	"os/exec"
	"syscall"
)

// OwnProcessGroup starts cmd in a process group of its own, which a
// cancelled context kills whole.
func OwnProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// KillProcessGroup kills what is left of cmd's process group.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
