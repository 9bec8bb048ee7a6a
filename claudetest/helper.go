package claudetest

import (
	"fmt"
	"os"
	"strings"

	"github.com/gohooks/hook/internal/clientrun"
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
		t := clientrun.Tap{Dir: os.Args[1], Label: os.Args[2], Argv: os.Args[3:], Env: helperFreeEnv()}
		os.Exit(t.Run(os.Stdin, os.Stdout, os.Stderr))
	case "mcpprobe":
		os.Exit(clientrun.ProbeMain(os.Args[1:]))
	default:
		fmt.Fprintf(os.Stderr, "claudetest: unknown %s=%q\n", envHelper, h)
		os.Exit(2)
	}
}

// helperFreeEnv returns the environment without the helper switch, for the
// hook under test.
func helperFreeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envHelper+"=") {
			env = append(env, kv)
		}
	}
	return env
}
