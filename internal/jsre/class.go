package jsre

import (
	"fmt"
	"sort"
	"strings"
)

// ranges is a set of UTF-16 code units as sorted, disjoint, non-adjacent
// closed intervals.
type ranges [][2]rune

func (s ranges) add(lo, hi rune) ranges {
	out := append(ranges{}, s...)
	out = append(out, [2]rune{lo, hi})
	return out.normalize()
}

func (s ranges) union(t ranges) ranges {
	if len(t) == 0 {
		return s
	}
	out := append(append(ranges{}, s...), t...)
	return out.normalize()
}

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

// negate returns the code units 0..0xFFFF not in s.
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
