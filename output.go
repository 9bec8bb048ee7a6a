package hook

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gohooks/hook/internal/jsstr"
	"github.com/gohooks/hook/internal/wire"
)

// Common holds the answer fields that every event accepts. Every answer
// type embeds it. Zero fields are left out of the JSON: the library never
// writes null.
//
// Not every event honours every field: Claude Code discards Halt,
// StopReason and SystemMessage on the observation-only events (SessionEnd,
// StopFailure, PreCompact, PostCompact, ConfigChange, Elicitation,
// ElicitationResult, WorktreeRemove, InstructionsLoaded, MessageDisplay,
// Notification) and ignores Halt on TaskCreated; each answer type's
// documentation says which fields matter for its event.
type Common struct {
	// Halt stops Claude after this hook: it writes "continue": false, and
	// no further turns happen. It overrides the event's decisions.
	Halt bool
	// StopReason is shown to the user (not to Claude) when Halt is set.
	// Setting it without Halt is an error.
	StopReason string
	// SuppressOutput is accepted by Claude Code but has no effect in
	// current builds.
	SuppressOutput bool
	// SystemMessage is a warning shown to the user.
	SystemMessage string
	// TerminalSequence is an escape sequence Claude Code writes to the
	// terminal for the hook, in interactive sessions only: one or more OSC
	// 0, 1, 2, 9, 99 or 777 sequences (ESC ] Ps ; text, ended by BEL or
	// ESC \) or a lone BEL. Claude Code drops anything else, so the
	// library refuses it; an OSC 9 text may start with a digit only in the
	// "9;4;…" progress form.
	TerminalSequence string
}

// wireAnswer is the JSON layout of an answer on stdout, in the order the
// fields are written (the order of the fixtures in hooktest/fixtures).
type wireAnswer struct {
	Continue           *bool  `json:"continue,omitzero"`
	StopReason         string `json:"stopReason,omitempty"`
	SuppressOutput     bool   `json:"suppressOutput,omitzero"`
	Decision           string `json:"decision,omitempty"`
	Reason             string `json:"reason,omitempty"`
	HookSpecificOutput any    `json:"hookSpecificOutput,omitzero"`
	SystemMessage      string `json:"systemMessage,omitempty"`
	TerminalSequence   string `json:"terminalSequence,omitempty"`
}

// answer is what an answer type hands to appendWire: the common fields,
// the top-level decision and reason where the event takes them, and the
// hookSpecificOutput object (an untyped nil when there is none).
type answer struct {
	common   *Common
	decision string
	reason   string
	specific any
}

var falseValue = false

// appendWire validates the parts every answer shares and appends the
// answer's JSON. An answer with no field set appends nothing.
func appendWire(dst []byte, a answer) ([]byte, error) {
	w := wireAnswer{
		Decision:           a.decision,
		Reason:             a.reason,
		HookSpecificOutput: a.specific,
	}
	if c := a.common; c != nil {
		if c.StopReason != "" && !c.Halt {
			return dst, errors.New("StopReason is set but Halt is not; the reason is only shown when Claude is stopped")
		}
		if err := checkTerminalSequence(c.TerminalSequence); err != nil {
			return dst, err
		}
		if c.Halt {
			w.Continue = &falseValue
		}
		w.StopReason = c.StopReason
		w.SuppressOutput = c.SuppressOutput
		w.SystemMessage = c.SystemMessage
		w.TerminalSequence = c.TerminalSequence
	}
	if w == (wireAnswer{}) {
		return dst, nil
	}
	b, err := wire.AppendMarshal(dst, &w)
	if err != nil {
		return dst, fmt.Errorf("encoding the answer: %w", err)
	}
	return b, nil
}

// checkEvent reports an answer given to an event it does not answer: Claude
// Code would ignore the whole answer.
func checkEvent(ev *Event, answers string) error {
	if ev.HookEventName != answers {
		return fmt.Errorf("a %sOutput cannot answer a %s event; Claude Code ignores an answer for another event", answers, ev.HookEventName)
	}
	return nil
}

