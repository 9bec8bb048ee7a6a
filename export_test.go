package hook

// MaxInputDepth exposes maxInputDepth to the external tests.
const MaxInputDepth = maxInputDepth

// Exposed to the external tests, which check the library against the
// event facts the package keeps unexported.
var (
	CanBlock   = canBlock
	KnownEvent = knownEvent
	Events     = eventNames
)
