// Command nullfield is a known-bad PreToolUse hook: its answer struct has
// no omitempty, so fields it does not set are written as null, and Claude
// Code rejects the whole answer.
package main

import (
	"encoding/json"
	"io"
	"os"
)

type specific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
}

type answer struct {
	SystemMessage      *string   `json:"systemMessage"`
	HookSpecificOutput *specific `json:"hookSpecificOutput"`
}

func main() {
	io.Copy(io.Discard, os.Stdin)
	json.NewEncoder(os.Stdout).Encode(answer{HookSpecificOutput: &specific{
		HookEventName:      "PreToolUse",
		PermissionDecision: "allow",
	}})
}
