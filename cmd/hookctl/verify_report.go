package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/verdict"
)

// observed is what one verify run saw: the hook's invocations, what the
// tool received and what the model was told. Saved as observed.json in
// each run's folder, it is what the report is built from (and what the
// unit tests replay).
type observed struct {
	Plan verifyPlan `json:"plan"`
	// Runs are the invocations of the hook under test.
	Runs []hookRecord `json:"runs"`
	// Observed are verify's own PostToolUse / PostToolUseFailure
	// recorders' invocations for the call: the input the tool ran with.
	Observed []hookRecord `json:"observed,omitempty"`
	// ProbeArgs are the arguments the probe MCP server received.
	ProbeArgs jsontext.Value `json:"probeArgs,omitempty"`
	// Told is what the model was told about the call.
	Told *toldResult `json:"told,omitempty"`
	// ClaudeExit and ClaudeStderr are claude's exit code and first line
	// of stderr.
	ClaudeExit   int      `json:"claudeExit"`
	ClaudeStderr string   `json:"claudeStderr,omitempty"`
	Seconds      float64  `json:"seconds"`
	OutsideTries []string `json:"outsideTries,omitempty"`
	Fail         string   `json:"fail,omitempty"`
	// ToolRan says the call's tool ran, as its effect shows (the marker
	// file written), when no recorder saw it.
	ToolRan bool `json:"toolRan,omitempty"`
	// Warnings are the client's warnings about hooks or the project's
	// configuration (Codex's stderr).
	Warnings []string `json:"warnings,omitempty"`
	// CallLog are the lines the hook wrote to its call log, as the report
	// shows them (a hook built with the library writes one per call).
	CallLog []string `json:"callLog,omitempty"`
}

// hookRecord is one recorded invocation.
type hookRecord struct {
	Event    string         `json:"event"`
	In       jsontext.Value `json:"in,omitempty"`
	Out      string         `json:"out"`
	Err      string         `json:"err,omitempty"`
	Code     int            `json:"code"`
	Seconds  float64        `json:"seconds"`
	SpawnErr string         `json:"spawnErr,omitempty"`
}

// toldResult is the tool_result the model got.
type toldResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

// recordedRun turns a recorder's record into a hookRecord.
func recordedRun(r clientrun.Record) hookRecord {
	in := jsontext.Value(bytes.TrimSpace(r.In))
	if !in.IsValid(jsonopts.Read()) {
		in = marshalValue(string(r.In))
	}
	return hookRecord{Event: r.Event, In: in, Out: string(r.Out), Err: string(r.Err), Code: r.Code, Seconds: r.Elapsed.Seconds(), SpawnErr: r.SpawnErr}
}

// callID returns the tool_use id of the plan's call.
func (o *observed) callID() string {
	if o.Plan.Pre != nil {
		return clientrun.CallID(2)
	}
	return clientrun.CallID(1)
}

// The statuses of a hook in the report.
const (
	statusFired      = "fired"
	statusDidNotRun  = "did not run"  // fired, but its program could not start
	statusNotFired   = "did not fire" // the client never started it
	statusNotChecked = "not checked"  // verify could not make it fire
	statusWillNotRun = "will not run" // the agent does not run it for the user (trust, disabled)
)

// hookReport is one hook's line of the report (and its -json object).
type hookReport struct {
	N       int    `json:"n"`
	Scope   string `json:"scope"`
	File    string `json:"file"`
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	Command string `json:"command"`
	// Status is "fired", "did not run", "did not fire" or "not checked";
	// Why says why not, when verify can tell.
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
	// Fix says how to make a hook that will not run run.
	Fix string `json:"fix,omitempty"`
	// Call is the call the fake model made for it ("" for none).
	Call string `json:"call,omitempty"`
	// Valid says whether its answer is one Claude Code reads as meant;
	// Invalid says what is wrong with it.
	Valid   *bool  `json:"valid,omitempty"`
	Invalid string `json:"invalid,omitempty"`
	// Did is what it did: "blocked", "rewrote", "allowed", "asked",
	// "added context", "stopped", "no decision", "failed", "timed out".
	Did string `json:"did,omitempty"`
	// Lost are the members of the tool input a rewrite did not keep,
	// as JSON pointers with the problem; Received is the input the tool
	// ran with.
	Lost     []string       `json:"lost,omitempty"`
	Received jsontext.Value `json:"received,omitempty"`
	// Outcome is what became of the call: "ran" or "blocked".
	Outcome string `json:"outcome,omitempty"`
	// Told is what the model was told when the call did not run.
	Told string `json:"told,omitempty"`
	// Time is how long it ran, Timeout its timeout (both in seconds).
	Time    float64 `json:"time,omitempty"`
	Timeout float64 `json:"timeout,omitempty"`
	// Fail is the failure it was replaced by (-fail), and Outcome then
	// says whether the failure let the call through.
	Fail string `json:"fail,omitempty"`
	// Log are the hook's own lines of its calls (its call log, for a hook
	// built with the library).
	Log []string `json:"log,omitempty"`
}

