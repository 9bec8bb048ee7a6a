package rawjson

// Exported for the tests in package rawjson_test, which compare the fast
// scanners with the jsontext-based reference.
var (
	MembersFast      = membersFast
	MembersReference = membersReference
	MembersTrustedOK = membersTrusted
)

// MaxDepth is the deepest nesting the validating scanner accepts.
const MaxDepth = maxDepth
