package hook

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// Chain returns a handler that runs hs in order on each event and answers
// with their answers combined by the client's own rules, deterministically
// — what several hooks for one event do in Claude Code, without the race:
// the client runs separate hooks in parallel and applies answers as they
// finish, so the last rewrite wins and a sibling's answer has dropped
// rewrites in the past.
//
// The rules, for every event:
//   - Handlers run in the order given; a handler that does not answer the
//     event (a typed adapter of another event) is skipped.
//   - Each handler sees the event as the previous ones left it: after a
//     PreToolUse or PermissionRequest rewrite, the next handler's
//     tool_input is the rewritten input; after a PostToolUse
//     updatedToolOutput (or updatedMCPToolOutput), the next
//     tool_response is that output; after a MessageDisplay
//     displayContent, the next delta is it; after an ElicitationResult
//     action or content, the next action and content are those. So
//     rewrites compose, and the last one holds every earlier one.
//   - Each answer is validated against the event its handler saw: a
//     rewrite must keep every member of the input that handler was given
//     (or list it in Removed), not only those of the original. A rewrite
//     that undoes what an earlier handler of the chain did — lacks a
//     member it added or changed, or puts back, at any depth, a value it
//     changed or removed, as a rewrite built from a copy of the original
//     input does — is refused too. A member an earlier handler added is
//     lost only through [Remove] and Removed. An invalid answer is its
//     handler's failure.
//   - [Block] from any handler stops the chain and blocks (exit 2), as
//     does a [FailClosed] handler that fails: a fail-closed guard blocks
//     when it fails, whatever its neighbours do. On the events where a
//     block is feedback and every handler runs (Stop, SubagentStop,
//     PostToolBatch, PostToolUse) the block is taken as the JSON block it
//     equals, with its reason joined to the others'.
//   - Any other failure of a handler (an error, a panic, an invalid
//     answer, a context done before its turn) does not stop the chain,
//     so that a later handler can still deny or block, but it is the
//     chain's failure: the chain returns it as its error (the failures
//     joined, each as "hook: handler N of M (type) failed: …") and none
//     of the other answers is written. The scope around the chain sees
//     the failure as any handler's: a [FailClosed] wrapper or
//     [Server].FailClosed blocks (exit 2, however deeply the chain is
//     nested in Muxes, Chains and middleware), a fail-open [Server]
//     exits 1 and the client goes on without the hook's answer. A
//     failing guard therefore never lets a neighbour's allow through.
//     The one exception is an answer that refuses the action anyway (a
//     deny, a block, a declined or cancelled elicitation, a halt): it
//     stands, with one line per failure in its SystemMessage, which the
//     user sees. A fail-closed handler's answer next to a failure cannot
//     be written, so that failure blocks.
//   - Common fields: Halt ("continue": false) from any handler halts, with
//     the StopReasons joined; SystemMessages are joined; SuppressOutput
//     from any; TerminalSequences are concatenated. Halting does not stop
//     the chain.
//   - Texts (reasons, contexts, messages) are joined in order with a
//     newline.
//
// And per event:
//   - PreToolUse, PreSkillShellCommand, PreModelSwitch: the decision by
//     precedence deny > defer > ask > allow; the first deny stops the
//     chain; the reasons of the handlers whose decision won are joined;
//     additionalContext is joined. PreToolUse's updatedInput is the last
//     rewrite, which holds every earlier one (each handler saw the one
//     before), so a rewrite is never dropped by a later handler that says
//     nothing; Removed lists what any rewrite removed, and the final
//     updatedInput is checked against the original input. With a final
//     deny or defer the rewrite is left out (the client ignores it). A
//     legacy answer counts as its decision and is written in the current
//     form.
//   - PermissionRequest: the first deny stops the chain and is the
//     answer; otherwise allow from any handler allows, updatedInput
//     composes as for PreToolUse and updatedPermissions are concatenated.
//   - UserPromptSubmit, UserPromptExpansion, PreCompact, ConfigChange,
//     TaskCreated, Elicitation, ElicitationResult: the first block stops the
//     chain and wins. Contexts are joined; SessionTitle is the last one
//     given. A plain-text answer (Text) is kept as text when every answer
//     is text; next to JSON answers it becomes additionalContext (for
//     PreCompact and PostCompact, which have no JSON for it, mixing text
//     and JSON is a failure). Elicitation: a cancel from any handler wins,
//     else the last action given, with its content.
//   - Stop, SubagentStop, PostToolBatch, PostToolUse: every handler runs; a
//     block from any blocks, with the reasons of every blocking handler
//     joined (all of them reach Claude); contexts and classifierContext
//     are joined; PostToolUse's updatedToolOutput or
//     updatedMCPToolOutput is the last one given, in either form.
//   - SessionStart: contexts and initialUserMessages joined, SessionTitle
//     the last given, watchPaths the union in order, reloadSkills from
//     any. CwdChanged, FileChanged: watchPaths the union in order (an
//     empty list from one handler clears only if no handler adds a path).
//   - PermissionDenied: retry from any. MessageDisplay: the last
//     displayContent. WorktreeCreate: the first handler that gives a path
//     creates the worktree and stops the chain.
//   - Every other event: the common fields only.
//
// An [Async] answer cannot be combined and is a failure of its handler.
// Chain panics if a handler is nil; Chain() with no handlers answers
// nothing. Chain is the combining a [Mux] does for several matching
// registrations.
func Chain(hs ...Handler) Handler {
	for i, h := range hs {
		if isNil(h) {
			panic(fmt.Sprintf("hook: Chain: handler %d is nil", i))
		}
	}
	return chain(append([]Handler(nil), hs...))
}