// tapPrefix matches the recorder's part of a hook command where Claude
// Code quotes the command (a block message), so that it reads as the
// hook's own.
var tapPrefix = regexp.MustCompile(`\[[^\]\n]*?__tap -dir \S+ -label \S+ (?:-fail \S+ )?-- `)

// defaultTimeout is Claude Code's timeout of a command hook that sets
// none, in seconds.
const defaultTimeout = 600

// buildReport judges one run of the hook f.
func buildReport(n int, f found, o *observed) hookReport {
	r := hookReport{N: n, Scope: scopeName(f.src), File: fmt.Sprintf("%s:%d", f.file, f.hook.Line), Event: f.hook.Event,
		Matcher: f.hook.Matcher, Command: f.hook.Handler.String(), Timeout: f.hook.Handler.Timeout}
	if r.Timeout <= 0 {
		r.Timeout = defaultTimeout
	}
	if o.Fail == clientrun.FailHang && r.Timeout > hangTimeout {
		r.Timeout = hangTimeout
	}
	if o.Plan.Skip != "" {
		r.Status, r.Why = statusNotChecked, o.Plan.Skip
		return r
	}
	r.Fail = o.Fail
	r.Log = o.CallLog
	if o.Plan.Call != nil {
		r.Call = o.Plan.Call.Tool + " " + o.Plan.Call.Input
	}
	r.Outcome = outcome(o)
	if o.Told != nil && o.Told.IsError {
		r.Told = tapPrefix.ReplaceAllString(o.Told.Text, "[")
	}
	if len(o.Runs) == 0 {
		r.Status, r.Why = statusNotFired, notFiredWhy(o)
		return r
	}
	run := o.Runs[0]
	r.Time = run.Seconds
	if run.SpawnErr != "" || run.Code == 127 && spawnFailure(run.Err) {
		r.Status = statusDidNotRun
		r.Why = "spawn failure: " + firstLine(run.Err)
		if run.SpawnErr != "" {
			r.Why = "spawn failure: " + firstLine(run.SpawnErr)
		}
		r.Did = "failed"
		if c := f.hook.Handler.String(); (strings.Contains(c, "~") || strings.Contains(c, "$HOME")) && !strings.Contains(c, "/.claude/") {
			r.Why += claudeHomeNote
		}
		return r
	}
	r.Status = statusFired
	if h := f.hook.Handler; !(run.Code == -1 && (h.Async || h.AsyncRewake)) {
		// (An async hook still running at the end of the session is
		// killed there: it gave no answer to judge.)
		valid, invalid := judgeAnswer(f.hook.Event, run)
		r.Valid, r.Invalid = &valid, invalid
	}
	r.Did, r.Lost = whatItDid(f, run)
	if r.Did == "rewrote" {
		r.Received = received(o)
	}
	return r
}

// claudeHomeNote ends the note of a hook that did not run and whose
// program is under HOME.
const claudeHomeNote = " (verify runs with a scratch HOME that holds only ~/.claude: a program elsewhere under HOME is not there)"

// spawnFailure reports whether a shell's stderr says the command was not
// found (exit 127).
func spawnFailure(stderr string) bool {
	s := strings.ToLower(stderr)
	return strings.Contains(s, "not found") || strings.Contains(s, "no such file")
}

// outcome says what became of the call: "ran" when the tool ran (verify's
// PostToolUse recorder saw it, or the probe server got it), "blocked"
// when the model was told an error and the tool did not run, "" when
// there was no call.
func outcome(o *observed) string {
	if o.Plan.Call == nil {
		return ""
	}
	for _, r := range o.Observed {
		if r.Event == "PostToolUse" || r.Event == "PostToolUseFailure" {
			return "ran"
		}
	}
	if len(o.ProbeArgs) > 0 || o.ToolRan {
		return "ran"
	}
	return "blocked"
}

