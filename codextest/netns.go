package codextest

import (
	"fmt"
	"os"
	"testing"

	"github.com/gohooks/hook/internal/clientrun"
)

// inLoopbackNetNS reports whether this process was restarted (by [Main],
// or by claudetest.Main) in a network namespace that has only loopback.
func inLoopbackNetNS() bool { return os.Getenv(envInNetNS) == "1" }

// Main runs the tests of m with Codex installed beforehand and, where
// `unshare -n` works, in a network namespace that has only a loopback
// interface, so that neither Codex nor a hook can reach any address but
// 127.0.0.1. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(codextest.Main(m)) }
//
// Without HOOK_E2E=1 it only runs the tests (and [Run] skips). With it, it
// installs Codex first (the one step that needs the network), then
// restarts the test binary with the same arguments inside the namespace.
// $HOOK_E2E_NETNS=0 keeps the host network, and 1 makes a missing
// namespace an error. A test binary whose TestMain does not call Main
// runs on the host network, where Codex is still pointed only at
// 127.0.0.1 and every other request it tries through its proxy is
// refused.
//
// A test binary that uses claudetest too calls [Client] first and then
// claudetest.Main, which restarts it the same way (the namespace is
// shared: both look at the same variables):
//
//	func TestMain(m *testing.M) {
//		if os.Getenv("HOOK_E2E") == "1" {
//			codextest.Client(os.Stderr) // install before the namespace; Run reports a failure
//		}
//		os.Exit(claudetest.Main(m))
//	}
//
// Main returns m.Run's code, for os.Exit, in the process that ran the
// tests; the process it restarted from does not return.
func Main(m *testing.M) int {
	mainCalled = true
	if harness.Enabled() && !inLoopbackNetNS() {
		if _, _, err := ensureCodex(os.Stderr); err == nil {
			// ensureCodex set $HOOK_E2E_CODEX_BIN: the restarted binary
			// does not install again (no network there).
			if err := clientrun.EnterLoopbackNetNS(os.Getenv(envNetNS), envInNetNS); err != nil {
				fmt.Fprintf(os.Stderr, "codextest: %s: %v\n", envNetNS, err)
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
	return clientrun.NetNote("Codex", "codextest", envNetNS, inLoopbackNetNS(), mainCalled)
}
