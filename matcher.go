package hook

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/gohooks/hook/internal/jsre"
	"github.com/gohooks/hook/internal/wire"
)

// Matcher is a compiled hook matcher: the "matcher" string of a settings
// entry, read exactly as Claude Code 2.1.336 reads it for one event (spec
// §8). Build one with [CompileMatcher]. The zero Matcher matches every
// value of every event, as an empty matcher does.
//
// The rules, in the client's order:
//   - An empty matcher or "*" matches everything.
//   - A matcher of only letters, digits, '_', '-', space, ',' and '|' is a
//     list of exact names, split on '|' and ',' and trimmed; FileChanged
//     and StopFailure allow only letters, digits, '_' and '|' and split on
//     '|' only. A legacy tool name in the list stands for its current name
//     ("Task" matches "Agent"; "KillShell" and "KillBash" match "TaskStop").
//   - Anything else is a JavaScript regular expression without flags,
//     tested unanchored ("Edit.*" matches "NotebookEdit"; "mcp__memory" is
//     an exact name and matches no tool). It is tested against the value
//     and against the value's legacy names, so "^Task$" matches "Agent"
//     and "Bash.*" matches "TaskStop" (once "KillBash").
//   - On the events that have no matcher (UserPromptSubmit, Stop,
//     WorktreeCreate, …: the event type's documentation says which field
//     its matcher is tested against, if any) every matcher matches, even
//     an invalid one.
//
// For PreModelSwitch and PostModelSwitch a "[1m]" or "[2m]" suffix on a
// name is dropped first, as the client does.
type Matcher struct {
	event  string
	source string
	kind   matcherKind
	names  []string     // matchNames: the current names
	re     *jsre.Regexp // matchRegexp
	// family says whether the regexp is a plain alternation of words,
	// which the client also tests against a tool's family names.
	family bool
}

type matcherKind uint8

const (
	matchAll matcherKind = iota
	matchNames
	matchRegexp
	matchNothing
)

// The kinds of [MatcherError]; test with errors.Is.
var (
	// ErrInvalidMatcher: the matcher is a regular expression that
	// JavaScript rejects. Claude Code matches nothing with it (not even
	// the names of an alternation: "Bash|Read(" does not fire on Bash),
	// and so does the Matcher returned with this error.
	ErrInvalidMatcher = errors.New("invalid matcher")
	// ErrUnsupportedMatcher: the matcher is a valid JavaScript regular
	// expression that Go's RE2 cannot express (lookahead, lookbehind,
	// back-references, ^ and $ inside a multiline (?m:…) group, repeat
	// counts over 1000). The
	// Matcher returned with this error matches nothing, which may differ
	// from Claude Code; rewrite the matcher.
	ErrUnsupportedMatcher = errors.New("unsupported matcher")
	// ErrGoRegexpSyntax: the matcher uses syntax that means something
	// else in Go or PCRE than in JavaScript (`\z`, `\A`, `\pL`,
	// `[[:alpha:]]`). The Matcher returned with this error behaves as
	// Claude Code does, with the JavaScript meaning (`\z` is a "z").
	ErrGoRegexpSyntax = errors.New("matcher uses Go-only regular expression syntax")
)

// MatcherError is the error of [CompileMatcher]. It unwraps to one of
// [ErrInvalidMatcher], [ErrUnsupportedMatcher] and [ErrGoRegexpSyntax].
type MatcherError struct {
	// Event and Matcher are the arguments of CompileMatcher.
	Event, Matcher string
	// Offset is the UTF-16 code unit offset of the trouble in Matcher.
	Offset int
	// Reason says what is wrong.
	Reason string

	kind error
}

// Error returns a one-line description naming the event and the matcher.
func (e *MatcherError) Error() string {
	return fmt.Sprintf("hook: %s matcher %q: %s (at offset %d)", e.Event, e.Matcher, e.Reason, e.Offset)
}

// Unwrap returns the kind of the error.
func (e *MatcherError) Unwrap() error { return e.kind }

