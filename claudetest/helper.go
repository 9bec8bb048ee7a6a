package claudetest

import (
	"github.com/gohooks/hook/internal/clientrun"
)

// envHelper switches the test binary into one of claudetest's helpers: a
// hook recorder or an MCP probe. Claude Code starts them as the test
// binary itself, so that nothing has to be built for them.
const envHelper = "CLAUDETEST_HELPER"

// init runs a helper instead of the tests when the environment asks for
// one, and exits.
func init() { clientrun.HelperMain(envHelper, "claudetest") }
