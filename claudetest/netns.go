package claudetest

import (
	"fmt"
	"os"
	"testing"

	"github.com/gohooks/hook/internal/clientrun"
)

// envInNetNS marks a process that [Main] restarted inside a new network
// namespace.
const envInNetNS = "HOOK_E2E_IN_NETNS"

// inLoopbackNetNS reports whether this process was restarted by [Main] in
// a network namespace that has only loopback.
func inLoopbackNetNS() bool { return os.Getenv(envInNetNS) == "1" }

// Main runs the tests of m with Claude Code installed beforehand and, where
// `unshare -n` works, in a network namespace that has only a loopback
// interface, so that neither Claude Code nor a hook can reach any address
// but 127.0.0.1. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) }
//
// Without HOOK_E2E=1 it only runs the tests (and [Run] skips). With it, it
// installs Claude Code first (the one step that needs the network), then
// restarts the test binary with the same arguments inside the namespace.
// $HOOK_E2E_NETNS=0 keeps the host network, and 1 makes a missing
// namespace an error. A test binary whose TestMain does not call Main runs
// on the host network, where Claude Code is still pointed only at
// 127.0.0.1 and every other request it tries is refused.
//
// Main returns m.Run's code, for os.Exit, in the process that ran the
// tests; the process it restarted from does not return.
func Main(m *testing.M) int {
	mainCalled = true
	if harness.Enabled() && !inLoopbackNetNS() {
		if bin, _, err := ensureClaude(os.Stderr); err == nil {
			// The restarted binary must not install again: no network there.
			os.Setenv(envBin, bin)
			if err := enterLoopbackNetNS(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		// A client that cannot be run is reported by each Run as a skip.
	}
	return m.Run()
}

// mainCalled says the test binary runs under [Main].
var mainCalled bool

// netNote says, for a run's log, what network the runs use.
func netNote() string {
	return clientrun.NetNote("Claude Code", "claudetest", envNetNS, inLoopbackNetNS(), mainCalled)
}

// enterLoopbackNetNS restarts the running program (same arguments and
// environment) inside a new network namespace that holds only a loopback
// interface. On success it does not return. It returns nil without
// restarting when $HOOK_E2E_NETNS is "0", or when it is "auto" (the
// default) and `unshare -n` does not work here.
func enterLoopbackNetNS() error {
	if err := clientrun.EnterLoopbackNetNS(os.Getenv(envNetNS), envInNetNS); err != nil {
		return fmt.Errorf("claudetest: %s: %w", envNetNS, err)
	}
	return nil
}