// received returns the input the tool ran with.
func received(o *observed) jsontext.Value {
	if len(o.ProbeArgs) > 0 {
		return o.ProbeArgs
	}
	for _, r := range o.Observed {
		if v, ok := clientrun.ValueAt(r.In, "tool_input"); ok {
			return v
		}
	}
	return nil
}

// notFiredWhy says why the hook did not fire, as far as the run tells.
func notFiredWhy(o *observed) string {
	switch {
	case o.ClaudeExit != 0:
		return fmt.Sprintf("claude exited %d: %s", o.ClaudeExit, o.ClaudeStderr)
	case o.ClaudeStderr != "" && strings.Contains(o.ClaudeStderr, "did not finish"):
		return o.ClaudeStderr
	case o.Plan.Call != nil && o.Told != nil && o.Told.IsError && o.Plan.NotAllowed:
		return "the call was refused before the permission flow asked: " + firstLine(o.Told.Text)
	case o.Plan.Call != nil && o.Told != nil && o.Told.IsError:
		return "the call was refused before the hook ran (a deny rule?): " + firstLine(o.Told.Text)
	case o.Plan.Call != nil && o.Told == nil:
		return "the model's call never reached the tool (see the run's api.log)"
	}
	return "Claude Code did not start it (see the run's debug.log)"
}

// judgeAnswer says whether the hook's answer is one Claude Code reads as
// the hook meant, and what is wrong with it.
func judgeAnswer(event string, run hookRecord) (bool, string) {
	out := strings.TrimSpace(run.Out)
	switch run.Code {
	case 0:
	case 2:
		if out != "" {
			return false, "exit 2 with stdout: Claude Code ignores stdout on exit 2"
		}
		return true, ""
	case -1:
		return false, "did not finish within its timeout"
	default:
		return false, fmt.Sprintf("exit %d: a non-blocking error (the action goes on unless onFailure is \"block\")", run.Code)
	}
	if out == "" {
		return true, ""
	}
	if !strings.HasPrefix(out, "{") {
		switch event {
		case "UserPromptSubmit", "SessionStart":
			return true, ""
		}
		return false, "stdout is plain text: Claude Code does not read it as an answer"
	}
	if !jsontext.Value(out).IsValid(jsonopts.Read()) {
		return false, "stdout starts with { but is not JSON: Claude Code treats it as plain text and obeys nothing in it"
	}
	if v, ok := clientrun.ValueAt([]byte(out), "hookSpecificOutput", "hookEventName"); ok {
		var name string
		if clientrun.Unmarshal(v, &name) != nil || name != event {
			return false, fmt.Sprintf("hookSpecificOutput.hookEventName is %s, not %q: Claude Code rejects the whole answer", v, event)
		}
	}
	return true, ""
}

// whatItDid reads what the hook's answer does, and for a rewrite the
// members of the tool input it did not keep.
func whatItDid(f found, run hookRecord) (string, []string) {
	out := []byte(strings.TrimSpace(run.Out))
	if h := f.hook.Handler; h.Async || h.AsyncRewake {
		return "ran in the background (async: decides nothing)", nil
	}
	switch {
	case run.Code == 2:
		return "blocked", nil
	case run.Code == -1:
		if f.hook.Handler.OnFailure == "block" {
			return "timed out (blocked: onFailure)", nil
		}
		return "timed out", nil
	case run.Code != 0:
		if f.hook.Handler.OnFailure == "block" {
			return fmt.Sprintf("failed, exit %d (blocked: onFailure)", run.Code), nil
		}
		return fmt.Sprintf("failed, exit %d", run.Code), nil
	}
	if len(out) == 0 || out[0] != '{' || !jsontext.Value(out).IsValid(jsonopts.Read()) {
		if len(out) > 0 && (f.hook.Event == "UserPromptSubmit" || f.hook.Event == "SessionStart") {
			return "added context", nil
		}
		return "no decision", nil
	}
	str := func(names ...string) string {
		var s string
		if v, ok := clientrun.ValueAt(out, names...); ok {
			clientrun.Unmarshal(v, &s)
		}
		return s
	}
	if v, ok := clientrun.ValueAt(out, "continue"); ok && string(v) == "false" {
		return "stopped", nil
	}
	switch {
	case str("hookSpecificOutput", "permissionDecision") == "deny", str("decision") == "block",
		str("hookSpecificOutput", "decision", "behavior") == "deny":
		return "blocked", nil
	}
	if upd, ok := clientrun.ValueAt(out, "hookSpecificOutput", "updatedInput"); ok {
		in, _ := clientrun.ValueAt(run.In, "tool_input")
		var lost []string
		if diffs, err := verdict.Compare(in, upd, nil); err == nil {
			for _, d := range diffs {
				if d.Problem != verdict.Respelled {
					lost = append(lost, d.Pointer+" ("+d.Problem+")")
				}
			}
		}
		return "rewrote", lost
	}
	switch str("hookSpecificOutput", "permissionDecision") {
	case "allow":
		return "allowed", nil
	case "ask":
		return "asked", nil
	}
	if str("hookSpecificOutput", "decision", "behavior") == "allow" {
		return "allowed", nil
	}
	if str("hookSpecificOutput", "additionalContext") != "" {
		return "added context", nil
	}
	return "no decision", nil
}