// blockFields returns the top-level decision and reason of an answer to an
// event that takes "decision": "block". A reason without a block is an
// error: Claude Code only reads it with the block. A block whose reason
// is blank gets the default one (see reasonOrDefault): refusing it would
// leave the agent free to go on (a Stop hook's block would let it stop),
// and Codex takes a blank reason for a failed hook.
func blockFields(block bool, reason string) (decision, r string, err error) {
	if !block {
		if reason != "" {
			//lint:ignore ST1005 the message starts with a field's or Claude Code's name
			return "", "", errors.New("Reason is set but Block is not; Claude Code only reads the reason of a block")
		}
		return "", "", nil
	}
	return "block", reasonOrDefault(reason), nil
}

// contextSpecific is the hookSpecificOutput of the events whose only
// event-specific answer is additionalContext.
type contextSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// contextOnly returns the hookSpecificOutput carrying additionalContext for
// event name, or an untyped nil when there is no context.
func contextOnly(name, context string) any {
	if context == "" {
		return nil
	}
	return &contextSpecific{HookEventName: name, AdditionalContext: context}
}

// appendText validates a plain-text answer and appends it, trimmed. The
// text must be the whole answer: otherFields reports whether any other
// field of the answer is set. Text whose first non-blank character is "{"
// is refused: Claude Code would try to read it as a JSON answer (and, on a
// first line holding {"async":true}, detach the hook).
func appendText(dst []byte, text string, otherFields bool) ([]byte, error) {
	if otherFields {
		//lint:ignore ST1005 the message starts with a field's or Claude Code's name
		return dst, errors.New("Text is a plain-text answer and must be the whole answer; leave every other field empty (use AdditionalContext to combine context with other fields)")
	}
	t := jsstr.TrimSpace(text)
	switch {
	case t == "":
		//lint:ignore ST1005 the message starts with a field's or Claude Code's name
		return dst, errors.New("Text is blank; Claude Code would read nothing (return a nil answer instead)")
	case t[0] == '{':
		//lint:ignore ST1005 the message starts with a field's or Claude Code's name
		return dst, errors.New("Text starts with \"{\" once trimmed as Claude Code trims it (JavaScript's trim also removes U+FEFF); Claude Code would parse it as a JSON answer, not as plain text (use AdditionalContext)")
	case !utf8.ValidString(t):
		//lint:ignore ST1005 the message starts with a field's or Claude Code's name
		return dst, errors.New("Text is not valid UTF-8")
	}
	return append(dst, t...), nil
}

// trimText trims a plain-text answer as Claude Code does.
func trimText(text string) string { return jsstr.TrimSpace(text) }

// textLooksLikeJSON reports whether Claude Code would read the plain-text
// answer b as JSON.
func textLooksLikeJSON(b []byte) bool { return jsstr.LooksLikeJSON(string(b)) }

// plainTextAnswer is implemented by the answers that can be written as
// plain text instead of a JSON object: the Text fields of the events whose
// plain stdout Claude Code reads, and WorktreeCreate's path line; each
// event's file holds its methods.
type plainTextAnswer interface {
	// plainText reports whether this answer is plain text, so that the
	// final check before stdout is written knows which form to expect:
	// plain text never starts with "{", a JSON answer always does.
	plainText() bool
	// jsonForm returns the JSON form of the valid plain-text answer for
	// an http hook, whose plain text Claude Code reads as an error, or
	// the failure of an answer that has none.
	jsonForm(ev *Event) (Output, error)
}

// otherThanText reports whether any field of the struct *o other than the
// one named Text is set.
func otherThanText(o any) bool {
	v := reflect.ValueOf(o).Elem()
	for i := range v.NumField() {
		if v.Type().Field(i).Name == "Text" {
			continue
		}
		if !v.Field(i).IsZero() {
			return true
		}
	}
	return false
}

