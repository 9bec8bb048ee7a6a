// Package protocol is the one description of the Claude Code hook
// protocol that the library is built on. The table (Events, in this file)
// holds every event of Claude Code 2.1.336, once, with its facts. The
// rest is Go in the event's file of the root package: the event's name
// constant (EventFoo = "Foo", with its doc "EventFoo fires …"), its input
// struct (Foo, embedding Event), its answer (FooOutput, embedding
// Common) and its hookSpecificOutput, declared with their docs next to
// their rules; the typed views of the tools' inputs are in tools.go and
// of their results in toolresults.go. [ReadTypes] and [ReadConsts] read
// those declarations with go/parser, for the generator and the drift
// tests.
//
// The mechanical code of the root package is generated from the table by
// `go generate ./...` (see gen/), which first checks that every row has
// its name constant, spelt as the row, in the file of its input struct:
// events_gen.go (the events list in the Agent SDK's order, knownEvent,
// canBlock, eventNames, the matcher fields, the block forms, honoursHalt)
// and adapters_gen.go (the typed adapters, their ServeHook methods, each
// answer's combine, which calls its join, and appendAnswer, which checks
// the event and calls its appendForm; both of those too where the Answer
// column says the answer's fields decide them, which gen checks against
// the answer's declaration). CI checks that the generated files are
// fresh, and the drift test checks the table and the declarations against
// the Agent SDK.
//
// To add an event: add a row here; declare its name constant, its input
// and its answer structs in its file of the root package (listed in
// events.go); write that file's answer methods (appendForm and join)
// unless the row's Answer column generates them; and run
// `go generate ./...`. To add an input or answer field, declare it in its
// struct.
package protocol

// Block says how a block is written as a JSON answer (an HTTP hook cannot
// exit 2, and a composed answer may carry a block).
type Block int

const (
	// BlockNone: the event has no JSON block form; only exit 2 (or
	// nothing) blocks it.
	BlockNone Block = iota
	// BlockDecision: the top-level "decision":"block" with "reason".
	BlockDecision
	// BlockDeny: the hookSpecificOutput's permission decision "deny" with
	// its reason.
	BlockDeny
)

// Text says what plain stdout text is to an event.
type Text int

const (
	// TextNone: plain text is not an answer.
	TextNone Text = iota
	// TextContext: plain text is context, and its JSON form (for an http
	// hook, or next to JSON answers in a chain) is additionalContext.
	TextContext
	// TextNoJSON: plain text is an answer that has no JSON form.
	TextNoJSON
	// TextOwn: the answer type has its own plain-text form
	// (WorktreeCreate's path line) and says itself what its JSON form is.
	TextOwn
)

// Event is one hook event and its facts, from the project's wire-format
// reference (spec §3, §5, §6, §8).
type Event struct {
	// Name is the event's hook_event_name. The root package declares it
	// in the event's file, next to the event's input struct, as the
	// constant "Event"+Name, whose doc says when Claude Code fires the
	// event ("EventFoo fires …"); gen checks the two against each other.
	Name string
	// Matcher is the input member that a hook's matcher is tested
	// against ("" when the event takes no matcher: every hook runs).
	// FileChanged's matcher is tested against the base name of it.
	Matcher string
	// CanBlock reports whether exit code 2 blocks (or otherwise changes)
	// the action behind the event.
	CanBlock bool
	// Block is the event's JSON block form.
	Block Block
	// HaltIgnored reports that Claude Code does not stop on
	// "continue": false in an answer to the event: it discards the field on
	// the observation-only events and ignores it on TaskCreated.
	HaltIgnored bool
	// Feedback reports that a block is feedback for Claude rather than a
	// refusal: every handler of a chain runs, and a Block is taken as the
	// answer's JSON block, its reason joined to the others'.
	Feedback bool
	// Text says whether plain stdout text is a valid answer, and what it
	// becomes where the answer must be JSON.
	Text Text
	// Decisions are the permission decisions the answer takes, if any.
	Decisions []string
	// Answer says whether the answer's fields alone decide its wire form
	// and how a chain joins it; then its methods are generated, else they
	// are written in the event's file.
	Answer Answer
}

// Answer says what an event's answer holds beyond the common fields when
// that alone decides its methods (appendForm, the wire form, and join,
// how hook.Chain combines it); the schema's answer type must hold exactly
// those fields.
type Answer int

const (
	// AnswerOwn: the answer has rules of its own, written in its event's
	// file.
	AnswerOwn Answer = iota
	// AnswerCommon: only the common fields, joined by Common's rules.
	AnswerCommon
	// AnswerContext: the common fields and AdditionalContext, written as
	// the hookSpecificOutput's additionalContext; a chain joins the
	// contexts in order.
	AnswerContext
	// AnswerWatchPaths: the common fields and WatchPaths, written as the
	// hookSpecificOutput's watchPaths when not nil; a chain takes the
	// union of the paths, in order.
	AnswerWatchPaths
	// AnswerFeedback: the common fields, Block with its Reason (the
	// top-level "decision": "block" and "reason"; a blank reason gets
	// the default one) and AdditionalContext in the hookSpecificOutput;
	// a chain runs every handler, a block from any blocks, and reasons
	// and contexts are joined.
	AnswerFeedback
	// AnswerGate: the common fields and Block with its Reason, written as
	// for AnswerFeedback; the first block wins and stops the chain.
	AnswerGate
)

