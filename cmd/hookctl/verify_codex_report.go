package main

import (
	"fmt"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
)

// buildCodexReport judges one run of the Codex hook f, whose trust for
// the user is t.
func buildCodexReport(n int, f found, t codexHookTrust, o *observed) hookReport {
	r := buildReport(n, f, o)
	r.Timeout = float64(agent.CodexTimeout(f.hook.Event, t.hook.Handler.Timeout))
	if o.Fail == clientrun.FailHang && r.Timeout > hangTimeout {
		r.Timeout = hangTimeout
	}
	if r.Status == statusNotChecked {
		return r
	}
	r.Call = codexCallString(o.Plan)
	if r.Status == statusDidNotRun {
		r.Why = strings.TrimSuffix(r.Why, claudeHomeNote)
		if c := f.hook.Handler.String(); (strings.Contains(c, "~") || strings.Contains(c, "$HOME")) && !strings.Contains(c, "/.codex/") {
			r.Why += " (verify runs with a scratch HOME, also its CODEX_HOME, that holds only a copy of the user's Codex folder: a program elsewhere under HOME is not there)"
		}
	}
	switch {
	case t.noRun:
		r.Status, r.Why, r.Fix = statusWillNotRun, t.off, t.fix
		r.Call, r.Outcome, r.Told, r.Fail = "", "", "", ""
		return r
	case t.off != "" && len(o.Runs) == 0:
		r.Status, r.Why, r.Fix = statusWillNotRun, t.off, t.fix
	case t.off != "":
		r.Why = "Codex ran it although verify expected it not to: " + t.off
	case r.Status == statusNotFired:
		r.Why = codexNotFiredWhy(o)
	}
	if r.Status == statusFired {
		run := o.Runs[0]
		async := t.hook.Handler.Async || f.hook.Handler.Async
		if run.Code == -1 && run.Seconds == 0 && !async {
			// Codex kills a hook at its timeout with no signal the
			// recorder can catch to note the time: it ran that long.
			r.Time = r.Timeout
		}
		r.Valid, r.Invalid = nil, ""
		if !(run.Code == -1 && async) {
			// (An async hook still running at the end of the session is
			// stopped there: it gave no answer to judge.)
			valid, invalid := judgeCodexAnswer(f.hook.Event, run, async)
			r.Valid, r.Invalid = &valid, invalid
			if !valid && !async && (run.Code == 0 || run.Code == 2) {
				r.Did, r.Lost, r.Received = "failed (Codex ignores the answer)", nil, nil
			}
		}
		if async {
			r.Did = "ran async (Codex does not wait for it, and acts on no decision of it)"
			r.Lost, r.Received = nil, nil
		}
	}
	if t.note != "" {
		if r.Why != "" {
			r.Why += "; "
		}
		r.Why += t.note
	}
	return r
}

// codexCallString shows the plan's call as the hook sees it: the shell
// tool as Bash with its command.
func codexCallString(p verifyPlan) string {
	if p.Call == nil {
		return ""
	}
	if p.Call.Tool == "exec_command" {
		v, _ := clientrun.ValueAt([]byte(p.Call.Input), "cmd")
		return "Bash " + string(marshalValue(map[string]any{"command": jsonString(v)}))
	}
	return p.Call.Tool + " " + p.Call.Input
}

// jsonString returns the string the JSON value v holds ("" when none).
func jsonString(v []byte) string {
	var s string
	clientrun.Unmarshal(v, &s)
	return s
}

// codexNotFiredWhy says why a hook Codex should have run did not fire, as
// far as the run tells.
func codexNotFiredWhy(o *observed) string {
	switch {
	case o.ClaudeExit != 0 && o.ClaudeStderr != "":
		return fmt.Sprintf("codex exited %d: %s", o.ClaudeExit, o.ClaudeStderr)
	case o.ClaudeExit != 0:
		return fmt.Sprintf("codex exited %d", o.ClaudeExit)
	case len(o.Warnings) > 0:
		return "Codex warned: " + strings.Join(o.Warnings, "; ")
	case o.Plan.Call != nil && o.Told == nil:
		return "the model's call never reached the tool (see the run's api.log)"
	}
	return "Codex did not start it (see the run's codex.err)"
}

// judgeCodexAnswer says whether the hook's answer is one Codex reads as
// the hook meant, and what is wrong with it, by Codex's rules
// (internal/agent): the closed output schema of each event and the rules
// Codex applies after parsing, plain text only where Codex reads it,
// exit 2 only on the events where it blocks, and with a reason.
func judgeCodexAnswer(event string, run hookRecord, async bool) (bool, string) {
	out := []byte(strings.TrimSpace(run.Out))
	switch run.Code {
	case 0:
	case 2:
		switch {
		case !agent.CodexBlocksOnExit2(event):
			return false, fmt.Sprintf("exit 2: Codex blocks nothing on %s; it reports a failed hook and goes on", event)
		case strings.TrimSpace(run.Err) == "":
			return false, "exit 2 without a reason on stderr: Codex reports a failed hook and blocks nothing"
		}
		return true, ""
	case -1:
		return false, "did not finish within its timeout"
	default:
		return false, fmt.Sprintf("exit %d: Codex reports a failed hook and goes on", run.Code)
	}
	if len(out) == 0 {
		return true, ""
	}
	if out[0] != '{' {
		if err := agent.CheckCodexText(event, out); err != nil {
			return false, err.Error()
		}
		return true, ""
	}
	check := agent.CheckCodexAnswer
	if async {
		check = agent.CheckCodexAsyncAnswer
	}
	if err := check(event, out); err != nil {
		return false, err.Error()
	}
	return true, ""
}
