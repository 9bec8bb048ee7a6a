package hook

import "unicode"

// This file holds the one rule for the reason of a block or a deny: a
// reason that says nothing is replaced by the library's default, on every
// event, for every agent and on both ways a reason leaves a hook — stderr
// under exit code 2 ([Block]) and the reason fields of a JSON answer.

// defaultBlockReason is the reason of a block or a deny that gives none.
const defaultBlockReason = "blocked by hook"

// blankReason reports whether reason says nothing: it is empty or holds
// only white space, as either client trims it — Codex with Rust's trim
// (Unicode White_Space: the ASCII spaces and controls \t \n \v \f \r,
// U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000), which turns exit 2 with a blank stderr into a failed hook and
// a blank deny or block into an answer it refuses; Claude Code with
// JavaScript's trim, which removes U+FEFF too. Bytes that are not UTF-8
// are not white space.
func blankReason(reason string) bool {
	for _, r := range reason {
		if !unicode.IsSpace(r) && r != '\uFEFF' {
			return false
		}
	}
	return true
}

// reasonOrDefault returns reason, or the library's default reason
// ("blocked by hook") when it is blank (see blankReason): a block or a
// deny that reaches Claude always says something, whatever the client
// would put in the place of a missing reason, and no client takes it for
// a failed hook.
func reasonOrDefault(reason string) string {
	if blankReason(reason) {
		return defaultBlockReason
	}
	return reason
}

// blockReason returns e's reason, or the default one for a nil
// BlockError or one whose reason is blank: a block that says nothing
// still blocks.
func blockReason(e *BlockError) string {
	if e == nil {
		return defaultBlockReason
	}
	return reasonOrDefault(e.Reason)
}
