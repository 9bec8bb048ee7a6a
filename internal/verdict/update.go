package verdict

// Update is the kind of rewrite an answer carries, for [Counts.Add]: none,
// one that holds the very value it replaces, or a real one.
type Update int

const (
	// NoUpdate: the answer carries no updatedInput (nor, for
	// PostToolUse, updatedToolOutput).
	NoUpdate Update = iota
	// SameUpdate: the answer carries one that holds the value it replaces
	// (see [Rewrite]). It updates nothing, yet Claude Code applies it:
	// the rewrites of hooks that run in parallel are applied last-wins,
	// so such an answer can undo another hook's real rewrite.
	SameUpdate
	// RealUpdate: the answer replaces the value with another.
	RealUpdate
)

// Rewrite returns the kind of update of out, the updatedInput (or
// updatedToolOutput) of an answer, nil when it has none, given in, the
// value it replaces (the tool_input, or the tool_response), nil when the
// payload had none. out holds in when it is the same bytes once
// whitespace is dropped (what a hook built with the library copies), or,
// with js set, the same JavaScript value as JSON.parse reads it (how
// Claude Code reads a hook in any language: members reordered or
// respelled are the same value).
func Rewrite(in, out []byte, js bool) Update {
	switch {
	case out == nil:
		return NoUpdate
	case in != nil && (SameBytes(in, out) || js && SameValue(in, out)):
		return SameUpdate
	}
	return RealUpdate
}
