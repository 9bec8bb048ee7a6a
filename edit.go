package hook

import (
	"github.com/gohooks/hook/internal/rawjson"

	"bytes"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json/jsontext"
)

// Edit decodes the JSON object orig into a new T (typically one of the
// typed tool inputs such as [BashInput]), lets edit change it, and returns
// orig with exactly the members whose value edit changed replaced. See
// [Update] for the rules. If edit returns an error, Edit returns it.
//
//	upd, err := hook.Edit(ev.ToolInput, func(in *hook.BashInput) error {
//		in.Command = "timeout 600 " + in.Command
//		return nil
//	})
func Edit[T any](orig jsontext.Value, edit func(*T) error) (jsontext.Value, error) {
	v := new(T)
	if err := unmarshal(orig, v); err != nil {
		return nil, fmt.Errorf("hook: Edit: decoding %T: %w", v, err)
	}
	if err := edit(v); err != nil {
		return nil, err
	}
	return Update(orig, v)
}

// Update compares edited, a typed view of the JSON object orig after the
// hook changed it, with a fresh decode of orig into the same type, and
// returns orig with only the members whose value differs replaced (via
// [Merge]). Members of orig that the type does not know, and members whose
// value did not change, are kept byte for byte and in order, even when the
// view would encode them differently (escapes, number spelling).
//
// A field that was absent from orig and is still its zero value stays
// absent; a field set to a new value, zero included, is written. Update
// never removes a member: when the edited view would omit a member that orig
// has (an omitzero field reset to zero), Update returns an error that points
// to [Remove]. edited must be a struct or a pointer to one.
func Update(orig jsontext.Value, edited any) (jsontext.Value, error) {
	rv := reflect.ValueOf(edited)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, fmt.Errorf("hook: Update: the edited view is a nil %T", edited)
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("hook: Update: the edited view must be a struct, not %T", edited)
	}
	before := reflect.New(rv.Type())
	if err := unmarshal(orig, before.Interface()); err != nil {
		return nil, fmt.Errorf("hook: Update: decoding %s: %w", rv.Type(), err)
	}
	bb, err := marshal(before.Interface())
	if err != nil {
		return nil, fmt.Errorf("hook: Update: encoding %s: %w", rv.Type(), err)
	}
	ab, err := marshal(rv.Addr().Interface())
	if err != nil {
		return nil, fmt.Errorf("hook: Update: encoding %s: %w", rv.Type(), err)
	}
	bms, err := rawjson.Members(bb)
	if err != nil {
		return nil, objectError("Update: the view", err)
	}
	ams, err := rawjson.Members(ab)
	if err != nil {
		return nil, objectError("Update: the view", err)
	}
	var changed []rawjson.Member
	for _, a := range ams {
		if b, ok := rawjson.Find(bms, a.Key); !ok || !bytes.Equal(a.Value, b.Value) {
			changed = append(changed, a)
		}
	}
	for _, b := range bms {
		if _, ok := rawjson.Find(ams, b.Key); !ok {
			return nil, fmt.Errorf("hook: Update: the edit would remove member %q; typed edits never remove members, use hook.Remove", b.Key)
		}
	}
	oms, err := rawjson.Members(orig)
	if err != nil {
		return nil, objectError("Update: the original", err)
	}
	if len(changed) == 0 {
		return append(jsontext.Value(nil), orig...), nil
	}
	return mergeMembers(orig, oms, changed), nil
}
