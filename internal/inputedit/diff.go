package inputedit

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// This file holds the engine behind hook.Update: a diff of a typed view
// before and after an edit, applied to the original bytes. It walks the Go
// values and the JSON side by side and rewrites only what changed, so that
// every byte the edit did not touch, at every depth, is the original's.

// errRemoves is the error of an edit that would drop a member.
var errRemoves = errors.New("typed edits never remove members; use hook.Remove (or build the value with hook.Merge)")

// Diff returns orig, one valid JSON value of any kind, with exactly the
// values that differ between edited (a typed view after the hook changed
// it) and a fresh decode of orig into the same type replaced, at every
// depth: the engine behind hook.Update and hook.Edit, whose docs give the
// rules. When the view as a whole is equal to the fresh decode, the
// result is orig itself, less the whitespace around it. The callers
// check orig and the view's tool first.
func Diff(orig []byte, edited any) ([]byte, error) {
	rv := reflect.ValueOf(edited)
	if !rv.IsValid() {
		return nil, errors.New("hook: Update: the edited view is nil")
	}
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, fmt.Errorf("hook: Update: the edited view is a nil %T", edited)
		}
		rv = rv.Elem()
	}
	before := reflect.New(rv.Type())
	if err := wire.Unmarshal(orig, before.Interface()); err != nil {
		return nil, fmt.Errorf("hook: Update: decoding %s: %w", rv.Type(), err)
	}
	out, _, err := diffValue(bytes.TrimSpace(orig), before.Elem(), rv, "")
	if err != nil {
		return nil, fmt.Errorf("hook: Update: %w", err)
	}
	return out, nil
}

// diffValue returns the JSON for a value whose original bytes are raw
// (nil when the member is absent), decoded as b before the edit and a
// after it, and whether it differs from raw. ptr is the value's JSON
// pointer, for errors.
func diffValue(raw []byte, b, a reflect.Value, ptr string) ([]byte, bool, error) {
	if equalValues(b, a) {
		return raw, false, nil
	}
	if raw == nil || raw[0] == 'n' {
		// Absent or null: there is nothing to keep.
		if isRemoval(a) {
			return raw, false, nil
		}
		return encodeValue(a, ptr)
	}
	t := a.Type()
	switch {
	case t == rawType:
		v := a.Bytes()
		if len(v) == 0 {
			return nil, false, fmt.Errorf("%s: the edit sets the raw value to nil: %w", where(ptr), errRemoves)
		}
		if !wire.Valid(v) {
			return nil, false, fmt.Errorf("%s: the edited raw value is not one valid JSON value", where(ptr))
		}
		return bytes.TrimSpace(v), true, nil
	case wire.EncodesItself(t):
		return encodeValue(a, ptr)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return nil, false, fmt.Errorf("%s: the edit sets the pointer to nil: %w", where(ptr), errRemoves)
		}
		if b.IsNil() {
			b = reflect.Zero(t.Elem())
		} else {
			b = b.Elem()
		}
		return diffValue(raw, b, a.Elem(), ptr)
	case reflect.Struct:
		if raw[0] != '{' {
			return encodeValue(a, ptr)
		}
		return diffStruct(raw, b, a, ptr)
	case reflect.Map:
		if raw[0] != '{' || t.Key().Kind() != reflect.String {
			return encodeValue(a, ptr)
		}
		return diffMap(raw, b, a, ptr)
	case reflect.Slice:
		if raw[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return encodeValue(a, ptr) // []byte is a base64 string
		}
		return diffSlice(raw, b, a, ptr)
	}
	return encodeValue(a, ptr)
}

// diffStruct diffs the members of a struct view; members of raw that the
// struct does not know are kept.
func diffStruct(raw []byte, b, a reflect.Value, ptr string) ([]byte, bool, error) {
	ms, err := rawjson.MembersTrusted(raw)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", where(ptr), err)
	}
	find := IndexMembers(ms)
	var patch []rawjson.Member
	for _, f := range wire.Fields(a.Type()) {
		fa, okA := fieldByIndex(a, f.Index)
		fb, okB := fieldByIndex(b, f.Index)
		if !okA {
			if okB && !fb.IsZero() {
				return nil, false, fmt.Errorf("%s: the edit sets the embedded pointer holding %q to nil: %w", where(ptr), f.Name, errRemoves)
			}
			continue
		}
		if !okB {
			fb = reflect.Zero(fa.Type())
		}
		var sub []byte
		if i := find(f.Name); i >= 0 {
			sub = ms[i].Value
		}
		out, changed, err := diffValue(sub, fb, fa, ptr+"/"+rawjson.PointerToken(f.Name))
		if err != nil {
			return nil, false, err
		}
		if changed {
			patch = append(patch, rawjson.Member{Key: f.Name, Name: f.Quoted, Value: out})
		}
	}
	if len(patch) == 0 {
		return raw, false, nil
	}
	return mergeMembers(raw, ms, patch), true, nil
}

