package jsre

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// ranges is a set of UTF-16 code units as sorted, disjoint, non-adjacent
// closed intervals.
type ranges [][2]rune

// add returns s with lo..hi added; the result is not normalized (see
// normalize), so that building a class stays linear.
func (s ranges) add(lo, hi rune) ranges { return append(s, [2]rune{lo, hi}) }

// union returns s with the intervals of t added, not normalized.
func (s ranges) union(t ranges) ranges { return append(s, t...) }

// normalize sorts and merges the intervals of s, in place.
func (s ranges) normalize() ranges {
	sort.Slice(s, func(i, j int) bool { return s[i][0] < s[j][0] })
	var out ranges
	for _, r := range s {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			if r[1] > out[n-1][1] {
				out[n-1][1] = r[1]
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// negate returns the code units 0..0xFFFF not in s, which must be
// normalized.
func (s ranges) negate() ranges {
	var out ranges
	next := rune(0)
	for _, r := range s {
		if r[0] > next {
			out = append(out, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= 0xFFFF {
		out = append(out, [2]rune{next, 0xFFFF})
	}
	return out
}

// goClass writes s as a Go character class over the runes that stand for
// the code units (surrogates mapped, see unitRune).
func (s ranges) goClass() string {
	s = s.normalize()
	var mapped ranges
	for _, r := range s {
		lo, hi := r[0], r[1]
		if lo < 0xD800 {
			mapped = append(mapped, [2]rune{lo, min(hi, 0xD7FF)})
		}
		if hi >= 0xD800 && lo <= 0xDFFF {
			a, b := max(lo, 0xD800), min(hi, 0xDFFF)
			mapped = append(mapped, [2]rune{surrogateBase + a - 0xD800, surrogateBase + b - 0xD800})
		}
		if hi > 0xDFFF {
			mapped = append(mapped, [2]rune{max(lo, 0xE000), hi})
		}
	}
	if len(mapped) == 0 {
		return `[^\x00-\x{10FFFF}]`
	}
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range mapped {
		if r[0] == r[1] {
			fmt.Fprintf(&b, `\x{%X}`, r[0])
		} else {
			fmt.Fprintf(&b, `\x{%X}-\x{%X}`, r[0], r[1])
		}
	}
	b.WriteByte(']')
	return b.String()
}

func digitSet() ranges { return ranges{{'0', '9'}} }

func wordSet() ranges { return ranges{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}} }

// spaceSet is JavaScript's \s: WhiteSpace and LineTerminator.
func spaceSet() ranges {
	return ranges{
		{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A},
		{0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
	}.normalize()
}

// foldCase returns the code units that match s without regard to case, as
// JavaScript's Canonicalize reads it without the u flag: d matches when
// Canonicalize(d) equals Canonicalize(m) for a member m.
func (s ranges) foldCase() ranges {
	size := 0
	for _, r := range s {
		size += int(r[1]-r[0]) + 1
	}
	if size <= 64 {
		// Every d with Canonicalize(d) == Canonicalize(m) is in m's
		// simple case-folding orbit, which holds m's uppercase.
		out := append(ranges{}, s...)
		for _, r := range s {
			for m := r[0]; m <= r[1]; m++ {
				cm := canonicalize(m)
				for d := unicode.SimpleFold(m); d != m; d = unicode.SimpleFold(d) {
					if d <= 0xFFFF && canonicalize(d) == cm {
						out = append(out, [2]rune{d, d})
					}
				}
			}
		}
		return out.normalize()
	}
	canons := canonTable()
	var want [0x10000 / 64]uint64
	for _, r := range s {
		for c := r[0]; c <= r[1]; c++ {
			k := canons[c]
			want[k/64] |= 1 << (k % 64)
		}
	}
	var out ranges
	for c := 0; c <= 0xFFFF; c++ {
		k := canons[c]
		if want[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == rune(c)-1 {
			out[n-1][1] = rune(c)
		} else {
			out = append(out, [2]rune{rune(c), rune(c)})
		}
	}
	return out
}

var (
	canonOnce sync.Once
	canons    *[0x10000]uint16
)

// canonTable returns Canonicalize of every code unit.
func canonTable() *[0x10000]uint16 {
	canonOnce.Do(func() {
		t := new([0x10000]uint16)
		for c := range t {
			t[c] = uint16(canonicalize(rune(c)))
		}
		canons = t
	})
	return canons
}

// canonicalize is ECMAScript's Canonicalize(rer, ch) without the u flag:
// the single-code-unit uppercase of ch; ch itself when its uppercase is
// several code units, or is ASCII while ch is not.
func canonicalize(ch rune) rune {
	if ch >= 0xD800 && ch <= 0xDFFF || multiUpper(ch) {
		return ch
	}
	u := unicode.ToUpper(ch)
	if u > 0xFFFF || ch >= 128 && u < 128 {
		return ch
	}
	return u
}

// multiUpper reports whether the full uppercase of ch (SpecialCasing.txt,
// unconditional mappings) has more than one code point, so that
// toUpperCase gives a string of several code units.
func multiUpper(ch rune) bool {
	switch {
	case ch == 0xDF, ch == 0x149, ch == 0x1F0, ch == 0x390, ch == 0x3B0, ch == 0x587,
		ch >= 0x1E96 && ch <= 0x1E9A,
		ch == 0x1F50, ch == 0x1F52, ch == 0x1F54, ch == 0x1F56,
		ch >= 0x1F80 && ch <= 0x1FAF,
		ch >= 0x1FB2 && ch <= 0x1FB4, ch == 0x1FB6, ch == 0x1FB7, ch == 0x1FBC,
		ch >= 0x1FC2 && ch <= 0x1FC4, ch == 0x1FC6, ch == 0x1FC7, ch == 0x1FCC,
		ch == 0x1FD2, ch == 0x1FD3, ch == 0x1FD6, ch == 0x1FD7,
		ch >= 0x1FE2 && ch <= 0x1FE4, ch == 0x1FE6, ch == 0x1FE7,
		ch >= 0x1FF2 && ch <= 0x1FF4, ch == 0x1FF6, ch == 0x1FF7, ch == 0x1FFC,
		ch >= 0xFB00 && ch <= 0xFB06, ch >= 0xFB13 && ch <= 0xFB17:
		return true
	}
	return false
}
