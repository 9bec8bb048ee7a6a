//go:build !unix

package hooktest

import "os/exec"

// setProcessGroup does nothing where process groups are not available;
// a cancellation kills the process alone.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup does nothing where process groups are not available.
func killProcessGroup(cmd *exec.Cmd) {}

// killMarked finds nothing where there is no /proc.
func killMarked(mark string, before map[string]bool) []string { return nil }

// processes finds nothing where there is no /proc.
func processes() map[string]bool { return nil }
