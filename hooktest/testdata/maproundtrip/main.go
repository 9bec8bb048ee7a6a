// Command maproundtrip is a known-bad PreToolUse hook: it adds a
// fingerprint by decoding tool_input into a map[string]any and encoding
// it again with encoding/json. That rounds big integers, rewrites 2.50 as
// 2.5, rewrites escapes and sorts the members.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	var in struct {
		Event     string         `json:"hook_event_name"`
		ToolInput map[string]any `json:"tool_input"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "maproundtrip:", err)
		os.Exit(1)
	}
	if in.Event != "PreToolUse" || in.ToolInput == nil {
		return
	}
	in.ToolInput["fingerprint"] = "0123456789abcdef"
	out := map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":      "PreToolUse",
		"permissionDecision": "allow",
		"updatedInput":       in.ToolInput,
	}}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "maproundtrip:", err)
		os.Exit(1)
	}
}
