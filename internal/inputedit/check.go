package inputedit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// The partial-rewrite check: Claude Code replaces the whole tool input
// with an answer's updatedInput, so a rewrite that lacks a member of the
// input loses it.

// CheckAnswer checks an answer's updatedInput upd, if any, against the
// incoming tool_input: against the members vg read before any handler had
// the event when vg holds the input, else against orig, the tool_input as
// it is now (nil when there is none). It returns what the answer is to
// carry for upd: a copy of upd, a vouched Merge result's copy or
// placeholder (see vouchedAnswer), or nil when upd is orig as the client
// has it (see Unchanged; spaced tells whether orig may have whitespace
// between its tokens). vg may be nil.
func (vg *Vouching) CheckAnswer(orig []byte, spaced bool, upd jsontext.Value, removed []string) (jsontext.Value, error) {
	if upd == nil {
		if len(removed) > 0 {
			//lint:ignore ST1005 the message starts with a field's or Claude Code's name
			return nil, errors.New("Removed is set without UpdatedInput; removals only make sense in an updated input")
		}
		return nil, nil
	}
	same := func(b []byte) bool { return Unchanged(orig, b, spaced) }
	if vg.HasInput() {
		if v, ok, err := vg.vouchedAnswer(upd, same); ok || err != nil {
			// A Merge of the incoming input, which keeps it all.
			return v, err
		}
		ms, ok := vg.inputMembers()
		if !ok {
			return upd, errors.New("the handler wrote into the bytes of the tool_input it was given, so the members the input came with are not known and updatedInput cannot be checked; build updatedInput with Merge, Edit or Remove, which copy")
		}
		upd = OwnCopy(upd)
		if err := checkRewrite(ms, upd, removed); err != nil || same(upd) {
			return nil, err
		}
		return upd, nil
	}
	upd = OwnCopy(upd)
	if err := checkRewriteOf(orig, upd, removed); err != nil || same(upd) {
		return nil, err
	}
	return upd, nil
}

// Unchanged reports whether the rewrite upd is byte for byte orig, the
// value it would replace (nil for none), whitespace between tokens aside
// when spaced is set. Such a rewrite is not written: Claude Code applies
// the rewrites of parallel hooks last-wins, so a rewrite that changes
// nothing could undo another hook's real one.
func Unchanged(orig, upd []byte, spaced bool) bool {
	return orig != nil && (bytes.Equal(orig, upd) || spaced && rawjson.SameTokens(orig, upd))
}

// OwnCopy returns a copy of v, a raw value of a handler's answer, which
// the answer then carries: what is checked is what is written, even if a
// goroutine of the handler still writes into v.
func OwnCopy(v jsontext.Value) jsontext.Value {
	if v == nil {
		return nil
	}
	return append(make(jsontext.Value, 0, len(v)), v...)
}

// checkRewriteOf refuses an updatedInput that Claude Code would take as
// a partial input: not an object, empty, or missing a member of the
// original tool input orig that removed does not name.
func checkRewriteOf(orig, upd []byte, removed []string) error {
	var oms []rawjson.Member
	if orig != nil {
		oms, _ = rawjson.MembersTrusted(orig)
	}
	return checkRewrite(oms, upd, removed)
}

// checkRewrite is checkRewriteOf with the original's members.
func checkRewrite(orig []rawjson.Member, upd []byte, removed []string) error {
	ums, err := rawjson.Members(upd)
	if err != nil {
		return fmt.Errorf("updatedInput must be one JSON object: %w", err)
	}
	if len(ums) == 0 {
		return errors.New("updatedInput is empty; Claude Code would take {} as the whole tool input (omit it to keep the input)")
	}
	if i := wire.InvalidUTF8(upd); i >= 0 {
		return fmt.Errorf("updatedInput is not valid UTF-8 (byte %#02x at offset %d): the handler set raw bytes that JSON text cannot carry; write a lone surrogate as an escape such as \\ud800, or build the value with hook.Merge", upd[i], i)
	}
	var lost []string
	find, meant := IndexMembers(ums), NameSet(removed)
	for _, m := range orig {
		if find(m.Key) < 0 && !meant(m.Key) {
			lost = append(lost, "/"+rawjson.PointerToken(m.Key))
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("updatedInput is partial: it lacks %s of the incoming tool_input, and Claude Code replaces the whole input (build it with hook.Merge, or list removals in Removed)", strings.Join(lost, ", "))
	}
	return nil
}
