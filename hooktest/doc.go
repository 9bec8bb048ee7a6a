// Package hooktest is the test kit of package hook: it proves that a hook
// loses nothing and answers the way Claude Code accepts. It mirrors hook
// the way net/http/httptest mirrors net/http, with conformance checks in
// the spirit of testing/slogtest.
//
// The pieces:
//   - Fixtures: [Fixtures] and [Payload] give the embedded input payloads
//     of every event of Claude Code 2.1.332, hand-written and recorded from
//     the real CLI; [Answers] gives answers it accepts and rejects.
//   - Builders: [NewPreToolUse], [NewPermissionRequest], [NewPostToolUse]
//     and [NewEvent] build payloads; [WithField], [WithoutField] and
//     [WithToolInputField] change one member and keep every other byte.
//     They panic on bad arguments.
//   - Runners: [Record] runs a [hook.Handler] in-process through
//     [hook.Serve] over real bytes; [RunCommand] and [Command] run any hook
//     program (a Go binary, a bash, node or python script), and [BuildGo]
//     builds a Go hook for them. Both return a [Recorder]: exit code,
//     stdout, stderr, the decoded answer, and the rules it breaks.
//   - Checks: [CheckPreserved] compares an updatedInput with the tool_input
//     byte for byte; [CheckAnswer] checks a whole result against Claude
//     Code's rules and returns one [*Violation] per broken rule.
//   - Property run: [CheckHandler], [CheckCommand] and [RunProperty] put
//     each value of [TrickyValues] into each tool_input member of every
//     PreToolUse and PermissionRequest fixture, run the hook, and check
//     every answer.
//
// A typical test:
//
//	func TestHook(t *testing.T) {
//		hooktest.CheckHandler(t, myHandler())
//
//		r := hooktest.Record(myHandler(), hooktest.NewPreToolUse("Bash", `{"command":"rm -rf /"}`))
//		if r.PermissionDecision != "deny" {
//			t.Errorf("rm -rf / was not denied: %s", r.Stdout)
//		}
//	}
//
// Byte comparison is the point: testify's assert.JSONEq, and any check
// that decodes both sides, treats a rounded big integer, "2.50" rewritten
// as "2.5", rewritten escapes and reordered members as equal, and so
// cannot prove that nothing was lost.
package hooktest
