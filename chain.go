package hook

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
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
//     input does — is refused too: members are compared by name, array
//     elements by value wherever they stand, so a redacted element stays
//     redacted whatever the rewrite does around it. A member set back to
//     its original value on purpose (a clamp after a raise) composes
//     when [Merge], [Edit] or [Update] built the rewrite from the very
//     input the handler was given. A member an earlier handler added is
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
	defer checking(ev.origin())()
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
		forget := func() {}
		if view.origin() != view {
			// Its own rewrites of what it is given are known as such.
			forget = handOut(view, "tool_input", "tool_response", "content")
		}
		// A later handler sees the bytes this one is given: one that
		// writes into them (they are read-only, see Handler) would hand
		// it a change no answer carries, so the chain stops there.
		later := handledAfter(hs[i+1:], name)
		var (
			seed maphash.Seed
			sum  uint64
		)
		if later {
			seed = maphash.MakeSeed()
			sum = maphash.Bytes(seed, view.raw)
		}
		out, err := callHandler(ctx, view, h)
		if later && maphash.Bytes(seed, view.raw) != sum {
			forget()
			failures = append(failures, fmt.Errorf("hook: handler %d of %d (%T) wrote into the event it was given, whose raw values are read-only: the handlers after it would see a change no answer carries; build a rewrite with Merge, Edit or Remove, which copy", i+1, len(hs), h))
			break
		}
		var be *BlockError
		if errors.As(err, &be) {
			out = feedbackBlock(view, blockReason(be))
			if out == nil {
				return nil, err
			}
			err = nil
		}
		if err == nil && !noAnswer(out) {
			if err = checkAnswer(view, out); err == nil {
				carryVouch(view, out)
			}
		}
		forget()
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
		if !later {
			break // no handler is left to see the view
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

// handledAfter reports whether one of hs, the handlers after the one
// that just answered, answers the event name.
func handledAfter(hs []Handler, name string) bool {
	for _, h := range hs {
		if handlesEvent(h, name) {
			return true
		}
	}
	return false
}

// carryVouch lets the invocation Serve made vouch for the tool_input
// rewrite in out, an answer to view that passed its checks, when view's
// invocation vouches for it (a Merge of the view's tool_input, see
// viewInput) and out removes nothing: the rewrite then keeps every
// member of the view's input, which kept every member of Serve's (see
// keepsAll), so the answer is not split and checked again against that
// input when it is written, as a Merge of Serve's own input is not.
func carryVouch(view *Event, out Output) {
	if view.inv == nil || view.inv.parent == nil {
		return // Serve's own event: its Merge results are vouched already
	}
	name, upd := rewrite(out)
	if name != "tool_input" || upd == nil || !keepsAll(view, out) {
		return
	}
	view.inv.CarryTo(&view.inv.root().Vouching, upd)
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

// A refuser is an answer with its own rule for refusing the action (a
// deny, a declined elicitation); any other answer refuses with its Block
// field.
type refuser interface {
	refuses() bool
}

// refuses reports whether the answer out to the event name refuses the
// action behind it: a deny, a block, a declined or cancelled
// elicitation, or a halt ("continue": false) where the event honours one.
func refuses(name string, out Output) bool {
	if c := commonOf(out); c != nil && c.Halt && honoursHalt(name) {
		return true
	}
	if r, ok := out.(refuser); ok {
		return r.refuses()
	}
	v := reflect.ValueOf(out)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if b := v.Elem().FieldByName("Block"); b.IsValid() && b.Kind() == reflect.Bool {
			return b.Bool()
		}
	}
	return false
}

// A textAnswer is an answer that can be plain text; textToContext moves
// the text into the JSON fields (see textAnswerToJSON).
type textAnswer interface {
	textToContext() bool
}

// textAnswerToJSON prepares a combined answer for a note in its JSON
// fields: a plain-text answer becomes additionalContext. It reports false
// for a text answer of an event with no JSON for the text (PreCompact,
// PostCompact), which then goes out without the note.
func textAnswerToJSON(out Output) bool {
	if t, ok := out.(textAnswer); ok {
		return t.textToContext()
	}
	return commonOf(out) != nil
}

// A feedbackBlocker is the answer type of an event where a block is
// feedback for Claude and every handler of a chain runs.
type feedbackBlocker interface {
	feedbackBlock(reason string) Output
}

// feedbackBlock returns the JSON form of a block with reason on the
// events where a block is feedback for Claude and every handler runs
// (Stop, SubagentStop, PostToolBatch, PostToolUse), so that it joins the
// other handlers' reasons; nil on the other events, where a block stops
// the chain. A block turned into an answer still blocks if the answer
// cannot be written.
func feedbackBlock(ev *Event, reason string) Output {
	fb, ok := answerType(ev.HookEventName).(feedbackBlocker)
	if !ok {
		return nil
	}
	out := fb.feedbackBlock(reason)
	if ev.canBlock() {
		ev.invocation().closedAnswer.Store(true)
	}
	return out
}

// callHandler calls h, turning a panic into an error.
func callHandler(ctx context.Context, ev *Event, h Handler) (out Output, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("panic: %v%s", p, panicSite())
		}
	}()
	return h.ServeHook(ctx, ev)
}

