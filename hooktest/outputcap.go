package hooktest

import (
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// MaxOutputChars is the most characters of text Claude Code (2.1.332
// to 2.1.336) passes on whole: additionalContext, systemMessage,
// SessionStart's initialUserMessage and plain-text stdout longer than
// that are saved to a file in the session's folder, and the
// model gets a notice with the file's path and the first 2,000
// characters instead (docs/e2e.md). Characters are counted as JavaScript
// counts a string's length, in UTF-16 code units. It is
// hook.MaxTextChars; a hook.Server keeps its answers within it (see
// hook.Server's LongText).
const MaxOutputChars = 10000

// RuleOutputCap: Claude Code replaces text over [MaxOutputChars] with a
// preview and a file path, silently; the model never sees the rest.
const RuleOutputCap = "text Claude Code passes on must stay within 10,000 characters"

// capped lists, per place in an answer, the members whose text Claude
// Code caps.
var capped = map[string]bool{"systemMessage": true, "additionalContext": true, "initialUserMessage": true}

// jsLength returns the length JavaScript gives the string s: UTF-16 code
// units, one per byte of invalid UTF-8 (decoded as U+FFFD).
func jsLength(s []byte) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// checkCapText flags plain-text stdout over the cap.
func (c *checker) checkCapText(text []byte) {
	if n := jsLength(text); n > MaxOutputChars {
		c.add(RuleOutputCap, "", "plain-text stdout is %d characters; Claude Code passes on a 2,000-character preview and a file path instead", n)
	}
}

// checkCapMembers flags capped members of ms, at ptr, over the cap.
func (c *checker) checkCapMembers(ptr string, ms []rawjson.Member) {
	for _, m := range ms {
		if !capped[m.Key] || jsontext.Value(m.Value).Kind() != '"' {
			continue
		}
		s, ok := decodeString(m.Value)
		if !ok {
			continue
		}
		if n := jsLength([]byte(s)); n > MaxOutputChars {
			c.add(RuleOutputCap, ptr+"/"+m.Key, "%d characters; Claude Code passes on a 2,000-character preview and a file path instead", n)
		}
	}
}
