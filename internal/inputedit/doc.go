// Package inputedit is the byte engine behind a tool-input rewrite: the
// member merge behind hook.Merge, the typed diff behind hook.Update and
// hook.Edit (of a JSON value of any kind, a tool's result too), the text
// splicer behind hook.EditText (text.go), and the vouching that keeps a
// large input from being validated again and again, with the splicing
// that writes a vouched Merge result into the answer without copying it
// (see vouch.go and splice.go).
//
// The root package keeps the API and the glue of one call: an
// invocation embeds a [Vouching], Merge and the answer checks go through
// it, and Serve writes a [Spliced] value after the answer's head. Nothing
// here knows an event; where a rule needs one (is this rewrite the input
// as the client has it?) the caller says so with a function.
package inputedit