// A rewriter is an answer that can replace a member of the event's
// input: a rewrite of the tool input or output, an elicitation's
// content, a message's display content. The next handler of a chain sees
// the rewrite.
type rewriter interface {
	// rewrite returns the input member the answer replaces and its new
	// value: nil when the answer rewrites nothing.
	rewrite() (member string, value jsontext.Value)
}

// A viewChanger is an answer that changes the event the next handler of
// a chain sees in more than its rewrite.
type viewChanger interface {
	nextView(view *Event) (*Event, error)
}

// advance returns the event the next handler sees after out answered
// view.
func advance(view *Event, out Output) (*Event, error) {
	if c, ok := out.(viewChanger); ok {
		return c.nextView(view)
	}
	return advanceRewrite(view, out)
}

// advanceRewrite returns view with the rewrite of out, if any.
func advanceRewrite(view *Event, out Output) (*Event, error) {
	if name, v := rewrite(out); v != nil {
		nv, err := view.withMember(name, v)
		if err == nil && keepsAll(view, out) {
			nv.inv.viewInput(nv, name, v)
		}
		return nv, err
	}
	return view, nil
}

// rewrite returns the input member that the answer out replaces, and
// its new value: nil when out rewrites nothing.
func rewrite(out Output) (string, jsontext.Value) {
	if r, ok := out.(rewriter); ok {
		return r.rewrite()
	}
	return "", nil
}

// withMember returns a copy of e whose input member name is value. The
// copy's invocation is a view's (see [invocation]): its answers are
// checked against its own input. The copy is built from e's members,
// which the read split: value replaces the member's value in place, or
// is appended, and nothing else is read again, so making a view costs a
// copy of the event.
func (e *Event) withMember(name string, value jsontext.Value) (*Event, error) {
	key, err := wire.Marshal(name)
	if err != nil {
		return nil, err
	}
	var (
		raw jsontext.Value
		ms  []rawjson.Member
	)
	value = trimJSONSpace(value)
	if len(e.members) > 0 {
		raw, ms = replaceMember(e.members, len(e.raw), name, key, value)
	} else {
		patch := make([]byte, 0, len(key)+len(value)+3)
		patch = append(append(append(append(patch, '{'), key...), ':'), value...)
		patch = append(patch, '}')
		if raw, err = Merge(e.raw, jsontext.Value(patch)); err != nil {
			return nil, err
		}
		if ms, err = rawjson.MembersTrusted(raw); err != nil {
			return nil, err
		}
	}
	nv := *e
	nv.raw, nv.members = raw, ms
	nv.inv = &invocation{parent: e.invocation(), origin: e.origin()}
	return &nv, nil
}

