// Package stoprules holds the rule of the stopguard example: Claude may
// not stop while a marker file says the work is unfinished.
package stoprules

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

// Marker is the marker file's path inside the project root.
var Marker = filepath.Join(".claude", "unfinished")

// MaxNote caps how much of the marker's text is quoted, in bytes.
const MaxNote = 2000

// Guard blocks Claude from stopping while the marker file exists in the
// project root (hook.Event.ProjectDir: $CLAUDE_PROJECT_DIR, or the
// session's folder), handing it
// the marker's text; when Claude already went on once because of a Stop
// hook it lets it stop, with a system message.
func Guard(ctx context.Context, e *hook.Stop) (*hook.StopOutput, error) {
	root := e.ProjectDir()
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
	if len(text) > MaxNote {
		cut := MaxNote
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
