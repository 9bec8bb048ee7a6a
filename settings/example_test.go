package settings_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gohooks/hook/settings"
)

// Add registers a handler in the file's own layout, touching nothing
// else; Remove takes it out again, byte for byte.
func ExampleAdd() {
	orig := []byte("{\n\t\"model\": \"opus\",\n\t\"big\": 12345678901234567890\n}\n")
	e := settings.Entry{Event: "PreToolUse", Matcher: "Bash", Handler: settings.Handler{
		Command: "/usr/local/bin/bashguard", Args: []string{"--strict"}, Timeout: 10,
	}}
	out, changed, err := settings.Add(orig, e)
	if err != nil {
		panic(err)
	}
	fmt.Printf("changed: %v\n%s", changed, out)
	_, again, _ := settings.Add(out, e)
	fmt.Println("changed again:", again)
	back, n, _ := settings.Remove(out, e)
	fmt.Println("removed:", n, "original restored:", string(back) == string(orig))
	// Output:
	// changed: true
	// {
	// 	"model": "opus",
	// 	"big": 12345678901234567890,
	// 	"hooks": {
	// 		"PreToolUse": [
	// 			{
	// 				"matcher": "Bash",
	// 				"hooks": [
	// 					{
	// 						"type": "command",
	// 						"command": "/usr/local/bin/bashguard",
	// 						"args": [
	// 							"--strict"
	// 						],
	// 						"timeout": 10
	// 					}
	// 				]
	// 			}
	// 		]
	// 	}
	// }
	// changed again: false
	// removed: 1 original restored: true
}

// Parse lists the handlers of a file with their positions, and refuses
// what Claude Code cannot read with a line and column.
func ExampleParse() {
	hs, _ := settings.Parse([]byte(`{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "say done", "timeout": 5}
]}]}}`))
	for _, h := range hs {
		fmt.Printf("%d:%d %s %q timeout %gs\n", h.Line, h.Column, h.Event, h.Handler.String(), h.Handler.Timeout)
	}
	_, err := settings.Parse([]byte("{\n  \"hooks\": {}, // mine\n}"))
	var se *settings.SyntaxError
	if errors.As(err, &se) {
		fmt.Printf("%d:%d %s\n", se.Line, se.Column, se.Msg[:strings.Index(se.Msg, ":")])
	}
	// Output:
	// 2:3 Stop "say done" timeout 5s
	// 2:16 comments are not JSON (Claude Code reads settings with JSON.parse)
}
