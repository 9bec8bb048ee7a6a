//go:build !linux

package main

import (
	"fmt"
	"io"
	"os/exec"
	"runtime"
)

// enterManagedNS fails: only Linux lets verify show Claude Code other
// managed settings without writing the system folder.
func enterManagedNS(*exec.Cmd) error {
	return fmt.Errorf("on %s only an administrator can change that folder, and verify writes no system file (Linux runs use a private mount namespace)", runtime.GOOS)
}

// cmdManagedNS is the namespace helper, which exists on Linux only.
func cmdManagedNS(_ []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, managedFailPrefix+"%s has no user and mount namespaces\n", runtime.GOOS)
	return managedExitFailed
}

// startError says why the helper did not start.
func startError(err error) string { return "starting the namespace helper: " + err.Error() }
