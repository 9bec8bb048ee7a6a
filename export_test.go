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

// OnSignalsTaken makes Run call f once it has taken over SIGINT and
// SIGTERM (see signalDelay).
func OnSignalsTaken(f func()) { testHookSignalsTaken = f }
