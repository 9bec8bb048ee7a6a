package codextest

import (
	"github.com/gohooks/hook/internal/clientrun"
)

// init runs a helper instead of the tests when the environment asks for
// one, and exits: the hook recorder that Codex starts in front of each
// hook, or an MCP probe. They are the test binary itself, so that nothing
// has to be built for them.
func init() { clientrun.HelperMain(envHelper, "codextest") }
