// Package verdict judges a hook's updatedInput the way Claude Code reads
// it, for hooktest and hookcheck alike: the one place where the rules of a
// property run live — which members the hook owns, which members were
// lost, changed or only respelled, and which inputs Claude Code can send
// at all.
//
// Claude Code parses a hook's stdout with JavaScript's JSON.parse and
// writes tool inputs with JSON.stringify. This package reads JSON as
// JSON.parse does — numbers as IEEE-754 doubles, strings as UTF-16 code
// units (lone surrogates included), the last of two equal names winning —
// and writes it as JSON.stringify does.
package verdict

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// Value is a JSON value as JavaScript's JSON.parse reads it.
type Value struct {
	// Kind is 'n' (null), 't', 'f', '0' (number), '"', '[' or '{'.
	Kind byte
	Num  float64
	Str  []uint16
	// Elems are an array's elements.
	Elems []Value
	// Keys and Vals are an object's properties in JavaScript's order:
	// array-index names ascending, then the others in creation order; a
	// name given twice keeps its first place and its last value.
	Keys [][]uint16
	Vals []Value
}

// Parse reads the JSON text b as JSON.parse does. It reports false when b
// is not one JSON value (lone surrogates and invalid UTF-8 are allowed,
// as are names given twice).
func Parse(b []byte) (Value, bool) {
	if !jsontext.Value(b).IsValid(jsonopts.Read()) {
		return Value{}, false
	}
	p := parser{b: b}
	return p.value(), true
}

type parser struct {
	b []byte
	i int
}

func (p *parser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// value reads one value from valid JSON.
func (p *parser) value() Value {
	p.ws()
	switch c := p.b[p.i]; c {
	case 'n':
		p.i += 4
		return Value{Kind: 'n'}
	case 't':
		p.i += 4
		return Value{Kind: 't'}
	case 'f':
		p.i += 5
		return Value{Kind: 'f'}
	case '"':
		return Value{Kind: '"', Str: p.str()}
	case '[':
		p.i++
		v := Value{Kind: '['}
		for {
			p.ws()
			if p.b[p.i] == ']' {
				p.i++
				return v
			}
			if p.b[p.i] == ',' {
				p.i++
				continue
			}
			v.Elems = append(v.Elems, p.value())
		}
	case '{':
		p.i++
		v := Value{Kind: '{'}
		for {
			p.ws()
			switch p.b[p.i] {
			case '}':
				p.i++
				v.order()
				return v
			case ',':
				p.i++
				continue
			}
			k := p.str()
			p.ws()
			p.i++ // ':'
			e := p.value()
			if j := slices.IndexFunc(v.Keys, func(x []uint16) bool { return slices.Equal(x, k) }); j >= 0 {
				v.Vals[j] = e
			} else {
				v.Keys = append(v.Keys, k)
				v.Vals = append(v.Vals, e)
			}
		}
	default:
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
		f, _ := strconv.ParseFloat(string(p.b[start:p.i]), 64) // ±Inf on overflow, as in JavaScript
		return Value{Kind: '0', Num: f}
	}
}

// str reads one string token as UTF-16 code units. Bytes that are not
// UTF-8 read as U+FFFD, as Node decodes its stdin.
func (p *parser) str() []uint16 {
	start := p.i
	for p.i++; p.b[p.i] != '"'; p.i++ {
		if p.b[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
	return utf16Units(rawjson.AppendExactUnquote(nil, p.b[start:p.i]))
}

// utf16Units returns the UTF-16 code units of the WTF-8 text w (UTF-8
// in which lone surrogates are encoded like other code points, as
// rawjson's exact keys are).
func utf16Units(w []byte) []uint16 {
	out := make([]uint16, 0, len(w))
	for len(w) > 0 {
		if len(w) >= 3 && w[0] == 0xed && w[1] >= 0xa0 && w[1] <= 0xbf {
			out = append(out, 0xd000|uint16(w[1]&0x3f)<<6|uint16(w[2]&0x3f))
			w = w[3:]
			continue
		}
		r, n := utf8.DecodeRune(w)
		out = utf16.AppendRune(out, r)
		w = w[n:]
	}
	return out
}

// order puts an object's properties in JavaScript's order: array indices
// ascending first, then the other names in creation order.
func (v *Value) order() {
	type prop struct {
		k   []uint16
		v   Value
		idx int64 // array index, or -1
		pos int
	}
	ps := make([]prop, len(v.Keys))
	any := false
	for i, k := range v.Keys {
		ps[i] = prop{k, v.Vals[i], arrayIndex(k), i}
		any = any || ps[i].idx >= 0
	}
	if !any {
		return
	}
	slices.SortStableFunc(ps, func(a, b prop) int {
		switch {
		case a.idx >= 0 && b.idx >= 0:
			return int(a.idx - b.idx)
		case a.idx >= 0:
			return -1
		case b.idx >= 0:
			return 1
		}
		return a.pos - b.pos
	})
	for i, p := range ps {
		v.Keys[i], v.Vals[i] = p.k, p.v
	}
}

// arrayIndex returns the array index a property name stands for (a
// canonical decimal below 2³²−1), or -1.
func arrayIndex(k []uint16) int64 {
	if len(k) == 0 || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return -1
	}
	var n int64
	for _, c := range k {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	if n >= math.MaxUint32 {
		return -1
	}
	return n
}

// Same reports whether a and b are the same JavaScript value: numbers
// compared as Object.is does (0 and -0 differ), strings by code unit,
// arrays element by element, objects by name whatever the order.
func Same(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case '0':
		return a.Num == b.Num && math.Signbit(a.Num) == math.Signbit(b.Num)
	case '"':
		return slices.Equal(a.Str, b.Str)
	case '[':
		return len(a.Elems) == len(b.Elems) && !slices.ContainsFunc(indices(len(a.Elems)), func(i int) bool { return !Same(a.Elems[i], b.Elems[i]) })
	case '{':
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			v, ok := b.Get(k)
			if !ok || !Same(a.Vals[i], v) {
				return false
			}
		}
	}
	return true
}

func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Get returns the property k of an object.
func (v Value) Get(k []uint16) (Value, bool) {
	for i, x := range v.Keys {
		if slices.Equal(x, k) {
			return v.Vals[i], true
		}
	}
	return Value{}, false
}

// SameValue reports whether the JSON texts a and b hold the same
// JavaScript value (see [Same]); identical bytes always do, and text that
// is not JSON is the same only as identical bytes.
func SameValue(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, ok1 := Parse(a)
	vb, ok2 := Parse(b)
	return ok1 && ok2 && Same(va, vb)
}

// Stringify appends v as JavaScript's JSON.stringify writes it (compact;
// a non-finite number as null; lone surrogates as \u escapes).
func Stringify(dst []byte, v Value) []byte {
	switch v.Kind {
	case 'n':
		return append(dst, "null"...)
	case 't':
		return append(dst, "true"...)
	case 'f':
		return append(dst, "false"...)
	case '0':
		return appendNumber(dst, v.Num)
	case '"':
		return appendString(dst, v.Str)
	case '[':
		dst = append(dst, '[')
		for i, e := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Stringify(dst, e)
		}
		return append(dst, ']')
	default:
		dst = append(dst, '{')
		for i, k := range v.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			dst = Stringify(dst, v.Vals[i])
		}
		return append(dst, '}')
	}
}

