package codextest

import (
	"fmt"
	"os"
	"strings"

	"github.com/gohooks/hook/internal/clientrun"
)

// init runs a helper instead of the tests when the environment asks for
// one, and exits: the hook recorder that Codex starts in front of each
// hook, or an MCP probe. They are the test binary itself, so that nothing
// has to be built for them.
func init() {
	switch h := os.Getenv(envHelper); h {
	case "":
		return
	case "hooktap":
		if len(os.Args) < 3 {
			fmt.Fprintln(os.Stderr, "usage: "+envHelper+"=hooktap <binary> DIR NAME [COMMAND [ARG...]]")
			os.Exit(1)
		}
		t := clientrun.Tap{Dir: os.Args[1], Label: os.Args[2], Argv: os.Args[3:], Env: helperFreeEnv()}
		os.Exit(t.Run(os.Stdin, os.Stdout, os.Stderr))
	case "mcpprobe":
		os.Exit(clientrun.ProbeMain(os.Args[1:]))
	default:
		fmt.Fprintf(os.Stderr, "codextest: unknown %s=%q\n", envHelper, h)
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
