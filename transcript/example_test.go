package transcript_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gohooks/hook/transcript"
)

// A transcript as Claude Code writes it, cut short: one line per content
// block, a line type this package does not know, and a last line the
// client is still writing.
const session = `{"type":"user","uuid":"u1","message":{"role":"user","content":"add a test"}}
{"type":"assistant","uuid":"a1","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"Writing it."}]}}
{"type":"assistant","uuid":"a2","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Write","input":{"file_path":"/home/dev/proj/x_test.go","content":"package x\n"}}]}}
{"type":"tools-used","tools":["Write"]}
{"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"File created"}]}}
{"type":"assistant","uuid":"a3","message":{"id":"msg_2","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"FAIL x","is_error":true}]}}
{"type":"assistant","uuid":"a4","message":{"id":"msg_3","role":"assistant","content":[{"type":"text","text":"The test fai`

func ExampleReader() {
	r := transcript.NewReader(strings.NewReader(session))
	for r.Next() {
		e := r.Entry()
		var le *transcript.LineError
		if errors.As(e.Err, &le) {
			fmt.Println(e.Line, "not read; unfinished:", le.Truncated)
			continue
		}
		switch e.Type {
		case transcript.TypeUser, transcript.TypeAssistant:
			for _, b := range e.Message.Content {
				switch b.Type {
				case "tool_use":
					fmt.Println(e.Line, e.Type, "calls", b.Name, b.ID)
				case "tool_result":
					fmt.Println(e.Line, e.Type, "result of", b.ToolUseID, "error:", b.IsError)
				default:
					fmt.Println(e.Line, e.Type, b.Type)
				}
			}
		default:
			fmt.Println(e.Line, "other:", e.Type)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 user text
	// 2 assistant text
	// 3 assistant calls Write toolu_1
	// 4 other: tools-used
	// 5 user result of toolu_1 error: false
	// 6 assistant calls Bash toolu_2
	// 7 user result of toolu_2 error: true
	// 8 not read; unfinished: true
}

func ExampleSummarize() {
	sum, err := transcript.Summarize(strings.NewReader(session))
	if err != nil {
		panic(err)
	}
	for _, c := range sum.Calls {
		fmt.Printf("%s %s: error %v, %q\n", c.ID, c.Name, c.Result.IsError, c.Result.Text())
	}
	fmt.Println("edited:", sum.Files().Edited)
	fmt.Println("last text:", sum.LastAssistantText())
	fmt.Println("cut while written:", sum.Truncated())
	// Output:
	// toolu_1 Write: error false, "File created"
	// toolu_2 Bash: error true, "FAIL x"
	// edited: [/home/dev/proj/x_test.go]
	// last text: Writing it.
	// cut while written: true
}