// CompileMatcher compiles the matcher of a settings entry for event (an
// event name as in hook_event_name). It always returns a usable Matcher:
// with a nil error it matches exactly as Claude Code 2.1.336 does; with a
// *[MatcherError] it matches as documented for the error's kind — nothing
// for [ErrInvalidMatcher] (as the client) and [ErrUnsupportedMatcher]
// (unlike the client), the client's way for [ErrGoRegexpSyntax]. On an
// event without matcher support the matcher is ignored and the error is
// nil.
func CompileMatcher(event, matcher string) (Matcher, error) {
	m := Matcher{event: event, source: matcher}
	if !hasMatcher(event) {
		return m, nil
	}
	src := matcher
	if event == EventPreModelSwitch || event == EventPostModelSwitch {
		src = dropContextSuffix(src)
	}
	if src == "" || src == "*" {
		return m, nil
	}
	wide := wideMatcherSet(event)
	if names, ok := exactNames(src, wide); ok {
		m.kind = matchNames
		m.names = names
		return m, nil
	}
	re, err := jsre.Compile(src)
	if err != nil {
		var je *jsre.Error
		errors.As(err, &je)
		merr := &MatcherError{Event: event, Matcher: matcher, Offset: je.Offset, Reason: je.Msg}
		switch je.Kind {
		case jsre.Invalid:
			merr.kind = ErrInvalidMatcher
		case jsre.Unsupported:
			merr.kind = ErrUnsupportedMatcher
		default:
			merr.kind = ErrGoRegexpSyntax
		}
		if re == nil {
			m.kind = matchNothing
			return m, merr
		}
		m.kind, m.re, m.family = matchRegexp, re, wordAlternation().MatchString(src)
		return m, merr
	}
	m.kind, m.re, m.family = matchRegexp, re, wordAlternation().MatchString(src)
	return m, nil
}

// wordAlternation returns the client's test for a regexp that is only an
// alternation of words, optionally anchored and grouped, compiled on first
// use. It is a function with its own sync.Once, not a sync.OnceValue
// variable: the closure of a package-level OnceValue is referenced by the
// package's initialisation, so every hook would link package regexp and
// build its tables at start-up, matcher or not.
func wordAlternation() *regexp.Regexp {
	wordAlternationRE.once.Do(func() {
		wordAlternationRE.re = regexp.MustCompile(`^\^?(?:\((?:\?:)?)?\^?\w+\$?(?:\|\^?\w+\$?)*\)?\$?$`)
	})
	return wordAlternationRE.re
}

var wordAlternationRE struct {
	once sync.Once
	re   *regexp.Regexp
}

// isNameList reports whether s is not empty and holds only the characters
// of an exact-name list: letters, digits, '_' and '|', and with wide also
// ',', '-' and spaces (the client's /^[a-zA-Z0-9_|, -]+$/ and
// /^[a-zA-Z0-9_|]+$/).
func isNameList(s string, wide bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '|':
		case wide && (c == ',' || c == ' ' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// exactNames returns the names of an exact-list matcher, mapped to the
// current tool names, or false when the matcher is a regexp.
func exactNames(src string, wide bool) ([]string, bool) {
	var parts []string
	if !isNameList(src, wide) {
		return nil, false
	}
	if wide {
		parts = strings.FieldsFunc(src, func(r rune) bool { return r == '|' || r == ',' })
	} else {
		parts = strings.Split(src, "|")
	}
	names := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			names = append(names, currentToolName(p))
		}
	}
	return names, true
}

