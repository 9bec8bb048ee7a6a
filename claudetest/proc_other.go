//go:build !unix

package claudetest

import "os/exec"

// ownProcessGroup does nothing here: a cancelled context kills claude
// only.
func ownProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup does nothing here.
func killProcessGroup(cmd *exec.Cmd) {}
