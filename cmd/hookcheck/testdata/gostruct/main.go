// Command gostruct keeps only the members it knows: it decodes the
// tool_input of PreToolUse calls of listen_here into a struct with encoding/json and
// encodes it again. Every value of room and seats survives, so the
// fixtures' own members pass; a member of another name (seat-count) is
// lost, and "Room" lands in the room field (encoding/json matches names
// without regard to case, the last one wins).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

type payload struct {
	Event     string          `json:"hook_event_name"`
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
}

type input struct {
	Room  json.RawMessage `json:"room"`
	Seats json.RawMessage `json:"seats,omitempty"`
}

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var p payload
	if err := json.Unmarshal(b, &p); err != nil || p.Event != "PreToolUse" || !strings.HasSuffix(p.ToolName, "__listen_here") {
		return
	}
	var in input
	if err := json.Unmarshal(p.ToolInput, &in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": in}})
	if err != nil {
		os.Exit(1)
	}
	os.Stdout.Write(append(out, '\n'))
}