type chain []Handler

// handles reports whether any handler of c answers event.
func (c chain) handles(event string) bool {
	for _, h := range c {
		if handlesEvent(h, event) {
			return true
		}
	}
	return false
}

// failsClosed reports whether a handler of c fails closed for event.
func (c chain) failsClosed(event string) bool {
	for _, h := range c {
		if handlerFailsClosed(h, event) {
			return true
		}
	}
	return false
}

// ServeHook runs the handlers in order and combines their answers.
func (c chain) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	return serveAll(ctx, ev, c)
}

// serveAll runs hs on ev as Chain documents and returns the combined
// answer.
func serveAll(ctx context.Context, ev *Event, hs []Handler) (Output, error) {
	name := ev.HookEventName
	ev.invocation() // the root of every view of the event
	view := ev
	var (
		acc      Output
		failures []error
	)
	for i, h := range hs {
		if !handlesEvent(h, name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			failures = append(failures, fmt.Errorf("hook: gave up before handler %d of %d (%T): %w", i+1, len(hs), h, context.Cause(ctx)))
			break
		}
		out, err := serveOne(ctx, view, h)
		var be *BlockError
		if errors.As(err, &be) {
			out = feedbackBlock(view, blockReason(be))
			if out == nil {
				return nil, err
			}
			err = nil
		}
		if err == nil && !noAnswer(out) {
			err = checkAnswer(view, out)
		}
		if err != nil {
			failures = append(failures, fmt.Errorf("hook: handler %d of %d (%T) failed: %w", i+1, len(hs), h, err))
			continue
		}
		if noAnswer(out) {
			continue
		}
		var stop bool
		acc, stop, err = combine(acc, out)
		if err != nil {
			failures = append(failures, fmt.Errorf("hook: handler %d of %d (%T): %w", i+1, len(hs), h, err))
			continue
		}
		if stop {
			break
		}
		if view, err = advance(view, out); err != nil {
			return nil, err
		}
	}
	if acc != nil {
		acc = finish(acc)
	}
	if len(failures) == 0 {
		return acc, nil
	}
	// A failure is the chain's: only an answer that refuses the action
	// anyway stands next to it, noted for the user.
	if acc == nil || !refuses(name, acc) || !textAnswerToJSON(acc) {
		return nil, chainFailure(failures)
	}
	c := commonOf(acc)
	for _, f := range failures {
		c.SystemMessage = joinText(c.SystemMessage, failLine(f))
	}
	return acc, nil
}

// chainFailure is the error of a chain whose handlers failed: the
// failures, one after the other.
func chainFailure(failures []error) error {
	if len(failures) == 1 {
		return failures[0]
	}
	return errors.Join(failures...)
}

// checkAnswer validates out, a handler's answer to view, a view made by
// the handlers before it: as an answer to the event it saw, and, for a
// rewrite, as one that keeps what was done to the input before it.
func checkAnswer(view *Event, out Output) error {
	if _, ok := out.(Async); ok {
		return errors.New("an Async answer cannot be combined with other handlers")
	}
	if _, err := out.appendAnswer(nil, view); err != nil {
		return fmt.Errorf("invalid answer to %s: %w", view.HookEventName, err)
	}
	return checkKept(view.origin(), view, out)
}

