package hook

import (
	"io"
	"os"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/calllog"
	"github.com/gohooks/hook/internal/wire"
)

// CallLogEnv is the environment variable that names the call log of a
// command hook whose [Server] sets no CallLog: set it in the hook's
// environment (the "env" of Claude Code's settings, or the shell that
// starts Claude Code) to see each call of every hook built with the
// library. docs/reliability.md describes the log.
const CallLogEnv = "HOOK_CALL_LOG"

// callLog is the call log of one invocation: the file and when the call
// started. A nil *callLog logs nothing and costs nothing.
type callLog struct {
	path  string
	start time.Time
}

// callLog returns the call log of an invocation that starts now, or nil
// when s keeps none (CallLog and $HOOK_CALL_LOG empty).
func (s *Server) callLog() *callLog {
	p := s.CallLog
	if p == "" {
		p = os.Getenv(CallLogEnv)
	}
	if p == "" {
		return nil
	}
	return &callLog{path: p, start: time.Now()}
}

// done appends the line of the invocation that wrote o and exits with
// code. A log that cannot be written changes neither the answer nor the
// exit code: when the hook exits 0 it says so in one line on stderr
// (where Claude Code shows it only in its debug output); after exit 1 or
// 2, whose stderr line is the failure or the block reason, it says
// nothing.
func (l *callLog) done(o outcome, code int, stderr io.Writer) {
	if l == nil {
		return
	}
	line := calllog.Line{
		Time:       l.start.UTC(),
		PID:        os.Getpid(),
		Answer:     answerKind(o, code),
		Exit:       code,
		DurationMS: float64(time.Since(l.start).Microseconds()) / 1000,
		At:         strings.TrimSuffix(strings.TrimPrefix(o.site, " (at "), ")"),
		Agent:      "unknown",
	}
	if code != ExitOK {
		line.Error = o.stderr
		if line.At == "" {
			line.At = siteIn(o.stderr)
		}
	}
	if ev := o.ev; ev != nil {
		line.Event, line.Session, line.AgentType = ev.HookEventName, ev.SessionID, ev.AgentType
		line.Tool, line.ToolUseID = stringField(ev, "tool_name"), stringField(ev, "tool_use_id")
		line.Agent = agentToken(ev.agent)
	}
	if err := calllog.Append(l.path, &line); err != nil && code == ExitOK {
		writeLine(stderr, "hook: call log: "+oneLine(err.Error()))
	}
}

// siteIn returns the "function file.go:line" of the last " (at …)"
// that panicSite added to a failure line (a panic that FailClosed or
// Chain caught and turned into an error), or "".
func siteIn(line string) string {
	i := strings.LastIndex(line, " (at ")
	if i < 0 {
		return ""
	}
	rest := line[i+len(" (at "):]
	j := strings.IndexByte(rest, ')')
	if j < 0 || !strings.Contains(rest[:j], ".go:") {
		return ""
	}
	return rest[:j]
}

// agentToken names an agent in the call log.
func agentToken(a Agent) string {
	switch a {
	case AgentClaudeCode:
		return "claude-code"
	case AgentCodex:
		return "codex"
	case AgentCursor:
		return "cursor"
	case AgentGemini:
		return "gemini-cli"
	case AgentCopilot:
		return "copilot-cli"
	case AgentCopilotCamel:
		return "copilot-cli-camel"
	}
	return "unknown"
}

// stringField returns the string member name of ev's input, or "".
func stringField(ev *Event, name string) string {
	raw, ok := ev.Field(name)
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if wire.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// answerShape is what answerKind reads of an answer.
type answerShape struct {
	Continue *bool  `json:"continue"`
	Decision string `json:"decision"`
	HSO      struct {
		PermissionDecision   string         `json:"permissionDecision"`
		UpdatedInput         jsontext.Value `json:"updatedInput"`
		UpdatedToolOutput    jsontext.Value `json:"updatedToolOutput"`
		UpdatedMCPToolOutput jsontext.Value `json:"updatedMCPToolOutput"`
		AdditionalContext    jsontext.Value `json:"additionalContext"`
		Decision             *struct {
			Behavior     string         `json:"behavior"`
			UpdatedInput jsontext.Value `json:"updatedInput"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

// answerKind names the kind of the answer o gave with exit code code
// (see calllog.Line.Answer).
func answerKind(o outcome, code int) string {
	switch {
	case code == ExitBlock:
		return "block"
	case code != ExitOK:
		return "error"
	case o.stdout == nil:
		return "none"
	case len(o.stdout) == 0 || o.stdout[0] != '{':
		return "text"
	}
	b := o.stdout
	if o.spliced != nil {
		// The vouched value is an updatedInput: null stands in for it.
		b = append(append(append([]byte(nil), o.stdout...), "null"...), o.after...)
	}
	var a answerShape
	if wire.Unmarshal(b, &a) != nil {
		return "answer"
	}
	var kinds []string
	h := &a.HSO
	switch {
	case h.PermissionDecision != "":
		kinds = append(kinds, h.PermissionDecision)
	case h.Decision != nil && h.Decision.Behavior != "":
		kinds = append(kinds, h.Decision.Behavior)
	case a.Decision == "block":
		kinds = append(kinds, "block")
	}
	if o.spliced != nil || len(h.UpdatedInput) > 0 || len(h.UpdatedToolOutput) > 0 || len(h.UpdatedMCPToolOutput) > 0 ||
		h.Decision != nil && len(h.Decision.UpdatedInput) > 0 {
		kinds = append(kinds, "rewrite")
	}
	if len(h.AdditionalContext) > 0 {
		kinds = append(kinds, "context")
	}
	if a.Continue != nil && !*a.Continue {
		kinds = append(kinds, "stop")
	}
	if len(kinds) == 0 {
		return "answer"
	}
	return strings.Join(kinds, "+")
}
