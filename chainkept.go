package hook

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// checkKept refuses the rewrite in out, a handler's answer to view, when
// it undoes what the handlers before it did to ev, the event the
// outermost chain was given. The answer was already checked against
// view, the input it saw (a tool_input rewrite keeps every member of it
// or lists it in Removed); this catches a rewrite built from a copy of
// the input the handler kept from before the chain changed it, which
// that check cannot tell from a change made on purpose:
//   - a member an earlier handler added or changed is missing (for the
//     rewrites without Removed: updatedToolOutput, an elicitation's
//     content); with Removed, only a listed member may be missing;
//   - a member (at any depth) holds again the value it had in ev's
//     input after an earlier handler changed it, or is back after an
//     earlier handler removed it;
//   - a value that is not an object is back to ev's after an earlier
//     handler changed it.
func checkKept(ev, view *Event, out Output) error {
	name, upd := rewrite(out)
	if upd == nil || !rewriteStands(out) {
		return nil
	}
	base, _ := ev.Field(name)
	seen, _ := view.Field(name)
	if base == nil || seen == nil || bytes.Equal(base, seen) {
		return nil // nothing was changed before this handler
	}
	var removed []string
	if r, ok := out.(remover); ok {
		removed = r.removedMembers()
	}
	k := keeper{removed: nameSet(removed)}
	k.check("", base, seen, jsontext.Value(upd), true)
	if len(k.lost) == 0 && len(k.undone) == 0 {
		return nil
	}
	var parts []string
	if len(k.lost) > 0 {
		parts = append(parts, fmt.Sprintf("it lacks %s, which an earlier handler set", strings.Join(k.lost, ", ")))
	}
	if len(k.undone) > 0 {
		parts = append(parts, fmt.Sprintf("it puts back what %s held before an earlier handler changed it", strings.Join(k.undone, ", ")))
	}
	return fmt.Errorf("the %s it rewrote undoes the handlers before it: %s; build it from the %s it was given (the chain feeds each handler the previous one's rewrite)%s",
		name, strings.Join(parts, "; "), name, removedHint(out))
}

// A remover is an answer whose rewrite may drop members on purpose, when
// it lists them (Removed).
type remover interface {
	removedMembers() []string
}

// rewriteStands reports whether the rewrite in out can reach the
// combined answer: an answer can drop it (a PreToolUse deny or defer).
func rewriteStands(out Output) bool {
	if s, ok := out.(interface{ rewriteStands() bool }); ok {
		return s.rewriteStands()
	}
	return true
}

// removedHint tells how to drop a member on purpose, where the answer can.
func removedHint(out Output) string {
	if _, ok := out.(remover); ok {
		return ", and list in Removed what it drops on purpose"
	}
	return ""
}

// keeper collects what a rewrite lost or undid.
type keeper struct {
	removed      func(string) bool
	lost, undone []string
}

// check compares, at the JSON pointer path, the value base had before
// the chain, seen as the handler saw it, and upd as it rewrote it.
func (k *keeper) check(path string, base, seen, upd jsontext.Value, top bool) {
	if !top && rawjson.SameValue(base, seen) {
		return // not changed before the handler: its own to change
	}
	bms, berr := rawjson.MembersTrusted(base)
	sms, serr := rawjson.MembersTrusted(seen)
	ums, uerr := rawjson.MembersTrusted(upd)
	if berr != nil || serr != nil || uerr != nil {
		// Not three objects: a whole value changed.
		if rawjson.SameValue(base, upd) {
			k.undone = append(k.undone, pathName(path))
		}
		return
	}
	for _, s := range sms {
		p := path + "/" + rawjson.PointerToken(s.Key)
		b, inBase := rawjson.Find(bms, s.Key)
		u, inUpd := rawjson.Find(ums, s.Key)
		switch {
		case inBase && rawjson.SameValue(b.Value, s.Value):
			// Not changed before the handler.
		case !inUpd:
			if !top || !k.removed(s.Key) {
				k.lost = append(k.lost, p)
			}
		case inBase:
			k.check(p, b.Value, s.Value, u.Value, false)
		}
	}
	for _, b := range bms {
		if _, inSeen := rawjson.Find(sms, b.Key); inSeen {
			continue
		}
		// Removed before the handler: back with its old value?
		if u, inUpd := rawjson.Find(ums, b.Key); inUpd && rawjson.SameValue(b.Value, u.Value) {
			k.undone = append(k.undone, path+"/"+rawjson.PointerToken(b.Key))
		}
	}
}

// pathName names the value at the JSON pointer path in a message.
func pathName(path string) string {
	if path == "" {
		return "the whole value"
	}
	return path
}
