//go:build unix

package hook

import (
	"os/signal"
	"syscall"
)

// ignoreBrokenPipe makes a write to a closed stdout or stderr fail with
// EPIPE instead of killing the process with SIGPIPE, so that [Run] still
// settles the exit code (a fail-closed hook that cannot deliver its answer
// blocks).
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }
