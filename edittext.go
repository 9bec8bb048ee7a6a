package hook

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/inputedit"
)

// ErrNoTexts is the error, tested with [errors.Is], of [EditText] given
// an object result whose texts it does not know: one with neither a
// "content" array of content blocks nor a structuredContent (nor a
// "text_result_for_llm" string), such as a built-in tool's result
// ({"stdout":…} of Bash). A hook registered for every tool can leave such a
// result alone, or change it with [Edit] and the tool's typed view.
var ErrNoTexts = inputedit.ErrNoTexts

// EditText calls edit with every text of the tool result orig, in order,
// and returns orig with exactly the texts that edit changed replaced:
// every other byte, whitespace and escapes included, is orig's. It is the
// one way to rewrite what the model reads of a result whatever its shape,
// as a redaction hook does:
//
//	out, err := hook.EditText(e.ToolResponse, func(s string) (string, error) {
//		return secret.ReplaceAllString(s, "[redacted]"), nil
//	})
//	return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
//
// The texts of orig are, by its shape:
//
//   - a JSON string (a text result; the shell output that Codex sends):
//     the string;
//   - an array of content blocks (an MCP tool's result in Claude Code):
//     the "text" of each text block ({"type":"text","text":…}) and of
//     each embedded text resource ({"type":"resource","resource":
//     {"text":…}}); image, audio and link blocks, and every other
//     member, are left alone;
//   - an object with a "content" array of blocks (an MCP tool's result
//     under Codex, the Agent tool's result): the texts of those blocks,
//     and, when it has a structuredContent that is not null, every string
//     value in it at any depth (names are kept): Codex shows the model
//     the structured content in place of the blocks;
//   - an object with a "text_result_for_llm" string (the GitHub Copilot
//     CLI's tool_result, of any tool): that string, the one its model
//     reads. Copilot replaces no result, so an answer that rewrites it is
//     refused; a hook that finds what it looks for blocks instead;
//   - null, a number or a boolean: none.
//
// An object with none of these, such as a built-in tool's result
// ({"stdout":…} of Bash), is refused: which of its strings the model
// reads as text depends on the tool, so change it with [Edit] and its
// typed view ([BashResponse], [ReadResponse], …); the error is then
// [ErrNoTexts].
//
// edit gets each text decoded (an escape such as \u00e9 as its character,
// a lone surrogate as U+FFFD); a text it returns unchanged keeps its
// bytes, and a changed one is written as a JSON string. When edit changes
// nothing, EditText returns orig itself, less the whitespace around it,
// which an answer leaves out: a no-op edit is no answer. If edit returns
// an error, EditText returns it.
func EditText(orig jsontext.Value, edit func(text string) (string, error)) (jsontext.Value, error) {
	if err := checkEditable("EditText", orig); err != nil {
		return nil, err
	}
	if edit == nil {
		return nil, errors.New("hook: EditText: the edit function is nil")
	}
	var editErr error
	out, err := inputedit.EditTexts(bytes.TrimSpace(orig), func(s string) (string, error) {
		r, err := edit(s)
		editErr = err
		return r, err
	})
	switch {
	case editErr != nil:
		return nil, editErr // the handler's own error, as it is
	case err != nil:
		return nil, fmt.Errorf("hook: EditText: %w", err)
	}
	out = append(jsontext.Value(nil), out...)
	noteBuilt(orig, out) // see chainown.go
	return out, nil
}