// refuses reports whether the answer out to the event name refuses the
// action behind it: a deny, a block, a declined or cancelled
// elicitation, or a halt ("continue": false) where the event honours one.
func refuses(name string, out Output) bool {
	if c := commonOf(out); c != nil && c.Halt && honoursHalt(name) {
		return true
	}
	switch o := out.(type) {
	case *PreToolUseOutput:
		return o.Decision == Deny
	case *PreSkillShellCommandOutput:
		return o.Decision == Deny
	case *PreModelSwitchOutput:
		return o.Decision == Deny
	case *PermissionRequestOutput:
		return o.Decision == Deny
	case *ElicitationOutput:
		return o.Block || o.Action == ElicitationDecline || o.Action == ElicitationCancel
	case *ElicitationResultOutput:
		return o.Block || o.Action == ElicitationDecline || o.Action == ElicitationCancel
	}
	v := reflect.ValueOf(out)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if b := v.Elem().FieldByName("Block"); b.IsValid() && b.Kind() == reflect.Bool {
			return b.Bool()
		}
	}
	return false
}

// honoursHalt reports whether Claude Code stops on "continue": false in
// an answer to the event name: it discards it on the observation-only
// events and ignores it on TaskCreated (see [Common]).
func honoursHalt(name string) bool {
	switch name {
	case EventSessionEnd, EventStopFailure, EventPreCompact, EventPostCompact, EventConfigChange,
		EventElicitation, EventElicitationResult, EventWorktreeRemove, EventInstructionsLoaded,
		EventMessageDisplay, EventNotification, EventTaskCreated:
		return false
	}
	return true
}

// textAnswerToJSON prepares a combined answer for a note in its JSON
// fields: a plain-text answer becomes additionalContext. It reports false
// for a text answer of an event with no JSON for the text (PreCompact,
// PostCompact), which then goes out without the note.
func textAnswerToJSON(out Output) bool {
	move := func(text, ctx *string) {
		*ctx, *text = joinText(*ctx, *text), ""
	}
	switch o := out.(type) {
	case *UserPromptSubmitOutput:
		move(&o.Text, &o.AdditionalContext)
	case *UserPromptExpansionOutput:
		move(&o.Text, &o.AdditionalContext)
	case *SessionStartOutput:
		move(&o.Text, &o.AdditionalContext)
	case *PostModelSwitchOutput:
		move(&o.Text, &o.AdditionalContext)
	case *PreCompactOutput:
		return o.Text == ""
	case *PostCompactOutput:
		return o.Text == ""
	}
	return commonOf(out) != nil
}

// feedbackBlock returns the JSON form of a block with reason on the
// events where a block is feedback for Claude and every handler runs
// (Stop, SubagentStop, PostToolBatch, PostToolUse), so that it joins the
// other handlers' reasons; nil on the other events, where a block stops
// the chain. A block turned into an answer still blocks if the answer
// cannot be written.
func feedbackBlock(ev *Event, reason string) Output {
	var out Output
	switch ev.HookEventName {
	case EventStop:
		out = &StopOutput{Block: true, Reason: reason}
	case EventSubagentStop:
		out = &SubagentStopOutput{Block: true, Reason: reason}
	case EventPostToolBatch:
		out = &PostToolBatchOutput{Block: true, Reason: reason}
	case EventPostToolUse:
		out = &PostToolUseOutput{Block: true, Reason: reason}
	default:
		return nil
	}
	if canBlock(ev.HookEventName) {
		ev.invocation().closedAnswer.Store(true)
	}
	return out
}

// serveOne calls h, turning a panic into an error.
func serveOne(ctx context.Context, ev *Event, h Handler) (out Output, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("panic: %v%s", p, panicSite())
		}
	}()
	return h.ServeHook(ctx, ev)
}

// advance returns the event the next handler sees after out answered
// view.
func advance(view *Event, out Output) (*Event, error) {
	if o, ok := out.(*ElicitationResultOutput); ok && o.Action != "" {
		s, err := wire.Marshal(o.Action)
		if err != nil {
			return nil, err
		}
		if view, err = view.withMember("action", s); err != nil {
			return nil, err
		}
	}
	if name, v := rewrite(out); v != nil {
		return view.withMember(name, v)
	}
	return view, nil
}

