package hooktest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
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
	// ProblemRespelled: the member holds the same value as JavaScript's
	// JSON.parse reads it, written with other bytes (\u00e9 for é, 2.5
	// for 2.50). Claude Code cannot tell the difference, so
	// [CheckSameValue] does not report it; a property run lists it as a
	// note.
	ProblemRespelled = "member respelled"
)

// MemberError is one broken member found by [CheckPreserved] or
// [CheckSameValue].
type MemberError struct {
	// Pointer is the member's JSON pointer (RFC 6901) in the input, e.g.
	// "/room"; [CheckSameValue] points into nested values too
	// ("/todos/1/id").
	Pointer string
	// Problem says what happened: [ProblemLost], [ProblemChanged],
	// [ProblemRewritten], [ProblemMoved] or [ProblemRespelled].
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
// Values longer than 80 bytes are cut short, where they differ: a long
// value changed near its end shows both from a few bytes before the
// first difference, after a mark that counts the bytes in common
// ("[…81903 bytes in common…]").
func (e *MemberError) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.Pointer, e.detail(), RuleKeep)
}

// detail is the problem, with the values where they help.
func (e *MemberError) detail() string {
	switch e.Problem {
	case ProblemChanged, ProblemRewritten, ProblemRespelled:
		in, out := verdict.Excerpts(e.In, e.Out, 80)
		return fmt.Sprintf("%s from %s to %s", e.Problem, in, out)
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

// checkMembers is CheckPreserved on split objects. Moved members are the
// fewest that explain the new order: every kept member outside a longest
// run of kept members whose order did not change.
func checkMembers(ims, oms []rawjson.Member, changed []string) []*MemberError {
	type entry struct {
		ptr string
		in  []byte
		err *MemberError // lost, changed or rewritten; nil when intact
		pos int          // position in out; -1 when lost or skipped
	}
	es := make([]entry, 0, len(ims))
	var pos []int // positions in out of the kept members, in input order
	// Lookups by name stay linear in the members, however many there are.
	at := make(map[string]int, len(oms))
	for i := len(oms) - 1; i >= 0; i-- {
		at[oms[i].Key] = i
	}
	skip := make(map[string]bool, len(changed))
	for _, c := range changed {
		skip[c] = true
	}
	for _, im := range ims {
		if skip[im.Key] {
			continue
		}
		e := entry{ptr: "/" + rawjson.PointerToken(im.Key), in: im.Value, pos: -1}
		p, found := at[im.Key]
		if !found {
			p = -1
		}
		if p < 0 {
			e.err = &MemberError{Pointer: e.ptr, Problem: ProblemLost, In: im.Value}
			es = append(es, e)
			continue
		}
		om := oms[p]
		switch {
		case bytes.Equal(im.Name, om.Name) && sameBytes(im.Value, om.Value):
		case sameBytes(im.Value, om.Value):
			// The name is written with other escapes.
			e.err = &MemberError{Pointer: e.ptr, Problem: ProblemRewritten, In: im.Name, Out: om.Name}
		case rawjson.SameValue(im.Value, om.Value):
			e.err = &MemberError{Pointer: e.ptr, Problem: ProblemRewritten, In: im.Value, Out: om.Value}
		default:
			e.err = &MemberError{Pointer: e.ptr, Problem: ProblemChanged, In: im.Value, Out: om.Value}
		}
		e.pos = p
		es = append(es, e)
		pos = append(pos, p)
	}
	inOrder := longestIncreasing(pos)
	var errs []*MemberError
	k := 0
	for _, e := range es {
		if e.err != nil {
			errs = append(errs, e.err)
		}
		if e.pos < 0 {
			continue
		}
		if !inOrder[k] {
			errs = append(errs, &MemberError{Pointer: e.ptr, Problem: ProblemMoved, In: e.in, Out: oms[e.pos].Value})
		}
		k++
	}
	return errs
}

// longestIncreasing marks the elements of one longest strictly increasing
// subsequence of p (patience sorting, O(n log n)).
func longestIncreasing(p []int) []bool {
	tails := []int{}            // tails[l]: index in p of the smallest tail of a run of length l+1
	prev := make([]int, len(p)) // predecessor of each element in its run
	for i, v := range p {
		l, _ := slices.BinarySearchFunc(tails, v, func(j, v int) int { return p[j] - v })
		if l > 0 {
			prev[i] = tails[l-1]
		} else {
			prev[i] = -1
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	in := make([]bool, len(p))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			in[i] = true
		}
	}
	return in
}

// sameBytes reports whether the JSON values a and b are the same bytes
// once whitespace between tokens is dropped.
func sameBytes(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	ca, cb := jsontext.Value(bytes.Clone(a)), jsontext.Value(bytes.Clone(b))
	opts := jsonopts.Read()
	if ca.Compact(opts) != nil || cb.Compact(opts) != nil {
		return false
	}
	return bytes.Equal(ca, cb)
}

// CheckSameValue reports whether out, an updatedInput, keeps every member
// of in, the tool_input it received, that changed does not name, as
// Claude Code reads them: both sides parsed as JavaScript's JSON.parse
// does, numbers as IEEE-754 doubles (0 and -0 differ, as for Object.is),
// strings as UTF-16 code units, lone surrogates included. It returns nil
// when each such member holds the same JavaScript value, whatever its
// spelling or place; otherwise one [*MemberError] per lost or changed
// member ([ProblemLost], [ProblemChanged]), in the order of in, joined
// with errors.Join, each with its JSON pointer — the deepest member that
// differs when both sides are objects, or arrays of one length:
//
//	/todos/1/id: member lost (a hook must keep every tool_input member it did not change)
//	/room: member changed from "\ud800" to "\ufffd" (a hook must keep every tool_input member it did not change)
//
// Use CheckSameValue to judge a hook in any language by its effect on the
// tool call; use [CheckPreserved] for the stronger promise of a hook built
// with this library, that untouched members keep their bytes. A big
// integer rounded the way JSON.parse rounds it is the same value to
// CheckSameValue (Claude Code itself can only send the rounded one). If in
// or out is not a JSON object, or holds a name twice, CheckSameValue says
// so in its error.
func CheckSameValue(in, out jsontext.Value, changed ...string) error {
	ds, err := verdict.Compare(in, out, changed)
	if err != nil {
		return fmt.Errorf("hooktest: CheckSameValue: %w", err)
	}
	var errs []error
	for _, d := range ds {
		if d.Problem != verdict.Respelled {
			errs = append(errs, memberError(d))
		}
	}
	return errors.Join(errs...)
}

// memberError turns a verdict.Diff into a MemberError.
func memberError(d verdict.Diff) *MemberError {
	p := ProblemChanged
	switch d.Problem {
	case verdict.Lost:
		p = ProblemLost
	case verdict.Respelled:
		p = ProblemRespelled
	}
	return &MemberError{Pointer: d.Pointer, Problem: p, In: d.In, Out: d.Out}
}
