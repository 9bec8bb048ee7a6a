package claudetest

import (
	"fmt"
	"os"
)

// envHelper switches the test binary into one of claudetest's helpers: a
// hook recorder or an MCP probe. Claude Code starts them as the test
// binary itself, so that nothing has to be built for them.
const envHelper = "CLAUDETEST_HELPER"

// init runs a helper instead of the tests when the environment asks for
// one, and exits.
func init() {
	switch h := os.Getenv(envHelper); h {
	case "":
		return
	case "hooktap":
		if len(os.Args) < 3 {
			fmt.Fprintln(os.Stderr, "usage: CLAUDETEST_HELPER=hooktap <binary> DIR NAME [COMMAND [ARG...]]")
			os.Exit(1)
		}
		os.Exit(tap(os.Args[1], os.Args[2], os.Args[3:], os.Stdin, os.Stdout, os.Stderr))
	case "mcpprobe":
		os.Exit(probeMain(os.Args[1:]))
	default:
		fmt.Fprintf(os.Stderr, "claudetest: unknown %s=%q\n", envHelper, h)
		os.Exit(2)
	}
}