// rewrite returns the input member that the answer out replaces, and
// its new value: nil when out rewrites nothing.
func rewrite(out Output) (string, jsontext.Value) {
	switch o := out.(type) {
	case *PreToolUseOutput:
		if o.UpdatedInput != nil {
			return "tool_input", o.UpdatedInput
		}
	case *PermissionRequestOutput:
		if o.UpdatedInput != nil {
			return "tool_input", o.UpdatedInput
		}
	case *PostToolUseOutput:
		switch {
		case o.UpdatedToolOutput != nil:
			return "tool_response", o.UpdatedToolOutput
		case o.UpdatedMCPToolOutput != nil:
			return "tool_response", o.UpdatedMCPToolOutput
		}
	case *ElicitationResultOutput:
		if o.Content != nil {
			return "content", o.Content
		}
	case *MessageDisplayOutput:
		if o.DisplayContent != "" {
			s, err := wire.Marshal(o.DisplayContent)
			if err != nil {
				return "", nil // refused by the answer's own check
			}
			return "delta", s
		}
	}
	return "", nil
}

// withMember returns a copy of e whose input member name is value. The
// copy's invocation is a view's (see [invocation]): its answers are
// checked against its own input.
func (e *Event) withMember(name string, value jsontext.Value) (*Event, error) {
	key, err := wire.Marshal(name)
	if err != nil {
		return nil, err
	}
	patch := make([]byte, 0, len(key)+len(value)+3)
	patch = append(append(append(append(patch, '{'), key...), ':'), value...)
	patch = append(patch, '}')
	raw, err := Merge(e.raw, jsontext.Value(patch))
	if err != nil {
		return nil, err
	}
	ms, err := rawjson.MembersTrusted(raw)
	if err != nil {
		return nil, err
	}
	nv := *e
	nv.raw, nv.members = raw, ms
	nv.inv = &invocation{parent: e.invocation(), origin: e.origin()}
	return &nv, nil
}

// origin returns the event that the outermost chain of e was given: e
// itself unless e is a chain's view.
func (e *Event) origin() *Event {
	if e.inv != nil && e.inv.origin != nil {
		return e.inv.origin
	}
	return e
}

// joinText joins two texts with a newline, leaving out empty ones.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// joinCommon merges the common fields of n into a.
func joinCommon(a *Common, n Common) {
	a.Halt = a.Halt || n.Halt
	a.StopReason = joinText(a.StopReason, n.StopReason)
	a.SuppressOutput = a.SuppressOutput || n.SuppressOutput
	a.SystemMessage = joinText(a.SystemMessage, n.SystemMessage)
	a.TerminalSequence += n.TerminalSequence
}

// commonOf returns the Common of an answer.
func commonOf(out Output) *Common {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil
	}
	f := v.Elem().FieldByName("Common")
	if !f.IsValid() {
		return nil
	}
	c, _ := f.Addr().Interface().(*Common)
	return c
}

