package hooktest

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// Recorder is the result of one hook run, from [Record] (a [hook.Handler]
// in-process) or [Command.Run] (any hook program): what the hook wrote and
// how it exited, and a decoded, checked view of its answer. It plays the
// part of httptest.ResponseRecorder.
//
// The decoded fields are empty when stdout holds no JSON object; they
// show the answer as Claude Code would read it, even when the answer
// breaks a rule (see Problems).
type Recorder struct {
	// Code is the exit code; -1 for a process killed by a signal or a
	// timeout.
	Code int
	// Stdout and Stderr are everything the hook wrote, byte for byte.
	Stdout, Stderr []byte
	// Payload is the input the hook was given, without the newline that
	// follows it on stdin.
	Payload jsontext.Value
	// Event is the payload's hook_event_name.
	Event string
	// Duration is how long the run took.
	Duration time.Duration
	// StdoutOver and StderrOver are true when a program wrote more than
	// its [Command.MaxOutputBytes] on the stream: Stdout or Stderr then
	// holds the first MaxOutputBytes, and the program was stopped.
	StdoutOver, StderrOver bool
	// Survivors names the processes ("pid command line") that a program
	// left running after it ended, and that [Command.Run] killed.
	Survivors []string

	// Answer holds the top-level members of the JSON answer on stdout,
	// each exactly as written; nil when stdout holds no JSON object.
	Answer map[string]jsontext.Value
	// HookSpecificOutput holds the members of answer's hookSpecificOutput
	// object; nil when there is none.
	HookSpecificOutput map[string]jsontext.Value
	// Decision is the top-level decision ("approve", "block"), if any.
	Decision string
	// PermissionDecision is hookSpecificOutput.permissionDecision
	// (PreToolUse, PreSkillShellCommand, PreModelSwitch), or the behavior
	// of a PermissionRequest decision ([hook.Allow], [hook.Deny]), as
	// written: r.PermissionDecision == hook.Deny.
	PermissionDecision hook.PermissionDecision
	// Reason is hookSpecificOutput.permissionDecisionReason, the message
	// of a PermissionRequest deny decision, or else the top-level reason.
	Reason string
	// UpdatedInput is the updatedInput of the answer (of
	// hookSpecificOutput, or of a PermissionRequest decision), exactly as
	// written; nil when there is none.
	UpdatedInput jsontext.Value
	// UpdatedToolOutput is the updatedToolOutput of a PostToolUse answer
	// (or its updatedMCPToolOutput, when it has no updatedToolOutput and
	// that value is not one Claude Code ignores: null, "", 0 or false),
	// exactly as written; nil when there is none.
	UpdatedToolOutput jsontext.Value
	// AdditionalContext is hookSpecificOutput.additionalContext, if any.
	AdditionalContext string
	// Removed lists the tool_input members the handler's answer drops on
	// purpose ([hook.PreToolUseOutput.Removed] and
	// [hook.PermissionRequestOutput.Removed]); they are not reported as
	// lost. Only [Record] sees it: a program's stdout does not say.
	Removed []string

	// Problems lists the rules the result breaks, as found by
	// [CheckAnswer]: one [*Violation] each, in CheckAnswer's order. It is
	// empty for a good result. An answer the library refused to write
	// (exit code 1, "hook: invalid answer …") is one of them
	// ([RuleRefused]), with the library's whole message.
	Problems []error

	// Notes lists what the agent accepts but a reader should look at:
	// one [*Violation] of [NoteCrashReason] for an exit-2 reason that
	// ends like a crash. They are not failures.
	Notes []error
}

// FailsOpen reports whether the agent goes on with the call as if there
// were no hook after this run: the hook was killed (by a signal or a
// timeout), exited with a code other than 0 and 2 (a crash, a refused
// answer, a hook giving up), or exited 0 with an answer the agent cannot
// read or rejects as a whole (a [Violation] of [RuleStdout], [RuleNull]
// or [RuleEventName]; a name written twice, of which the agent keeps the
// last, is no such answer). A run that fails open where the hook meant to
// guard lets the call through.
func (r *Recorder) FailsOpen() bool {
	ignored := slices.ContainsFunc(r.Problems, func(e error) bool {
		v, ok := e.(*Violation)
		return ok && (v.Rule == RuleStdout && !strings.HasPrefix(v.Detail, dupDetail) || v.Rule == RuleNull || v.Rule == RuleEventName)
	})
	return verdict.FailsOpen(r.Code, ignored)
}

// Err returns the Problems joined with errors.Join: nil for a result that
// breaks no rule.
func (r *Recorder) Err() error { return errors.Join(r.Problems...) }

// Record runs h on payload in-process, through [hook.Serve] over real
// bytes: payload followed by a newline on stdin, stdout and stderr
// recorded. It checks the result with [CheckAnswer] and decodes the
// answer. A payload that is not a JSON object with a hook_event_name is
// still served (a hook must cope with it); Problems then holds the error
// that CheckAnswer returned. Record never panics on what h does: Serve
// turns a handler's panic into exit code 1.
func Record(h hook.Handler, payload []byte) *Recorder {
	return RecordContext(context.Background(), h, payload)
}