// ClaudeCode is the Claude Code release whose hook events Events lists.
const ClaudeCode = "2.1.336"

// Events are the 35 hook events of Claude Code 2.1.336, in the order of
// the Agent SDK's HOOK_EVENTS.
var Events = []Event{
	{Name: "PreToolUse", Matcher: "tool_name", CanBlock: true, Block: BlockDeny, Decisions: []string{"allow", "deny", "ask", "defer"}},
	{Name: "PostToolUse", Matcher: "tool_name", Block: BlockDecision, Feedback: true},
	{Name: "PostToolUseFailure", Matcher: "tool_name", Answer: AnswerContext},
	{Name: "PostToolBatch", CanBlock: true, Block: BlockDecision, Feedback: true, Answer: AnswerFeedback},
	{Name: "Notification", Matcher: "notification_type", HaltIgnored: true, Answer: AnswerContext},
	{Name: "UserPromptSubmit", CanBlock: true, Block: BlockDecision, Text: TextContext},
	{Name: "UserPromptExpansion", Matcher: "command_name", CanBlock: true, Block: BlockDecision, Text: TextContext},
	{Name: "SessionStart", Matcher: "source", Text: TextContext},
	{Name: "SessionEnd", Matcher: "reason", HaltIgnored: true, Answer: AnswerCommon},
	{Name: "Stop", CanBlock: true, Block: BlockDecision, Feedback: true, Answer: AnswerFeedback},
	{Name: "StopFailure", Matcher: "error", HaltIgnored: true, Answer: AnswerCommon},
	{Name: "Interrupt", Matcher: "source", HaltIgnored: true, Answer: AnswerCommon},
	{Name: "SubagentStart", Matcher: "agent_type", Answer: AnswerContext},
	{Name: "SubagentStop", Matcher: "agent_type", CanBlock: true, Block: BlockDecision, Feedback: true, Answer: AnswerFeedback},
	{Name: "PreCompact", Matcher: "trigger", CanBlock: true, Block: BlockDecision, HaltIgnored: true, Text: TextNoJSON},
	{Name: "PostCompact", Matcher: "trigger", HaltIgnored: true, Text: TextNoJSON},
	{Name: "PreModelSwitch", Matcher: "to_model", CanBlock: true, Block: BlockDeny, Decisions: []string{"allow", "deny", "ask"}},
	{Name: "PostModelSwitch", Matcher: "to_model", Text: TextContext},
	{Name: "PermissionRequest", Matcher: "tool_name", Decisions: []string{"allow", "deny"}},
	{Name: "PermissionDenied", Matcher: "tool_name"},
	{Name: "Setup", Matcher: "trigger", Answer: AnswerContext},
	{Name: "TeammateIdle", CanBlock: true, Block: BlockDecision, Answer: AnswerCommon},
	{Name: "TaskCreated", CanBlock: true, Block: BlockDecision, HaltIgnored: true, Answer: AnswerGate},
	{Name: "TaskCompleted", CanBlock: true, Block: BlockDecision, Answer: AnswerCommon},
	{Name: "Elicitation", Matcher: "mcp_server_name", CanBlock: true, Block: BlockDecision, HaltIgnored: true},
	{Name: "ElicitationResult", Matcher: "mcp_server_name", CanBlock: true, Block: BlockDecision, HaltIgnored: true},
	{Name: "ConfigChange", Matcher: "source", CanBlock: true, Block: BlockDecision, HaltIgnored: true},
	{Name: "WorktreeCreate", CanBlock: true, Block: BlockDecision, Text: TextOwn},
	{Name: "WorktreeRemove", HaltIgnored: true, Answer: AnswerCommon},
	{Name: "InstructionsLoaded", Matcher: "load_reason", HaltIgnored: true, Answer: AnswerCommon},
	{Name: "CwdChanged", Answer: AnswerWatchPaths},
	{Name: "FileChanged", Matcher: "file_path", Answer: AnswerWatchPaths},
	{Name: "DirectoryAdded", Matcher: "source", Answer: AnswerCommon},
	{Name: "MessageDisplay", HaltIgnored: true},
	{Name: "PreSkillShellCommand", Matcher: "tool_name", CanBlock: true, Block: BlockDeny, Decisions: []string{"allow", "deny"}},
}

// Lookup returns the event named name and true, or false when Claude Code
// 2.1.336 has no such hook event.
func Lookup(name string) (Event, bool) {
	for _, e := range Events {
		if e.Name == name {
			return e, true
		}
	}
	return Event{}, false
}

// Names returns the names of Events, in their order.
func Names() []string {
	out := make([]string, len(Events))
	for i, e := range Events {
		out[i] = e.Name
	}
	return out
}

// Known reports whether name is one of the hook events of Claude Code
// 2.1.336.
func Known(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// MatcherOf returns the input member event's matcher is tested against
// ("tool_name", "source", …), or "" for an event without matcher support
// or unknown. FileChanged's matcher is tested against the base name of it.
func MatcherOf(event string) string {
	e, _ := Lookup(event)
	return e.Matcher
}

// CanBlockEvent reports whether exit code 2 blocks (or otherwise changes)
// the action behind the event name.
func CanBlockEvent(name string) bool {
	e, _ := Lookup(name)
	return e.CanBlock
}