// rank orders permission decisions by precedence.
func rank(d PermissionDecision) int {
	switch d {
	case Deny:
		return 4
	case Defer:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// decide merges decision n (with reason nr) into *d (with reason *r).
func decide(d *PermissionDecision, r *string, n PermissionDecision, nr string) {
	switch {
	case rank(n) > rank(*d):
		*d, *r = n, nr
	case rank(n) == rank(*d) && n != "":
		*r = joinText(*r, nr)
	}
}

// union appends the members of b that a lacks.
func union(a, b []string) []string {
	for _, s := range b {
		found := false
		for _, t := range a {
			if s == t {
				found = true
				break
			}
		}
		if !found {
			a = append(a, s)
		}
	}
	return a
}

// unionPaths merges watch lists: nil is "no answer", an empty list
// clears.
func unionPaths(a, b []string) []string {
	if b == nil {
		return a
	}
	if a == nil {
		a = []string{}
	}
	return union(a, b)
}

// merge combines the answer n of type *T into acc (nil for the first
// answer) with f, which merges n into a fresh copy. It never modifies the
// handlers' own answers.
func merge[T any](acc Output, n *T, f func(a, n *T) (stop bool, err error)) (Output, bool, error) {
	a := new(T)
	if acc != nil {
		prev, ok := any(acc).(*T)
		if !ok {
			return acc, false, fmt.Errorf("answer of type %T next to one of type %T", n, acc)
		}
		*a = *prev
	}
	stop, err := f(a, n)
	if err != nil {
		return acc, false, err
	}
	return any(a).(Output), stop, nil
}

// textOnly reports whether v has only its Text set.
func textOnly[T any](v *T, text func(*T) *string) bool {
	if *text(v) == "" {
		return false
	}
	c := *v
	*text(&c) = ""
	return reflect.ValueOf(c).IsZero()
}

// mergeText merges n's text into a: texts stay text while every answer
// is text; otherwise every text goes to context (via ctx; nil when the
// event has no JSON for it, which makes the mix an error).
func mergeText[T any](a, n *T, text func(*T) *string, ctx func(*T) *string) error {
	if *text(n) == "" && *text(a) == "" {
		return nil
	}
	first := reflect.ValueOf(*a).IsZero()
	if (first || textOnly(a, text)) && textOnly(n, text) {
		*text(a) = joinText(*text(a), *text(n))
		return nil
	}
	if ctx == nil {
		return errors.New("a plain-text answer cannot be combined with a JSON answer for this event")
	}
	*ctx(a) = joinText(*ctx(a), *text(a))
	*text(a) = ""
	*ctx(a) = joinText(*ctx(a), *text(n))
	return nil
}

// combine merges the answer n into acc and reports whether the chain
// stops.
func combine(acc, n Output) (Output, bool, error) {
	switch n := n.(type) {
	case *PreToolUseOutput:
		return merge(acc, n, func(a, n *PreToolUseOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			decide(&a.Decision, &a.Reason, n.Decision, n.Reason)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			if n.UpdatedInput != nil {
				a.UpdatedInput = n.UpdatedInput
			}
			a.Removed = union(a.Removed, n.Removed)
			a.Legacy = false
			return n.Decision == Deny, nil
		})
	case *PreSkillShellCommandOutput:
		return merge(acc, n, decisions(func(o *PreSkillShellCommandOutput) (*PermissionDecision, *string) { return &o.Decision, &o.Reason }))
	case *PreModelSwitchOutput:
		return merge(acc, n, decisions(func(o *PreModelSwitchOutput) (*PermissionDecision, *string) { return &o.Decision, &o.Reason }))
	case *PermissionRequestOutput:
		return merge(acc, n, func(a, n *PermissionRequestOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			if n.Decision == Deny {
				c := a.Common
				*a = *n
				a.Common = c
				return true, nil
			}
			if n.Decision != "" {
				a.Decision = n.Decision
			}
			if n.UpdatedInput != nil {
				a.UpdatedInput = n.UpdatedInput
			}
			a.Removed = union(a.Removed, n.Removed)
			a.UpdatedPermissions = append(append([]PermissionUpdate(nil), a.UpdatedPermissions...), n.UpdatedPermissions...)
			return false, nil
		})
	case *PostToolUseOutput:
		return merge(acc, n, func(a, n *PostToolUseOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			a.Block = a.Block || n.Block
			a.Reason = joinText(a.Reason, n.Reason)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			a.ClassifierContext = joinText(a.ClassifierContext, n.ClassifierContext)
			// Each handler saw the last output as its tool_response,
			// so the last one given, in either form, holds the others.
			if n.UpdatedToolOutput != nil || n.UpdatedMCPToolOutput != nil {
				a.UpdatedToolOutput, a.UpdatedMCPToolOutput = n.UpdatedToolOutput, n.UpdatedMCPToolOutput
			}
			return false, nil
		})
	case *PostToolUseFailureOutput:
		return merge(acc, n, contexts(func(o *PostToolUseFailureOutput) *string { return &o.AdditionalContext }))
	case *PostToolBatchOutput:
		return merge(acc, n, feedback(func(o *PostToolBatchOutput) (*bool, *string, *string) {
			return &o.Block, &o.Reason, &o.AdditionalContext
		}))
	case *StopOutput:
		return merge(acc, n, feedback(func(o *StopOutput) (*bool, *string, *string) { return &o.Block, &o.Reason, &o.AdditionalContext }))
	case *SubagentStopOutput:
		return merge(acc, n, feedback(func(o *SubagentStopOutput) (*bool, *string, *string) {
			return &o.Block, &o.Reason, &o.AdditionalContext
		}))
	case *UserPromptSubmitOutput:
		return merge(acc, n, func(a, n *UserPromptSubmitOutput) (bool, error) {
			text := func(o *UserPromptSubmitOutput) *string { return &o.Text }
			ctx := func(o *UserPromptSubmitOutput) *string { return &o.AdditionalContext }
			if err := mergeText(a, n, text, ctx); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			if n.SessionTitle != "" {
				a.SessionTitle = n.SessionTitle
			}
			if n.Block {
				a.Block, a.Reason, a.SuppressOriginalPrompt = true, n.Reason, n.SuppressOriginalPrompt
			}
			return n.Block, nil
		})
	case *UserPromptExpansionOutput:
		return merge(acc, n, func(a, n *UserPromptExpansionOutput) (bool, error) {
			text := func(o *UserPromptExpansionOutput) *string { return &o.Text }
			ctx := func(o *UserPromptExpansionOutput) *string { return &o.AdditionalContext }
			if err := mergeText(a, n, text, ctx); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			if n.Block {
				a.Block, a.Reason, a.SuppressOriginalPrompt = true, n.Reason, n.SuppressOriginalPrompt
			}
			return n.Block, nil
		})
	case *SessionStartOutput:
		return merge(acc, n, func(a, n *SessionStartOutput) (bool, error) {
			text := func(o *SessionStartOutput) *string { return &o.Text }
			ctx := func(o *SessionStartOutput) *string { return &o.AdditionalContext }
			if err := mergeText(a, n, text, ctx); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			a.InitialUserMessage = joinText(a.InitialUserMessage, n.InitialUserMessage)
			if n.SessionTitle != "" {
				a.SessionTitle = n.SessionTitle
			}
			a.WatchPaths = unionPaths(a.WatchPaths, n.WatchPaths)
			a.ReloadSkills = a.ReloadSkills || n.ReloadSkills
			return false, nil
		})
	case *SetupOutput:
		return merge(acc, n, contexts(func(o *SetupOutput) *string { return &o.AdditionalContext }))
	case *SubagentStartOutput:
		return merge(acc, n, contexts(func(o *SubagentStartOutput) *string { return &o.AdditionalContext }))
	case *NotificationOutput:
		return merge(acc, n, contexts(func(o *NotificationOutput) *string { return &o.AdditionalContext }))
	case *PostModelSwitchOutput:
		return merge(acc, n, func(a, n *PostModelSwitchOutput) (bool, error) {
			text := func(o *PostModelSwitchOutput) *string { return &o.Text }
			ctx := func(o *PostModelSwitchOutput) *string { return &o.AdditionalContext }
			if err := mergeText(a, n, text, ctx); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
			return false, nil
		})
	case *PreCompactOutput:
		return merge(acc, n, func(a, n *PreCompactOutput) (bool, error) {
			if n.Block {
				c := a.Common
				*a = *n
				joinCommon(&c, n.Common)
				a.Common, a.Text = c, ""
				return true, nil
			}
			if err := mergeText(a, n, func(o *PreCompactOutput) *string { return &o.Text }, nil); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			return false, nil
		})
	case *PostCompactOutput:
		return merge(acc, n, func(a, n *PostCompactOutput) (bool, error) {
			if err := mergeText(a, n, func(o *PostCompactOutput) *string { return &o.Text }, nil); err != nil {
				return false, err
			}
			joinCommon(&a.Common, n.Common)
			return false, nil
		})
	case *ConfigChangeOutput:
		return merge(acc, n, gate(func(o *ConfigChangeOutput) (*bool, *string) { return &o.Block, &o.Reason }))
	case *TaskCreatedOutput:
		return merge(acc, n, gate(func(o *TaskCreatedOutput) (*bool, *string) { return &o.Block, &o.Reason }))
	case *ElicitationOutput:
		return merge(acc, n, elicitation(func(o *ElicitationOutput) elicitationFields {
			return elicitationFields{&o.Block, &o.Reason, &o.Action, &o.Content}
		}))
	case *ElicitationResultOutput:
		return merge(acc, n, elicitation(func(o *ElicitationResultOutput) elicitationFields {
			return elicitationFields{&o.Block, &o.Reason, &o.Action, &o.Content}
		}))
	case *PermissionDeniedOutput:
		return merge(acc, n, func(a, n *PermissionDeniedOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			a.Retry = a.Retry || n.Retry
			return false, nil
		})
	case *CwdChangedOutput:
		return merge(acc, n, watches(func(o *CwdChangedOutput) *[]string { return &o.WatchPaths }))
	case *FileChangedOutput:
		return merge(acc, n, watches(func(o *FileChangedOutput) *[]string { return &o.WatchPaths }))
	case *MessageDisplayOutput:
		return merge(acc, n, func(a, n *MessageDisplayOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			if n.DisplayContent != "" {
				a.DisplayContent = n.DisplayContent
			}
			return false, nil
		})
	case *WorktreeCreateOutput:
		return merge(acc, n, func(a, n *WorktreeCreateOutput) (bool, error) {
			joinCommon(&a.Common, n.Common)
			if n.WorktreePath != "" {
				a.WorktreePath, a.JSONForm = n.WorktreePath, n.JSONForm
				return true, nil
			}
			return false, nil
		})
	case *SessionEndOutput:
		return merge(acc, n, commonOnly[SessionEndOutput])
	case *StopFailureOutput:
		return merge(acc, n, commonOnly[StopFailureOutput])
	case *TeammateIdleOutput:
		return merge(acc, n, commonOnly[TeammateIdleOutput])
	case *TaskCompletedOutput:
		return merge(acc, n, commonOnly[TaskCompletedOutput])
	case *InstructionsLoadedOutput:
		return merge(acc, n, commonOnly[InstructionsLoadedOutput])
	case *DirectoryAddedOutput:
		return merge(acc, n, commonOnly[DirectoryAddedOutput])
	case *WorktreeRemoveOutput:
		return merge(acc, n, commonOnly[WorktreeRemoveOutput])
	}
	return acc, false, fmt.Errorf("an answer of type %T cannot be combined", n)
}

// commonOnly merges the answers of the events that take only the common
// fields.
func commonOnly[T any](a, n *T) (bool, error) {
	joinCommonOf(a, n)
	return false, nil
}

// joinCommonOf merges the common fields of the answer n into a.
func joinCommonOf[T any](a, n *T) {
	joinCommon(commonOf(any(a).(Output)), *commonOf(any(n).(Output)))
}

// contexts merges answers that hold a context to join.
func contexts[T any](ctx func(*T) *string) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		*ctx(a) = joinText(*ctx(a), *ctx(n))
		return false, nil
	}
}