// Sendable reports whether Claude Code can send the JSON text b in a
// tool input: whether JSON.stringify writes exactly b for the value
// JSON.parse reads from it. 12345678901234567890, 1e400, -0, 2.50, "\/"
// and "\u00f6" are not; "\ud800" (a lone surrogate) and 5e-324 are.
func Sendable(b []byte) bool {
	v, ok := Parse(b)
	return ok && bytes.Equal(Stringify(nil, v), b)
}

// appendNumber writes f as JavaScript's Number.prototype.toString does.
func appendNumber(dst []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest digits that read back as f, and the exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // f = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		return append(dst, strings.Repeat("0", n-k)...)
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		return append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, "0."...)
		dst = append(dst, strings.Repeat("0", -n)...)
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if k > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if n-1 >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(n-1), 10)
}

// appendString writes UTF-16 code units as JSON.stringify does (with
// well-formed JSON.stringify, ES2019).
func appendString(dst []byte, s []uint16) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			dst = append(dst, `\"`...)
		case c == '\\':
			dst = append(dst, `\\`...)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case utf16.IsSurrogate(rune(c)):
			if c < 0xdc00 && i+1 < len(s) && s[i+1] >= 0xdc00 && s[i+1] < 0xe000 {
				dst = utf8.AppendRune(dst, utf16.DecodeRune(rune(c), rune(s[i+1])))
				i++
				continue
			}
			dst = append(dst, '\\', 'u', hex[c>>12], hex[c>>8&15], hex[c>>4&15], hex[c&15])
		default:
			dst = utf8.AppendRune(dst, rune(c))
		}
	}
	return append(dst, '"')
}
