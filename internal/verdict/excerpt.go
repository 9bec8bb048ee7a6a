package verdict

import (
	"fmt"
	"unicode/utf8"
)

// excerptLead is how many bytes before the first difference an excerpt
// keeps, so that the reader sees where it is.
const excerptLead = 16

// Excerpts returns a and b, two values shown side by side in a message,
// each cut to about width bytes so that the place where they differ shows.
// Values of at most width bytes come back whole. When they share a
// prefix longer than fits, both start at the same place a few bytes
// before the first difference, after a mark that counts the bytes left
// out ("[…81903 bytes in common…]"); a value still longer than width ends
// with "...". Cuts fall on UTF-8 character boundaries.
func Excerpts(a, b []byte, width int) (string, string) {
	if len(a) <= width && len(b) <= width {
		return string(a), string(b)
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	start := max(p-excerptLead, 0)
	for start > 0 && !utf8.RuneStart(a[start]) {
		start--
	}
	if p < width-excerptLead || start == 0 {
		return cut(a, 0, width), cut(b, 0, width)
	}
	return cut(a, start, width), cut(b, start, width)
}

// cut returns v from byte start on, at most width bytes of it, with the
// marks of what was left out.
func cut(v []byte, start, width int) string {
	head := ""
	if start > 0 {
		head = fmt.Sprintf("[…%d bytes in common…]", start)
	}
	v = v[start:]
	if len(v) <= width {
		return head + string(v)
	}
	end := width - 3
	for end > 0 && !utf8.RuneStart(v[end]) {
		end--
	}
	return head + string(v[:end]) + "..."
}