// dropContextSuffix removes "[1m]"/"[2m]" (any case) before a separator
// or the end, unless nothing else is left.
func dropContextSuffix(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+4 <= len(s) && s[i] == '[' && (s[i+1] == '1' || s[i+1] == '2') && (s[i+2] == 'm' || s[i+2] == 'M') && s[i+3] == ']' {
			rest := strings.TrimLeftFunc(s[i+4:], jsSpace)
			if rest == "" || rest[0] == '|' || rest[0] == ',' {
				i += 4
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	if strings.TrimFunc(b.String(), jsSpace) == "" {
		return s
	}
	return b.String()
}

func jsSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// wideMatcherSet reports whether the event's exact lists may hold
// '-', ',' and spaces.
func wideMatcherSet(event string) bool {
	return event != EventStopFailure && event != EventFileChanged
}

// Event returns the event the Matcher was compiled for.
func (m Matcher) Event() string { return m.event }

// String returns the matcher as it was given to CompileMatcher.
func (m Matcher) String() string { return m.source }

// Names returns the names of an exact-list matcher, legacy names mapped to
// the current ones, and true; for a matcher that matches everything, a
// regular expression or an invalid one, it returns nil and false. A list
// can be empty ("|" matches nothing).
func (m Matcher) Names() ([]string, bool) {
	if m.kind != matchNames {
		return nil, false
	}
	return append([]string{}, m.names...), true
}

// Match reports whether the matcher fires for value, the field its event's
// matcher is tested against: the tool name, the source, the trigger, … (see
// [Matcher.MatchEvent], which finds that field in an event).
func (m Matcher) Match(value string) bool {
	return m.match(value, nil)
}

func (m Matcher) match(value string, ev *Event) bool {
	switch m.kind {
	case matchAll:
		return true
	case matchNames:
		for _, n := range m.names {
			if n == value {
				return true
			}
		}
		for _, f := range toolFamilies(value, ev) {
			for _, n := range m.names {
				if n == f {
					return true
				}
			}
		}
		return false
	case matchRegexp:
		if m.re.Test(value) {
			return true
		}
		if m.family {
			for _, f := range toolFamilies(value, ev) {
				if m.re.Test(f) {
					return true
				}
			}
		}
		for _, old := range legacyNamesOf(value) {
			if m.re.Test(old) {
				return true
			}
		}
	}
	return false
}

// MatchEvent reports whether the matcher fires for ev. An event of
// another kind than the Matcher's never matches (the zero Matcher matches
// every event); an event without matcher support, or whose matcher field
// is absent, always matches, as in the client.
func (m Matcher) MatchEvent(ev *Event) bool {
	if m.event != "" && ev.HookEventName != m.event {
		return false
	}
	if m.kind == matchAll {
		return true
	}
	v, ok := matcherValue(ev)
	if !ok {
		return true
	}
	return m.match(v, ev)
}

// hasMatcher reports whether Claude Code tests a matcher for event. On the
// other events (UserPromptSubmit, PostToolBatch, Stop, TeammateIdle,
// TaskCreated, TaskCompleted, WorktreeCreate, WorktreeRemove, CwdChanged,
// MessageDisplay, and events it does not know) the matcher is ignored
// and every hook of the event runs.
func hasMatcher(event string) bool { return matcherField(event) != "" }

// matcherValue returns the value ev's matcher is tested against: the tool
// name, the source, the trigger, the notification type, the agent type,
// the base name of a changed file, …, and true; or false when ev's event
// has no matcher support or the member is absent or not a string, in
// which case every matcher matches.
//
// For PreModelSwitch and PostModelSwitch it is to_model as sent; the
// client tests its canonical form of the id, which may differ for model
// aliases.
func matcherValue(ev *Event) (string, bool) {
	name := matcherField(ev.HookEventName)
	if name == "" {
		return "", false
	}
	raw, ok := ev.Field(name)
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := wire.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	if ev.HookEventName == EventFileChanged {
		s = jsBasename(s)
	}
	return s, true
}

// jsBasename is node's path.basename on POSIX: the last segment after
// trailing slashes are dropped, "" for "" and "/".
func jsBasename(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// currentToolName returns the current name of a tool that matchers and
// permission rules may still name by a legacy name ("Task" → "Agent",
// "KillShell" and "KillBash" → "TaskStop", "ListPeers" → "ListAgents",
// "Brief" → "SendUserMessage", "ListMcpResources" →
// "ListMcpResourcesTool", "ReadMcpResource" → "ReadMcpResourceTool",
// "ReadMcpResourceDir" → "ReadMcpResourceDirTool", "ProposeGoal" →
// "SetGoal"); any other name is returned as it is. Hook inputs always carry
// the current name.
func currentToolName(name string) string {
	switch name {
	case "Task":
		return ToolAgent
	case "KillShell", "KillBash":
		return "TaskStop"
	case "ListPeers":
		return "ListAgents"
	case "Brief":
		return "SendUserMessage"
	case "ListMcpResources":
		return "ListMcpResourcesTool"
	case "ReadMcpResource":
		return "ReadMcpResourceTool"
	case "ReadMcpResourceDir":
		return "ReadMcpResourceDirTool"
	case "ProposeGoal":
		return "SetGoal"
	}
	return name
}

// legacyNamesOf returns the legacy names of a current tool name (the
// inverse of currentToolName), sorted.
func legacyNamesOf(name string) []string {
	switch name {
	case ToolAgent:
		return []string{"Task"}
	case "TaskStop":
		return []string{"KillBash", "KillShell"}
	case "ListAgents":
		return []string{"ListPeers"}
	case "SendUserMessage":
		return []string{"Brief"}
	case "ListMcpResourcesTool":
		return []string{"ListMcpResources"}
	case "ReadMcpResourceTool":
		return []string{"ReadMcpResource"}
	case "ReadMcpResourceDirTool":
		return []string{"ReadMcpResourceDir"}
	case "SetGoal":
		return []string{"ProposeGoal"}
	}
	return nil
}

// toolFamilies returns the family names the client also matches a tool
// by: the Artifact tool and its parts.
func toolFamilies(name string, ev *Event) []string {
	switch name {
	case "ArtifactComments", "ArtifactData", "ArtifactCheck":
		return []string{"Artifact"}
	case "Artifact":
		if ev == nil {
			return nil
		}
		in, ok := ev.Field("tool_input")
		if !ok {
			return nil
		}
		var v struct {
			Action string `json:"action"`
		}
		if wire.Unmarshal(in, &v) != nil {
			return nil
		}
		switch v.Action {
		case "comments", "reply", "resolve", "watch", "unwatch", "status", "resume_replies":
			return []string{"ArtifactComments"}
		case "read_db", "write_db":
			return []string{"ArtifactData"}
		case "verify", "preview":
			return []string{"ArtifactCheck"}
		}
	}
	return nil
}

// toolNames are the tool names Claude Code 2.1.336 sends, current and
// legacy, for telling a misspelt name in a matcher from a tool the
// library does not know.
func toolNames() []string {
	return []string{ToolAgent, ToolAskUserQuestion, ToolBash, ToolCronCreate, ToolCronDelete, ToolCronList,
		ToolEdit, ToolEnterPlanMode, ToolEnterWorktree, ToolExitPlanMode, ToolExitWorktree, ToolGlob, ToolGrep,
		ToolListMcpResources, ToolMonitor, ToolNotebookEdit, ToolPowerShell, ToolPushNotification, ToolRead,
		ToolReadMcpResource, ToolScheduleWakeup, ToolSkill, ToolTaskCreate, ToolTaskGet, ToolTaskList,
		ToolTaskStop, ToolTaskUpdate, ToolTodoWrite, ToolWebFetch, ToolWebSearch, ToolWrite,
		"Task", "KillShell", "KillBash", "ListPeers", "ListAgents", "Brief", "SendUserMessage",
		"ListMcpResources", "ReadMcpResource", "ReadMcpResourceDir", "ReadMcpResourceDirTool",
		"ProposeGoal", "SetGoal", "Artifact", "ArtifactComments", "ArtifactData", "ArtifactCheck",
		"NotebookRead", "LS", "BashOutput", "MultiEdit", "LSP"}
}

// closedValues are the values of the matcher fields that form a closed
// set, for telling a misspelt value in a matcher.
func closedValues(event string) []string {
	switch event {
	case EventSessionStart:
		return []string{"startup", "resume", "clear", "compact", "fork"}
	case EventPreCompact, EventPostCompact:
		return []string{"manual", "auto"}
	}
	return nil
}

// deadMatcher says why m, compiled for event, can never match a value
// Claude Code sends, or returns "": an exact list with no name, a name
// with a blank inside (no value holds one: "Bash Read" is one name, not
// two), a tool name spelt in another case than the tool's ("bash"), an
// MCP name without its tool part ("mcp__memory"), or a regular
// expression that is only such a name, anchored ("^bash$").
func deadMatcher(event string, m Matcher) string {
	var names []string
	switch m.kind {
	case matchNames:
		if len(m.names) == 0 {
			return "the list names nothing, so it matches nothing"
		}
		names = m.names
	case matchRegexp:
		words, ok := anchoredWords(m.source)
		if !ok {
			return ""
		}
		names = words
	default:
		return ""
	}
	tools := matcherField(event) == "tool_name"
	for _, n := range names {
		if strings.ContainsAny(n, " \t") {
			return fmt.Sprintf("%q holds a blank and no %s does; separate names with | or ,", n, matcherField(event))
		}
		known := closedValues(event)
		if tools {
			known = toolNames()
			if rest, ok := strings.CutPrefix(n, "mcp__"); ok {
				if server, tool, ok := strings.Cut(rest, "__"); !ok || server == "" || tool == "" {
					return fmt.Sprintf("an MCP tool is named mcp__<server>__<tool>, so %q names no tool (for every tool of a server, write %q)", n, "mcp__"+strings.TrimSuffix(rest, "__")+"__.*")
				}
			}
		}
		for _, k := range known {
			if n != k && strings.EqualFold(n, k) {
				return fmt.Sprintf("%q matches nothing: names are compared case by case, and Claude Code sends %q", n, k)
			}
		}
	}
	return ""
}

// anchoredWords returns the words of a regular expression that is only
// exact words: ^word$, ^(a|b)$, ^a$|^b$.
func anchoredWords(src string) ([]string, bool) {
	s := src
	if strings.HasPrefix(s, "^(") && strings.HasSuffix(s, ")$") {
		s = strings.TrimPrefix(s[2:len(s)-2], "?:")
		if strings.ContainsAny(s, "()") {
			return nil, false
		}
		s = "^" + strings.ReplaceAll(s, "|", "$|^") + "$"
	}
	var words []string
	for _, part := range strings.Split(s, "|") {
		w, ok := strings.CutPrefix(part, "^")
		if !ok {
			return nil, false
		}
		if w, ok = strings.CutSuffix(w, "$"); !ok || w == "" {
			return nil, false
		}
		for i := 0; i < len(w); i++ {
			c := w[i]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return nil, false
			}
		}
		words = append(words, w)
	}
	return words, true
}
