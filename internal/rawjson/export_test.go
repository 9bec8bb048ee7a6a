package rawjson

// Exported for the tests in package rawjson_test, which compare the fast
// scanners with the jsontext-based reference.
var (
	MembersFast      = membersFast
	MembersReference = membersReference
	MembersTrustedOK = membersTrusted
)

// PlainPrefix returns the length of the longest prefix of b that can be
// the inside of a JSON string without ending it or starting an escape
// (no quote, no backslash, no control character): nextStop from 0, which
// StringScan uses to skip plain text.
func PlainPrefix(b []byte) int { return nextStop(b, 0, true) }

// MaxDepth is the deepest nesting the validating scanner accepts.
const MaxDepth = maxDepth
