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
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the stopguard hook.
func Handler() hook.Handler {
	return hook.StopFunc(guard)
}

// Marker is the marker file's path inside the project root.
var Marker = filepath.Join(".claude", "unfinished")

// maxNote caps how much of the marker's text is quoted.
const maxNote = 2000

func guard(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
	root := os.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = e.Cwd
	}
	marker := filepath.Join(root, Marker)
	note, err := os.ReadFile(marker)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // nothing unfinished
	}
	if err != nil {
		return nil, fmt.Errorf("stopguard: %w", err)
	}
	if e.StopHookActive {
		// Claude already went on once because of a Stop hook: let it stop.
		return &hook.StopOutput{Common: hook.Common{
			SystemMessage: fmt.Sprintf("stopguard: Claude stopped although %s says the work is unfinished.", marker),
		}}, nil
	}
	text := strings.TrimSpace(string(note))
	if len(text) > maxNote {
		cut := maxNote
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "\n… (cut)"
	}
	reason := fmt.Sprintf("stopguard: the work is not finished yet: %s is still there.", marker)
	if text != "" {
		reason += " It says what is left:\n" + text + "\n\n"
	} else {
		reason += " "
	}
	reason += fmt.Sprintf("Finish it, then delete %s. If something cannot be done, say why and delete the file.", marker)
	return &hook.StopOutput{Block: true, Reason: reason}, nil
}
