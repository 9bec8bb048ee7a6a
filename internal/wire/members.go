package wire

import (
	"reflect"
	"sync"

	"github.com/gohooks/hook/internal/rawjson"
)

// DecodeMembers decodes the members ms of a validated input into dst, a
// struct that embeds hook.Event and already holds a copy of the event,
// with the fast codec and dst's Type ft (from TypeOf), and reports
// whether it could. Members for which skip reports true (the common
// fields) are not decoded again; raw values are slices of the input, not
// copies. On false dst is partly written.
func DecodeMembers(ms []rawjson.Member, dst reflect.Value, ft *Type, skip func(string) bool) bool {
	for _, m := range ms {
		if skip(m.Key) {
			continue
		}
		f := ft.field(m.Key)
		if f == nil {
			continue // not a field: ignored, as the json package does
		}
		fv := dst.FieldByIndex(f.index)
		if f.typ.kind == fastRaw {
			fv.SetBytes(m.Value)
			continue
		}
		if !decodeFast(m.Value, fv, f.typ) {
			return false
		}
	}
	return true
}

var (
	rawFieldsMu    sync.Mutex
	rawFieldsCache = map[reflect.Type]map[string][]int{}
)

// RawFields returns, for struct type t, the JSON names of its fields of
// type jsontext.Value (also through embedded structs, by the rules of
// Fields) with their indexes. A field reached through an embedded pointer
// is left out: the json package decodes it, allocating the pointer.
// Results are cached per type on first use, not at start-up.
func RawFields(t reflect.Type) map[string][]int {
	rawFieldsMu.Lock()
	defer rawFieldsMu.Unlock()
	if m, ok := rawFieldsCache[t]; ok {
		return m
	}
	m := map[string][]int{}
	for _, f := range Fields(t) {
		if ft, ok := directField(t, f.Index); ok && ft == rawType {
			m[f.Name] = f.Index
		}
	}
	rawFieldsCache[t] = m
	return m
}

// directField returns the type of the field of struct type t at index,
// and reports false when the path to it goes through a pointer.
func directField(t reflect.Type, index []int) (reflect.Type, bool) {
	for k, x := range index {
		if t.Kind() != reflect.Struct {
			return nil, false
		}
		t = t.Field(x).Type
		if k < len(index)-1 && t.Kind() == reflect.Pointer {
			return nil, false
		}
	}
	return t, true
}

// EncodesItself reports whether the json package encodes t with t's own
// methods, or by its dynamic value (an interface): the diff writes such
// values whole.
func EncodesItself(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return true
	}
	for _, m := range []reflect.Type{marshalerTo, marshaler, textMarshaler, textAppender} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return true
		}
	}
	return false
}
