package hook

// MaxInputDepth exposes maxInputDepth to the external tests.
const MaxInputDepth = maxInputDepth
