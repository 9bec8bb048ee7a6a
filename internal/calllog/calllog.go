// Package calllog writes and reads the call log of command hooks: one
// JSON object a line, one line per call, appended by the hook process
// (see hook.Server.CallLog and docs/reliability.md, "The call log", which
// is the format's contract). hookctl reads it to show a hook's calls
// next to a verdict.
package calllog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook/internal/jsonopts"
)

// Line is one call of a hook. Members may be added in later versions;
// none is removed or changes its meaning.
type Line struct {
	// Time is when the call started, in UTC.
	Time time.Time `json:"time"`
	// PID is the hook process's id.
	PID int `json:"pid"`
	// Event is hook_event_name; "" when the input could not be read.
	Event string `json:"event"`
	// Tool is tool_name, on the events that carry one.
	Tool string `json:"tool,omitempty"`
	// ToolUseID is tool_use_id, on the events that carry one.
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Session is session_id.
	Session string `json:"session,omitempty"`
	// Agent is the coding agent that sent the call: "claude-code",
	// "codex", or "unknown" (a payload no agent would send, or input
	// that could not be read, such as a payload of an agent the library
	// does not serve).
	Agent string `json:"agent"`
	// AgentType is agent_type, inside a subagent or a session started
	// with --agent.
	AgentType string `json:"agent_type,omitempty"`
	// Answer is the kind of the answer: "none" (exit 0, nothing written),
	// "allow", "deny", "ask", "defer", "block", "rewrite", "context",
	// "stop", "text", "answer" (another JSON answer), or "error" (exit 1);
	// several kinds of one answer are joined with "+" ("allow+rewrite").
	Answer string `json:"answer"`
	// Exit is the process's exit code.
	Exit int `json:"exit"`
	// DurationMS is how long the call took, from the start of the read to
	// the end of the write, in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Error is the line written on stderr with exit code 1 or 2: the
	// failure, or the reason of a block.
	Error string `json:"error,omitempty"`
	// At is where a handler panicked: "function file.go:line".
	At string `json:"at,omitempty"`
}

// Append appends l to the file at path as one line, with one write to
// a file opened with O_APPEND, so that the lines of hook processes
// running at once never interleave; it creates the file (mode 0600)
// when it is missing. Calls in one process (an http hook server's
// concurrent requests) also take turns, so that their lines do not rest
// on the system's append being atomic between threads: Wine's is not.
func Append(path string, l *Line) error {
	b, err := json.Marshal(l, jsonopts.Marshal())
	if err != nil {
		return err
	}
	b = append(b, '\n')
	appending.Lock()
	defer appending.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// appending makes the appends of one process take turns.
var appending sync.Mutex

// maxLine bounds one line of the log when it is read.
const maxLine = 1 << 20

// Read reads the lines of a call log. Blank lines are skipped, members
// it does not know are ignored; a line that is not a JSON object of the
// format is an error naming its line number, returned with the lines
// before it.
func Read(r io.Reader) ([]Line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []Line
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(b, &l, jsonopts.Lenient()); err != nil {
			return out, fmt.Errorf("call log line %d: %w", n, err)
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// ReadFile reads the call log at path.
func ReadFile(path string) ([]Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}