// diffMap diffs a map with string keys: keys the edit changed or added
// are written (added ones in sorted order), others keep their bytes.
func diffMap(raw []byte, b, a reflect.Value, ptr string) ([]byte, bool, error) {
	ms, err := rawjson.MembersTrusted(raw)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", where(ptr), err)
	}
	find := IndexMembers(ms)
	if !b.IsNil() {
		for _, k := range b.MapKeys() {
			if !a.MapIndex(k).IsValid() && find(k.String()) >= 0 {
				return nil, false, fmt.Errorf("%s: the edit deletes the map key %q: %w", where(ptr), k.String(), errRemoves)
			}
		}
	}
	keys := a.MapKeys()
	slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
	var patch []rawjson.Member
	for _, k := range keys {
		fa := a.MapIndex(k)
		fb := b.MapIndex(k)
		if !fb.IsValid() {
			fb = reflect.Zero(fa.Type())
		}
		var sub []byte
		if i := find(k.String()); i >= 0 {
			sub = ms[i].Value
		}
		p := ptr + "/" + rawjson.PointerToken(k.String())
		out, changed, err := diffValue(sub, fb, fa, p)
		if err != nil {
			return nil, false, err
		}
		if !changed && sub == nil {
			// A key the edit added with the zero value: still a new
			// member, so write it.
			if out, _, err = encodeValue(fa, p); err != nil {
				return nil, false, err
			}
			changed = true
		}
		if changed {
			name, err := jsontext.AppendQuote(nil, k.String())
			if err != nil {
				return nil, false, fmt.Errorf("%s: map key %q: %w", where(ptr), k.String(), err)
			}
			patch = append(patch, rawjson.Member{Key: string(rawjson.AppendExactUnquote(nil, name)), Name: name, Value: out})
		}
	}
	if len(patch) == 0 {
		return raw, false, nil
	}
	return mergeMembers(raw, ms, patch), true, nil
}

// diffSlice diffs a slice against the original array: the elements equal
// at the start and at the end keep their bytes; the others are matched by
// place and diffed, so that a changed element keeps its unknown members;
// added elements are encoded, removed ones dropped.
func diffSlice(raw []byte, b, a reflect.Value, ptr string) ([]byte, bool, error) {
	elems, ok := rawjson.ElementsTrusted(raw)
	if !ok || len(elems) != b.Len() {
		return encodeValue(a, ptr)
	}
	nb, na := b.Len(), a.Len()
	head := 0
	for head < nb && head < na && equalValues(b.Index(head), a.Index(head)) {
		head++
	}
	tail := 0
	for tail < nb-head && tail < na-head && equalValues(b.Index(nb-1-tail), a.Index(na-1-tail)) {
		tail++
	}
	out := make([]byte, 0, len(raw)+64)
	out = append(out, '[')
	add := func(v []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, v...)
	}
	for _, e := range elems[:head] {
		add(e)
	}
	for i := head; i < na-tail; i++ {
		p := fmt.Sprintf("%s/%d", ptr, i)
		var v []byte
		var err error
		if j := i; j < nb-tail {
			v, _, err = diffValue(elems[j], b.Index(j), a.Index(i), p)
		} else {
			v, _, err = encodeValue(a.Index(i), p)
		}
		if err != nil {
			return nil, false, err
		}
		add(v)
	}
	for _, e := range elems[nb-tail:] {
		add(e)
	}
	return append(out, ']'), true, nil
}

// encodeValue encodes v, a value the edit set, with the library's
// options.
func encodeValue(v reflect.Value, ptr string) ([]byte, bool, error) {
	b, err := wire.Marshal(v.Interface())
	if err != nil {
		return nil, false, fmt.Errorf("%s: encoding the edited value: %w", where(ptr), err)
	}
	return b, true, nil
}

// where names the JSON pointer ptr in a message.
func where(ptr string) string {
	if ptr == "" {
		return "the view"
	}
	return ptr
}

// equalValues reports whether b and a hold equal Go values.
func equalValues(b, a reflect.Value) bool {
	if b.Kind() == reflect.Slice && b.Type() == rawType {
		return bytes.Equal(b.Bytes(), a.Bytes())
	}
	return reflect.DeepEqual(b.Interface(), a.Interface())
}

// isRemoval reports whether a, set on a member that was absent or null,
// would be a value that the encoder leaves out: a nil raw value, pointer,
// map or interface.
func isRemoval(a reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map:
		return a.IsNil()
	case reflect.Slice:
		return a.Type() == rawType && a.Len() == 0
	}
	return false
}

// fieldByIndex is v.FieldByIndex that reports false instead of panicking
// at a nil embedded pointer.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// rawType is the type of a raw JSON value.
var rawType = reflect.TypeFor[jsontext.Value]()
