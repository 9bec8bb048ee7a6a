package hooktest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// RuleKeep is the rule a lost, changed, rewritten or moved member breaks.
const RuleKeep = "a hook must keep every tool_input member it did not change"

// The problems a [MemberError] reports.
const (
	// ProblemLost: the member is missing from the output.
	ProblemLost = "member lost"
	// ProblemChanged: the member holds a different value.
	ProblemChanged = "member changed"
	// ProblemRewritten: the member holds the same JSON value written with
	// other bytes — a rounded or respelled number, rewritten escapes,
	// reordered or respelled nested members — the mark of a value decoded
	// and encoded again (for example through map[string]any) instead of
	// copied.
	ProblemRewritten = "member rewritten"
	// ProblemMoved: the member is present but no longer in its place
	// relative to the other kept members.
	ProblemMoved = "member moved"
)

// MemberError is one broken member found by [CheckPreserved].
type MemberError struct {
	// Pointer is the member's JSON pointer (RFC 6901) in the input, e.g.
	// "/room".
	Pointer string
	// Problem says what happened: [ProblemLost], [ProblemChanged],
	// [ProblemRewritten] or [ProblemMoved].
	Problem string
	// In and Out are the member's value before and after (Out is nil for a
	// lost member). For a member whose name was written with other escapes
	// and whose value was kept, they are the name before and after.
	In, Out jsontext.Value
}

// Error returns "<pointer>: <problem> (<rule>)", adding the two values for
// a changed or rewritten member, e.g.
//
//	/price: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
//
// Values longer than 80 bytes are cut short.
func (e *MemberError) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.Pointer, e.detail(), RuleKeep)
}

// detail is the problem, with the values where they help.
func (e *MemberError) detail() string {
	switch e.Problem {
	case ProblemChanged, ProblemRewritten:
		return fmt.Sprintf("%s from %s to %s", e.Problem, clip(e.In), clip(e.Out))
	}
	return e.Problem
}

// CheckPreserved reports whether out, a hook's updatedInput, keeps every
// member of in, the tool_input it received, that changed does not name. It
// returns nil when each such member is in out with the same bytes (name and
// value) and in the same relative order; otherwise it returns one
// [*MemberError] per broken member, in the order of in, joined with
// errors.Join, each naming the member by JSON pointer and the rule it
// breaks, e.g.
//
//	/room: member lost (a hook must keep every tool_input member it did not change)
//
// The comparison is byte for byte, never semantic: a number rewritten from
// 2.50 to 2.5, an escape rewritten from \u00f6 to ö, or a rounded big
// integer is a broken member (reported as [ProblemRewritten], since the
// value only looks the same). Whitespace between tokens does not count, so
// a pretty-printed answer keeps a compact input's values.
// Members of out that in lacks are not checked: a hook may add members.
// Names in changed that in lacks are ignored. If in or out is not a JSON
// object, or holds a name twice, CheckPreserved says so in its error.
func CheckPreserved(in, out jsontext.Value, changed ...string) error {
	ims, err := rawjson.Members(in)
	if err != nil {
		return fmt.Errorf("hooktest: CheckPreserved: the input: %w", err)
	}
	oms, err := rawjson.Members(out)
	if err != nil {
		return fmt.Errorf("hooktest: CheckPreserved: the output: %w", err)
	}
	var errs []error
	for _, e := range checkMembers(ims, oms, changed) {
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// checkMembers is CheckPreserved on split objects.
func checkMembers(ims, oms []rawjson.Member, changed []string) []*MemberError {
	var errs []*MemberError
	last := -1 // position in out of the last kept member seen
	for _, im := range ims {
		if slices.Contains(changed, im.Key) {
			continue
		}
		ptr := "/" + pointerToken(im.Key)
		pos := slices.IndexFunc(oms, func(om rawjson.Member) bool { return om.Key == im.Key })
		if pos < 0 {
			errs = append(errs, &MemberError{Pointer: ptr, Problem: ProblemLost, In: im.Value})
			continue
		}
		om := oms[pos]
		switch {
		case bytes.Equal(im.Name, om.Name) && sameBytes(im.Value, om.Value):
		case sameBytes(im.Value, om.Value):
			// The name is written with other escapes.
			errs = append(errs, &MemberError{Pointer: ptr, Problem: ProblemRewritten, In: im.Name, Out: om.Name})
		case sameValue(im.Value, om.Value):
			errs = append(errs, &MemberError{Pointer: ptr, Problem: ProblemRewritten, In: im.Value, Out: om.Value})
		default:
			errs = append(errs, &MemberError{Pointer: ptr, Problem: ProblemChanged, In: im.Value, Out: om.Value})
		}
		if pos < last {
			errs = append(errs, &MemberError{Pointer: ptr, Problem: ProblemMoved, In: im.Value, Out: om.Value})
		} else {
			last = pos
		}
	}
	return errs
}

// sameBytes reports whether the JSON values a and b are the same bytes
// once whitespace between tokens is dropped.
func sameBytes(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	ca, cb := jsontext.Value(bytes.Clone(a)), jsontext.Value(bytes.Clone(b))
	opts := []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}
	if ca.Compact(opts...) != nil || cb.Compact(opts...) != nil {
		return false
	}
	return bytes.Equal(ca, cb)
}