// feedback merges the answers whose block is feedback for Claude: every
// handler runs, a block from any blocks, reasons and contexts joined.
func feedback[T any](f func(*T) (block *bool, reason, ctx *string)) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		ab, ar, ac := f(a)
		nb, nr, nc := f(n)
		*ab = *ab || *nb
		*ar, *ac = joinText(*ar, *nr), joinText(*ac, *nc)
		return false, nil
	}
}

// gate merges the answers whose block refuses an action: the first block
// stops the chain and wins.
func gate[T any](f func(*T) (block *bool, reason *string)) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		ab, ar := f(a)
		nb, nr := f(n)
		if *nb {
			*ab, *ar = true, *nr
		}
		return *nb, nil
	}
}

// decisions merges permission decisions by precedence; the first deny
// stops the chain.
func decisions[T any](f func(*T) (*PermissionDecision, *string)) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		ad, ar := f(a)
		nd, nr := f(n)
		decide(ad, ar, *nd, *nr)
		return *nd == Deny, nil
	}
}

// watches merges watch lists.
func watches[T any](paths func(*T) *[]string) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		*paths(a) = unionPaths(*paths(a), *paths(n))
		return false, nil
	}
}

// elicitationFields are the decision fields of the elicitation answers.
type elicitationFields struct {
	block   *bool
	reason  *string
	action  *ElicitationAction
	content *jsontext.Value
}

// elicitation merges elicitation answers: the first block stops the
// chain; a cancel wins; otherwise the last action, with its content.
func elicitation[T any](f func(*T) elicitationFields) func(a, n *T) (bool, error) {
	return func(a, n *T) (bool, error) {
		joinCommonOf(a, n)
		af, nf := f(a), f(n)
		if *nf.block {
			*af.block, *af.reason, *af.action, *af.content = true, *nf.reason, "", nil
			return true, nil
		}
		if *nf.action != "" && *af.action != ElicitationCancel {
			*af.action, *af.content = *nf.action, *nf.content
		}
		return false, nil
	}
}

// finish settles a combined answer: a PreToolUse rewrite is left out of a
// final deny or defer, which ignore it.
func finish(out Output) Output {
	if o, ok := out.(*PreToolUseOutput); ok && (o.Decision == Deny || o.Decision == Defer) {
		o.UpdatedInput, o.Removed = nil, nil
	}
	return out
}
