package hooktest

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/gohooks/hook/internal/rawjson"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// RuleKeep is the rule a lost, changed or moved member breaks.
const RuleKeep = "a hook must keep every tool_input member it did not change"

// MemberError is one broken member found by [CheckPreserved].
type MemberError struct {
	// Pointer is the member's JSON pointer (RFC 6901), e.g. "/room".
	Pointer string
	// Problem says what happened: "member lost", "member changed" or
	// "member moved".
	Problem string
	// In and Out are the member's value before and after (Out is nil for a
	// lost member).
	In, Out jsontext.Value
}

// Error returns "<pointer>: <problem> (<rule>)", adding the two values for
// a changed member.
func (e *MemberError) Error() string {
	if e.Problem == "member changed" {
		return fmt.Sprintf("%s: member changed from %s to %s (%s)", e.Pointer, clip(e.In), clip(e.Out), RuleKeep)
	}
	return fmt.Sprintf("%s: %s (%s)", e.Pointer, e.Problem, RuleKeep)
}

func clip(v []byte) string {
	const max = 80
	if len(v) > max {
		return string(v[:max-3]) + "..."
	}
	return string(v)
}

// CheckPreserved reports whether out, a hook's updatedInput, keeps every
// member of in, the tool_input it received, that changed does not name. It
// returns nil when each such member is in out with the same bytes (name and
// value) and in the same relative order; otherwise it returns one
// [*MemberError] per broken member, joined with errors.Join, each naming
// the member by JSON pointer and the rule it breaks, e.g.
//
//	/room: member lost (a hook must keep every tool_input member it did not change)
//
// The comparison is byte for byte, never semantic: a number rewritten from
// 2.50 to 2.5, an escape rewritten from \u00f6 to ö, or a rounded big
// integer is a changed member. Whitespace between members does not count.
// If in or out is not a JSON object, or holds a name twice, CheckPreserved
// says so in its error.
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
	last := -1 // position in out of the last kept member seen
	for _, im := range ims {
		if contains(changed, im.Key) {
			continue
		}
		ptr := "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(im.Key)
		pos := -1
		for j, om := range oms {
			if om.Key == im.Key {
				pos = j
				break
			}
		}
		switch {
		case pos < 0:
			errs = append(errs, &MemberError{Pointer: ptr, Problem: "member lost", In: im.Value})
			continue
		case !bytes.Equal(im.Name, oms[pos].Name) || !bytes.Equal(im.Value, oms[pos].Value):
			errs = append(errs, &MemberError{Pointer: ptr, Problem: "member changed", In: im.Value, Out: oms[pos].Value})
		}
		if pos < last {
			errs = append(errs, &MemberError{Pointer: ptr, Problem: "member moved", In: im.Value, Out: oms[pos].Value})
		} else {
			last = pos
		}
	}
	return errors.Join(errs...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