// RecordContext is [Record] with a context for the handler; Serve gives up
// on the handler when ctx is done.
func RecordContext(ctx context.Context, h hook.Handler, payload []byte) *Recorder {
	var stdout, stderr bytes.Buffer
	var removed []string
	start := time.Now()
	code := hook.Serve(ctx, bytes.NewReader(stdin(payload)), &stdout, &stderr, observe(h, &removed))
	r := &Recorder{Code: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Duration: time.Since(start), Removed: removed}
	r.finish(payload)
	return r
}

// observe returns h with its answer's Removed list copied to *removed.
// The observer is middleware that implements [hook.Wrapper], so the
// library still sees a fail-closed handler inside it (unreadable input
// then fails closed too).
func observe(h hook.Handler, removed *[]string) hook.Handler {
	if h == nil {
		return nil
	}
	return observer{h, removed}
}

// observer copies the Removed list of its handler's answer.
type observer struct {
	h       hook.Handler
	removed *[]string
}

// ServeHook calls the handler and notes its answer's Removed list.
func (o observer) ServeHook(ctx context.Context, ev *hook.Event) (hook.Output, error) {
	out, err := o.h.ServeHook(ctx, ev)
	switch a := out.(type) {
	case *hook.PreToolUseOutput:
		if a != nil {
			*o.removed = slices.Clone(a.Removed)
		}
	case *hook.PermissionRequestOutput:
		if a != nil {
			*o.removed = slices.Clone(a.Removed)
		}
	}
	return out, err
}

// Unwrap returns the observed handler.
func (o observer) Unwrap() hook.Handler { return o.h }

// stdin returns payload as Claude Code writes it: followed by one newline.
func stdin(payload []byte) []byte {
	b := make([]byte, 0, len(payload)+1)
	b = append(b, payload...)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

// finish fills in the payload, the decoded answer and the problems.
func (r *Recorder) finish(payload []byte) {
	r.Payload = clone(bytes.TrimRight(payload, "\n"))
	if ms, err := rawjson.Members(r.Payload); err == nil {
		r.Event, _ = stringMember(ms, "hook_event_name")
	}
	r.decode()
	c, err := newChecker(r.Payload)
	if err != nil {
		r.Problems = []error{err}
		return
	}
	c.removed = r.Removed
	c.check(r.Code, r.Stdout, r.Stderr)
	for _, v := range c.vs {
		r.Problems = append(r.Problems, v)
	}
	for _, v := range c.notes {
		r.Notes = append(r.Notes, v)
	}
}

// decode fills in the decoded view of the answer.
func (r *Recorder) decode() {
	text := trimJS(r.Stdout)
	if len(text) == 0 || text[0] != '{' {
		return
	}
	if first := firstLine(text); len(first) < len(text) {
		if _, ok := asyncAnnouncement(first); ok {
			text = trimJS(text[len(first):])
		}
	}
	ms, err := rawjson.Members(text)
	if err != nil {
		return
	}
	r.Answer = memberMap(ms)
	r.Decision, _ = stringMember(ms, "decision")
	r.Reason, _ = stringMember(ms, "reason")
	hso, ok := r.Answer["hookSpecificOutput"]
	if !ok {
		return
	}
	hms, err := rawjson.Members(hso)
	if err != nil {
		return
	}
	r.HookSpecificOutput = memberMap(hms)
	r.AdditionalContext, _ = stringMember(hms, "additionalContext")
	if s, ok := stringMember(hms, "permissionDecision"); ok {
		r.PermissionDecision = hook.PermissionDecision(s)
	}
	if s, ok := stringMember(hms, "permissionDecisionReason"); ok {
		r.Reason = s
	}
	if m, ok := rawjson.Find(hms, "updatedInput"); ok {
		r.UpdatedInput = m.Value
	}
	if m, ok := rawjson.Find(hms, "updatedToolOutput"); ok {
		r.UpdatedToolOutput = m.Value
	} else if m, ok := rawjson.Find(hms, "updatedMCPToolOutput"); ok && !falsy(m.Value) {
		r.UpdatedToolOutput = m.Value
	}
	if m, ok := rawjson.Find(hms, "decision"); ok {
		dms, err := rawjson.Members(m.Value)
		if err != nil {
			return
		}
		b, _ := stringMember(dms, "behavior")
		r.PermissionDecision = hook.PermissionDecision(b)
		if s, ok := stringMember(dms, "message"); ok {
			r.Reason = s
		}
		if m, ok := rawjson.Find(dms, "updatedInput"); ok {
			r.UpdatedInput = m.Value
		}
	}
}

// falsy reports whether the JSON value v is one JavaScript takes as false:
// null, false, "" or a zero number.
func falsy(v jsontext.Value) bool {
	switch v.Kind() {
	case 'n', 'f':
		return true
	case '"':
		return string(v) == `""`
	case '0':
		f, _ := strconv.ParseFloat(string(v), 64) // 1e-400 is 0 for JavaScript too
		return f == 0
	}
	return false
}

func memberMap(ms []rawjson.Member) map[string]jsontext.Value {
	m := make(map[string]jsontext.Value, len(ms))
	for _, x := range ms {
		m[x.Key] = x.Value
	}
	return m
}
