package hook

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/rawjson"
)

// Merge returns a copy of the JSON object orig in which the top-level
// members of patch are set, and every other member is kept byte for byte.
//
// Merge is the safe way to build a PreToolUse or PermissionRequest
// updatedInput: Claude Code replaces the whole tool input with the answer,
// so a member the answer leaves out is lost. Merge starts from the incoming
// tool_input instead of building a new object.
//
// The rules, in order:
//   - orig must be one JSON object without duplicate names; anything else is
//     an error.
//   - A member of orig that patch names is replaced in place (same position,
//     same name bytes, new value).
//   - Members of patch that orig lacks are appended after the last member of
//     orig, in patch order.
//   - Every other member of orig, name and value, is copied byte for byte and
//     in order; its value is never decoded or re-encoded, so big integers,
//     "2.50", escapes and lone surrogates survive.
//   - Merge is shallow: a nested object named in patch is replaced whole.
//   - Nothing is ever removed: a null in patch sets the member to null. Use
//     [Remove] to drop members.
//
// patch may be a [jsontext.Value] holding an object, a struct (members in
// field order, honoring json tags and omitempty/omitzero), or a map with
// string keys (members in sorted key order). Values inside patch are
// encoded with the library's options, so a jsontext.Value inside a patch is
// written exactly. Whitespace between the members of orig is not kept
// (the result is written {"a":…,"b":…}); whitespace inside a value that is
// kept is, as the rest of its bytes. An answer carries every raw value
// compact, so its updatedInput is the same bytes whether orig was
// pretty-printed or not.
func Merge(orig jsontext.Value, patch any) (jsontext.Value, error) {
	return mergeWith(nil, orig, patch)
}

// mergeWith is the one merge behind [Merge], [PreToolUse.Merge] and
// [PermissionRequest.Merge]: inputedit.Merge with the vouching vg of the
// handler's invocation (nil outside one), noting the result for a chain
// (see chainown.go).
func mergeWith(vg *inputedit.Vouching, orig jsontext.Value, patch any) (jsontext.Value, error) {
	out, err := inputedit.Merge(vg, orig, patch)
	noteBuilt(orig, out)
	return out, err
}

// nameSet returns a function that reports whether k is one of names, in
// constant time for many names (see inputedit.NameSet).
func nameSet(names []string) func(k string) bool { return inputedit.NameSet(names) }

// Remove returns a copy of the JSON object orig without the top-level
// members named in names; every other member is kept byte for byte and in
// order. Names that orig does not hold are ignored. Remove is the only way
// this package drops a member from a tool input: neither [Merge] nor a
// typed edit removes anything by accident. An answer that carries the
// result must list the removed names (see [PreToolUseOutput.Removed]) so
// that validation knows the removal is meant.
func Remove(orig jsontext.Value, names ...string) (jsontext.Value, error) {
	ms, err := rawjson.Members(orig)
	if err != nil {
		return nil, inputedit.ObjectError("Remove: the original", err)
	}
	kept := ms[:0]
	drop := nameSet(names)
	for _, m := range ms {
		if !drop(m.Key) {
			kept = append(kept, m)
		}
	}
	return rawjson.AppendObject(make(jsontext.Value, 0, len(orig)), kept), nil
}
