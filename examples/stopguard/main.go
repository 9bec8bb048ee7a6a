// Command stopguard is a Stop hook that keeps Claude working while a
// marker file says the work is unfinished. The marker is
// .claude/unfinished in the project root ($CLAUDE_PROJECT_DIR, or the
// session's folder); its text, if any, says what is left. While it
// exists, stopguard blocks Claude from stopping and hands it that text as
// its next instruction: finish the items, then delete the marker.
//
// It can never loop: when Claude is already continuing because of a Stop
// hook (stop_hook_active), stopguard lets it stop and tells the user,
// with a system message, that the marker is still there. Register it:
//
//	{"hooks": {"Stop": [{"hooks": [{"type": "command",
//	  "command": "/path/to/stopguard"}]}]}}
//
// Try it (the payload names the current folder as the project):
//
//	mkdir -p .claude && echo "- run the tests" > .claude/unfinished
//	go run ./examples/stopguard < examples/stopguard/testdata/stop.json
//	rm .claude/unfinished
package main

import (
	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/stoprules"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the stopguard hook.
func Handler() hook.Handler {
	return hook.StopFunc(stoprules.Guard)
}

// Marker is the marker file's path inside the project root.
var Marker = stoprules.Marker
