package hook

import "github.com/go-json-experiment/json/jsontext"

// EventPostToolBatch fires once after every call of a parallel batch
// resolved.
const EventPostToolBatch = "PostToolBatch"

// PostToolBatch fires once after every tool call of a parallel batch has
// resolved, before the next request to the model. It has no matcher. The
// answer can add context once for the whole batch, or stop the agentic
// loop (see [PostToolBatchOutput]); exit code 2 ([Block]) stops the loop
// too, with stderr as the message.
type PostToolBatch struct {
	Event
	// ToolCalls are the batch's calls, in order. Calls refused by the
	// permission system are included, with the refusal text as their
	// response. The raw array is reachable with Field("tool_calls").
	ToolCalls []ToolCall `json:"tool_calls"`
}

// ToolCall is one call of a [PostToolBatch].
type ToolCall struct {
	// ToolName is the tool's current name, or "mcp__<server>__<tool>".
	ToolName string `json:"tool_name"`
	// ToolInput is the raw input the model produced, byte for byte:
	// unlike PreToolUse's, it is not normalised (relative paths, no
	// defaults filled in, the model's member order).
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolUseID is the call's id ("toolu_…").
	ToolUseID string `json:"tool_use_id"`
	// ToolResponse is what the model saw as the result, byte for byte: a
	// JSON string (e.g. "1\tline…" for Read) or an array of content
	// blocks (decode it with [DecodeView] into []ContentBlock), not the
	// structured output PostToolUse receives. Nil when absent.
	ToolResponse jsontext.Value `json:"tool_response,omitzero"`
}

// PostToolBatchOutput is the answer to a [PostToolBatch] event. All the
// common fields are honoured; Halt also stops the loop.
type PostToolBatchOutput struct {
	Common

	// Block writes "decision": "block": the agentic loop stops before the
	// next model call, and Reason is shown as a warning and kept in the
	// conversation.
	Block bool
	// Reason is the message of the block; it needs Block.
	Reason string
	// AdditionalContext is added once for the whole batch, next to the
	// tool results.
	AdditionalContext string
}
