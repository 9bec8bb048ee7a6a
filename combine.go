package hook

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json/jsontext"
)

// How [Chain] combines the answers of several handlers to one event. The
// rules of each event are its answer type's join method, in the event's
// file; this file holds the dispatch and the rules several events share.

// A combiner is an answer that [Chain] can combine with the answers
// before it; every FooOutput is one (the combine methods are generated,
// each calling its type's join).
type combiner interface {
	// combine merges the answer into acc (nil for the first answer) and
	// reports whether the chain stops. It never modifies the handlers'
	// own answers.
	combine(acc Output) (Output, bool, error)
}

// combine merges the answer n into acc and reports whether the chain
// stops.
func combine(acc, n Output) (Output, bool, error) {
	if c, ok := n.(combiner); ok {
		return c.combine(acc)
	}
	return acc, false, fmt.Errorf("an answer of type %T cannot be combined", n)
}

// combineAs combines the answer n of type *T into acc (nil for the first
// answer) with join, which merges n into a fresh copy of acc. It never
// modifies the handlers' own answers.
func combineAs[T any](acc Output, n *T, join func(a, n *T) (stop bool, err error)) (Output, bool, error) {
	a := new(T)
	if acc != nil {
		prev, ok := any(acc).(*T)
		if !ok {
			return acc, false, fmt.Errorf("answer of type %T next to one of type %T", n, acc)
		}
		*a = *prev
	}
	stop, err := join(a, n)
	if err != nil {
		return acc, false, err
	}
	return any(a).(Output), stop, nil
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

// join merges the common fields of n into c: a halt from any, the stop
// reasons and system messages joined, suppressOutput from any, the
// terminal sequences concatenated.
func (c *Common) join(n Common) {
	c.Halt = c.Halt || n.Halt
	c.StopReason = joinText(c.StopReason, n.StopReason)
	c.SuppressOutput = c.SuppressOutput || n.SuppressOutput
	c.SystemMessage = joinText(c.SystemMessage, n.SystemMessage)
	c.TerminalSequence += n.TerminalSequence
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

// joinDecision merges the permission decision n (with reason nr) into *d
// (with reason *r) by precedence, deny > defer > ask > allow: the
// reasons of the decisions that win are joined.
func joinDecision(d *PermissionDecision, r *string, n PermissionDecision, nr string) {
	switch {
	case rank(n) > rank(*d):
		*d, *r = n, nr
	case rank(n) == rank(*d) && n != "":
		*r = joinText(*r, nr)
	}
}

// joinFeedback merges a block that is feedback for Claude (every handler
// runs): a block from any blocks, reasons and contexts joined.
func joinFeedback(block *bool, reason, ctx *string, nBlock bool, nReason, nCtx string) {
	*block = *block || nBlock
	*reason, *ctx = joinText(*reason, nReason), joinText(*ctx, nCtx)
}

// joinGate merges a block that refuses an action: the first block wins,
// and reports that the chain stops.
func joinGate(block *bool, reason *string, nBlock bool, nReason string) (stop bool) {
	if nBlock {
		*block, *reason = true, nReason
	}
	return nBlock
}

// elicitationFields are the decision fields of the elicitation answers.
type elicitationFields struct {
	block   *bool
	reason  *string
	action  *ElicitationAction
	content *jsontext.Value
}

// joinElicitation merges the decision fields n of an elicitation answer
// into a: the first block wins and stops the chain; a cancel wins over
// later actions; otherwise the last action, with its content.
func joinElicitation(a, n elicitationFields) (stop bool) {
	if *n.block {
		*a.block, *a.reason, *a.action, *a.content = true, *n.reason, "", nil
		return true
	}
	if *n.action != "" && *a.action != ElicitationCancel {
		*a.action, *a.content = *n.action, *n.content
	}
	return false
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

// textOnly reports whether the answer *o, whose plain text is text, has
// only its Text set.
func textOnly(o any, text string) bool {
	return text != "" && !otherThanText(o)
}

// joinPlainText merges the plain text nText of the answer n into a, whose
// Text and context fields text and ctx point to: texts stay text while
// every answer is text; otherwise every text goes to the context (ctx is
// nil when the event has no JSON for it, which makes the mix an error).
func joinPlainText(text, ctx *string, a, n any, nText string) error {
	if nText == "" && *text == "" {
		return nil
	}
	first := reflect.ValueOf(a).Elem().IsZero()
	if (first || textOnly(a, *text)) && textOnly(n, nText) {
		*text = joinText(*text, nText)
		return nil
	}
	if ctx == nil {
		return errors.New("a plain-text answer cannot be combined with a JSON answer for this event")
	}
	*ctx = joinText(*ctx, *text)
	*text = ""
	*ctx = joinText(*ctx, nText)
	return nil
}

// A combinedFinisher is a combined answer with something to finish once
// every handler answered.
type combinedFinisher interface {
	finishCombined()
}

// finish finishes a combined answer (see combinedFinisher).
func finish(out Output) Output {
	if f, ok := out.(combinedFinisher); ok {
		f.finishCombined()
	}
	return out
}
