// Package hooktest is the test kit of package hook: it proves that a hook
// loses nothing and answers the way Claude Code accepts. It mirrors hook
// the way net/http/httptest mirrors net/http, with conformance checks in
// the spirit of testing/slogtest.
//
// The pieces:
//   - Fixtures: [Fixtures] and [Payload] give the embedded input payloads
//     of every event of Claude Code 2.1.336, hand-written and recorded from
//     the real CLI ([CheckAnswer] is tested on embedded answers the client
//     accepts and rejects); [CodexFixtures] gives the OpenAI Codex CLI's,
//     which [Payload] finds by their names too.
//   - Builders: [NewPreToolUse], [NewPermissionRequest], [NewPostToolUse]
//     and [NewEvent] build payloads, [NewCodexPreToolUse],
//     [NewCodexPermissionRequest], [NewCodexPostToolUse] and
//     [NewCodexEvent] Codex's; [WithField], [WithoutField] and
//     [WithToolInputField] change one member and keep every other byte.
//     They panic on bad arguments.
//   - Runners: [Record] runs a [hook.Handler] in-process through
//     [hook.Serve] over real bytes; [Command] runs any hook
//     program (a Go binary, a bash, node or python script), and [BuildGo]
//     builds a Go hook for it. Both return a [Recorder]: exit code,
//     stdout, stderr, the decoded answer, and the rules it breaks.
//   - Checks: [CheckPreserved] compares an updatedInput with the tool_input
//     byte for byte; [CheckSameValue] compares them as Claude Code reads
//     them; [CheckAnswer] checks a whole result against Claude Code's
//     rules and returns one [*Violation] per broken rule.
//   - Property run: [CheckHandler], [CheckCommand] and [RunProperty] put
//     each value of [TrickyValues] into each tool_input member of every
//     PreToolUse and PermissionRequest fixture, and of the calls [Options.Tools]
//     adds, run the hook, and check every answer. A run in which the hook
//     answered no case fails: it tested nothing.
//
// A typical test, for a hook of its own MCP tool (which no fixture calls):
//
//	func TestHook(t *testing.T) {
//		hooktest.CheckHandler(t, myHandler(), &hooktest.Options{
//			Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: `{"room":"lobby","seats":4}`}},
//		})
//
//		r := hooktest.Record(myHandler(), hooktest.NewPreToolUse("Bash", `{"command":"rm -rf /"}`))
//		if r.PermissionDecision != hook.Deny {
//			t.Errorf("rm -rf / was not denied: %s", r.Stdout)
//		}
//	}
//
// Two meanings of "kept". A hook built with this library keeps the bytes
// of what it does not change: [CheckPreserved] and [CheckHandler] (which
// implies [Options.Exact]) hold it to that. A hook in another language is judged
// as Claude Code reads its answer ([CheckSameValue], [CheckCommand],
// hookcheck): a lost or changed member fails, a respelled one (\u00e9 for
// é) is a note, and the values Claude Code can never send (see
// [Tricky.Sendable]) form a tier that fails only with [Options.Strict]. Either way
// the check reads the bytes itself: testify's assert.JSONEq, and any check
// that decodes both sides into Go values, treats a lone surrogate turned
// into U+FFFD, a rounded big integer and rewritten escapes as equal, and
// so cannot prove that nothing was lost.
package hooktest