// keepsAll reports whether out, an answer to view that passed its
// checks, removes nothing from a tool_input that holds every member of
// the one Serve read: the view's invocation vouches for its tool_input
// (it is Serve's, or a view's that kept all), and out lists nothing in
// Removed. Only then does the next view vouch for its tool_input (see
// viewInput), and a Merge of it hold every member of Serve's input, as a
// vouched value must (see carryVouch).
func keepsAll(view *Event, out Output) bool {
	if view.inv == nil || !view.inv.HasInput() {
		return false
	}
	r, ok := out.(remover)
	return !ok || len(r.removedMembers()) == 0
}

// replaceMember returns the compact object of the members ms (of an
// object of size bytes) with the value of the member name (quoted: key)
// replaced by value, or value appended under key, and its members.
func replaceMember(ms []rawjson.Member, size int, name string, key, value []byte) (jsontext.Value, []rawjson.Member) {
	grow := len(key) + len(value) + 2
	for _, m := range ms {
		if m.Key == name {
			grow = len(value) - len(m.Value) // replaced in place
			break
		}
	}
	raw := make(jsontext.Value, 0, size+grow)
	type span struct{ ns, ne, vs, ve int }
	spans := make([]span, 0, len(ms)+1)
	keys := make([]string, 0, len(ms)+1)
	add := func(k string, n, v []byte) {
		if len(spans) > 0 {
			raw = append(raw, ',')
		}
		ns := len(raw)
		raw = append(raw, n...)
		ne := len(raw)
		raw = append(raw, ':')
		vs := len(raw)
		raw = append(raw, v...)
		spans = append(spans, span{ns, ne, vs, len(raw)})
		keys = append(keys, k)
	}
	raw = append(raw, '{')
	found := false
	for _, m := range ms {
		if m.Key == name && !found {
			found = true
			add(m.Key, m.Name, value)
			continue
		}
		add(m.Key, m.Name, m.Value)
	}
	if !found {
		add(name, key, value)
	}
	raw = append(raw, '}')
	out := make([]rawjson.Member, len(spans))
	for i, sp := range spans {
		out[i] = rawjson.Member{Key: keys[i], Name: raw[sp.ns:sp.ne:sp.ne], Value: raw[sp.vs:sp.ve:sp.ve]}
	}
	return raw, out
}

// viewInput gives the invocation of view, a chain's view whose member
// name was just replaced by upd, a rewrite that kept every member of
// Serve's input (see keepsAll), the tool_input the answer checks need, as
// Serve does for the event it reads (see invocation.init): the next
// handler's Merge then takes the vouched path, and the check of its
// answer knows a Merge result of it. When upd is a Merge result that
// Serve's invocation vouches for by its pieces (a Merge of Serve's input,
// or a chain's rewrite carried to it, see carryVouch), the view's input
// stands for those pieces, so that a Merge of it is carried as pieces of
// Serve's input and written as a single handler's Merge result is,
// without the encoder's checks of the whole value.
func (inv *invocation) viewInput(view *Event, name string, upd []byte) {
	if name != "tool_input" {
		return
	}
	switch view.HookEventName {
	case EventPreToolUse, EventPermissionRequest:
	default:
		return
	}
	in, ok := view.Field(name)
	if !ok || len(in) == 0 || in[0] != '{' {
		return
	}
	// The rewrite was validated as an answer before it became the view;
	// it is split when a Merge or a check needs its members.
	base := inv.root().PiecesOf(trimJSONSpace(upd), in)
	inv.SetInput(in, nil, false, base != nil || compactJSON(in))
	inv.SetBase(base)
}

// trimJSONSpace returns v without the JSON whitespace around it.
func trimJSONSpace(v []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(v) > 0 && isSpace(v[0]) {
		v = v[1:]
	}
	for len(v) > 0 && isSpace(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	return v
}

// compactJSON reports whether the valid JSON value v has no whitespace
// between its tokens.
func compactJSON(v []byte) bool {
	in := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return true
}

// membersOf returns the members of the object v, the member name of ev,
// reusing the split of ev's tool_input when v is it.
func membersOf(ev *Event, name string, v []byte) ([]rawjson.Member, error) {
	if name == "tool_input" && ev.inv != nil {
		if ms, ok := ev.inv.SplitOf(v); ok {
			return ms, nil
		}
	}
	return rawjson.MembersTrusted(v)
}