// problem reports whether r is a hook that should have fired and did not
// (or whose program did not run).
func (r hookReport) problem() bool {
	return r.Status == statusNotFired || r.Status == statusWillNotRun || r.Status == statusDidNotRun && r.Fail == ""
}

// summary says in a few words what became of the hook, for the progress
// line.
func (r hookReport) summary() string {
	parts := []string{r.Status}
	if r.Did != "" {
		parts = append(parts, r.Did)
	}
	if r.Outcome != "" {
		parts = append(parts, "the call "+r.Outcome)
	}
	if r.Why != "" {
		parts = append(parts, r.Why)
	}
	return strings.Join(parts, ", ")
}

// printReport writes the reports as a table.
func printReport(w io.Writer, reps []hookReport) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tEVENT\tMATCHER\tFROM\tSTATUS\tANSWER\tDID\tCALL\tTIME\t")
	for _, r := range reps {
		answer := ""
		if r.Valid != nil {
			answer = "valid"
			if !*r.Valid {
				answer = "invalid"
			}
		}
		tm := ""
		if r.Time > 0 || r.Status == statusFired {
			tm = fmt.Sprintf("%.2fs/%gs", r.Time, r.Timeout)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.N, r.Event, orDash(r.Matcher), r.File, r.Status, orDash(answer), orDash(r.Did), orDash(r.Outcome), orDash(tm))
	}
	tw.Flush()
	for _, r := range reps {
		var notes []string
		if r.Why != "" {
			notes = append(notes, r.Why)
		}
		if r.Fix != "" {
			notes = append(notes, "fix: "+r.Fix)
		}
		if r.Invalid != "" {
			notes = append(notes, "answer: "+r.Invalid)
		}
		var changed, lost []string
		for _, l := range r.Lost {
			if p, ok := strings.CutSuffix(l, " ("+verdict.Changed+")"); ok {
				changed = append(changed, p)
			} else {
				lost = append(lost, l)
			}
		}
		if len(changed) > 0 {
			notes = append(notes, "the rewrite changed "+strings.Join(changed, ", "))
		}
		if len(lost) > 0 {
			notes = append(notes, "the rewrite lost "+strings.Join(lost, ", "))
		}
		if r.Told != "" {
			notes = append(notes, fmt.Sprintf("the model was told %.200q", r.Told))
		}
		if len(r.Received) > 0 {
			notes = append(notes, "the tool received "+string(r.Received))
		}
		if r.Fail != "" {
			notes = append(notes, fmt.Sprintf("replaced by a hook that %s: the call %s", map[string]string{clientrun.FailCrash: "crashes", clientrun.FailHang: "hangs"}[r.Fail], orDash(r.Outcome)))
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, "#%d %s: %s\n", r.N, r.Command, strings.Join(notes, "; "))
		}
		for _, l := range r.Log {
			fmt.Fprintf(w, "#%d log: %s\n", r.N, l)
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeReportJSON writes the reports as a JSON array.
func writeReportJSON(w io.Writer, reps []hookReport) error {
	if reps == nil {
		reps = []hookReport{}
	}
	b, err := json.Marshal(reps, jsonopts.Deterministic())
	if err != nil {
		return err
	}
	if err := (*jsontext.Value)(&b).Indent(); err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