// checkTerminalSequence refuses a terminalSequence that Claude Code would
// drop: anything but OSC 0/1/2/9/99/777 sequences and BEL.
func checkTerminalSequence(s string) error {
	rest := s
	for rest != "" {
		if rest[0] == '\a' {
			rest = rest[1:]
			continue
		}
		body, ok := strings.CutPrefix(rest, "\x1b]")
		if !ok {
			return fmt.Errorf("TerminalSequence %q is not made of OSC sequences (ESC ] …) and BEL; Claude Code would drop it", s)
		}
		end := strings.IndexAny(body, "\a\x1b")
		if end < 0 {
			return fmt.Errorf("TerminalSequence %q has an OSC sequence without its BEL or ESC \\ terminator", s)
		}
		osc := body[:end]
		switch {
		case body[end] == '\a':
			rest = body[end+1:]
		case strings.HasPrefix(body[end:], "\x1b\\"):
			rest = body[end+2:]
		default:
			return fmt.Errorf("TerminalSequence %q has an OSC sequence without its BEL or ESC \\ terminator", s)
		}
		ps, text, _ := strings.Cut(osc, ";")
		switch ps {
		case "0", "1", "2", "99", "777":
		case "9":
			if text != "" && text[0] >= '0' && text[0] <= '9' && !strings.HasPrefix(text, "4;") {
				return fmt.Errorf("TerminalSequence %q: an OSC 9 text may start with a digit only in the 9;4 progress form; Claude Code would drop it", s)
			}
		default:
			return fmt.Errorf("TerminalSequence %q uses OSC %q; Claude Code only writes OSC 0, 1, 2, 9, 99 and 777", s, ps)
		}
		for _, r := range text {
			if r < 0x20 || r == 0x7f {
				return fmt.Errorf("TerminalSequence %q holds a control character inside an OSC sequence", s)
			}
		}
	}
	return nil
}

// Async is the answer that detaches a long-running hook: [Serve] writes
// {"async":true} (with "asyncTimeout" when Timeout is set) as the only line
// on stdout and exits 0. Claude Code then stops waiting for the hook, which
// can no longer decide anything; when an async hook exits, only the
// additionalContext and systemMessage of a final JSON answer reach Claude,
// on the next turn.
//
// Async answers any event of a command hook. A handler returns it as its
// answer, or, from a typed adapter ([PreToolUseFunc] and the others),
// whose answer types cannot hold it, as its error:
//
//	return nil, hook.Async{Timeout: time.Minute}
//
// An Async returned as the error (or wrapped in it) is the answer, not a
// failure, and any answer returned with it is dropped. Because [Serve]
// returns right after writing the line, Async alone only announces the
// detachment: work that must go on afterwards has to run in a process of
// its own. Claude Code looks for the announcement on the first stdout
// line only, which is where Serve writes it. Async cannot be combined
// with other answers (a [Chain] counts it as its handler's failure), and
// an http hook has no process to detach, so there it is an invalid
// answer.
type Async struct {
	// Timeout is how long Claude Code lets the detached hook run; it is
	// written in whole milliseconds as "asyncTimeout". Zero leaves Claude
	// Code's default (15 s).
	Timeout time.Duration
}

// asyncWire is the JSON layout of an async announcement.
type asyncWire struct {
	Async        bool  `json:"async"`
	AsyncTimeout int64 `json:"asyncTimeout,omitzero"`
}

// Error lets a typed adapter's function return a as its error; the
// adapter answers with a (see [Async]).
func (a Async) Error() string {
	if a.Timeout > 0 {
		return fmt.Sprintf("hook: async (detach the hook for %v)", a.Timeout)
	}
	return "hook: async (detach the hook)"
}

func (a Async) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if a.Timeout < 0 {
		return dst, fmt.Errorf("Async timeout %v is negative", a.Timeout)
	}
	if a.Timeout > 0 && a.Timeout < time.Millisecond {
		return dst, fmt.Errorf("Async timeout %v is less than a millisecond; asyncTimeout is written in milliseconds", a.Timeout)
	}
	return wire.AppendMarshal(dst, &asyncWire{Async: true, AsyncTimeout: a.Timeout.Milliseconds()})
}
