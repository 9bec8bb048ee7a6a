//go:build !unix

package clientrun

import "os/exec"

// OwnProcessGroup does nothing here: a cancelled context kills claude
// only.
func OwnProcessGroup(cmd *exec.Cmd) {}

// KillProcessGroup does nothing here.
func KillProcessGroup(cmd *exec.Cmd) {}
