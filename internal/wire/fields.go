package wire

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// Field is one JSON member of a struct type, as the json package names
// it.
type Field struct {
	Name   string // the member's name
	Quoted []byte // the name as a JSON string
	Index  []int  // the field's index sequence, through embedded structs
}

var viewFields sync.Map // reflect.Type → []Field

// The module walks struct tags twice, on purpose: Fields (below; the
// typed edits' diff, RawFields and the drift test use it) follows the
// json package's rules for every tag it may meet, while the fast codec's
// walker (addFields in fast.go) accepts only the plain tags of the
// library's own types and refuses a type outright at anything else
// (quoted names, inline, embedded pointers, conflicting names, methods),
// so that the json package does the work whenever the rules could differ.
// Making the fast codec follow Fields would make it interpret what it now
// declines; making Fields refuse would leave typed edits of user structs
// undone.

// Fields returns the JSON members of struct type t: exported fields
// by their tag name or Go name, embedded structs without a name flattened
// into their parent, fields tagged "-" left out. A name given twice keeps
// its shallowest field, as the json package does.
func Fields(t reflect.Type) []Field {
	if fs, ok := viewFields.Load(t); ok {
		return fs.([]Field)
	}
	var fs []Field
	addFieldsOf(&fs, t, nil, map[reflect.Type]bool{})
	seen := map[string]int{}
	kept := fs[:0]
	for _, f := range fs {
		if i, dup := seen[f.Name]; dup {
			if len(f.Index) < len(kept[i].Index) {
				kept[i] = f
			}
			continue
		}
		seen[f.Name] = len(kept)
		kept = append(kept, f)
	}
	viewFields.Store(t, kept)
	return kept
}

func addFieldsOf(fs *[]Field, t reflect.Type, under []int, busy map[reflect.Type]bool) {
	if busy[t] {
		return
	}
	busy[t] = true
	defer delete(busy, t)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		index := append(slices.Clip(under), i)
		et := f.Type
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if f.Anonymous && (name == "" || strings.Contains(","+opts+",", ",inline,")) && et.Kind() == reflect.Struct && !EncodesItself(et) {
			addFieldsOf(fs, et, index, busy)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		} else if strings.HasPrefix(name, "'") {
			name = strings.Trim(name, "'")
		}
		q, err := jsontext.AppendQuote(nil, name)
		if err != nil {
			continue
		}
		*fs = append(*fs, Field{Name: string(rawjson.AppendExactUnquote(nil, q)), Quoted: q, Index: index})
	}
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
