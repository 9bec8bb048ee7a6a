package hook

import (
	"fmt"
	"reflect"

	"github.com/gohooks/hook/internal/rawjson"
)

// resultView reports whether t is the typed view of a built-in tool's
// result ([BashResponse], …), or a pointer to one.
func resultView(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[BashResponse](), reflect.TypeFor[WriteResponse](), reflect.TypeFor[EditResponse](),
		reflect.TypeFor[ReadResponse](), reflect.TypeFor[GlobResponse](), reflect.TypeFor[GrepResponse](),
		reflect.TypeFor[WebFetchResponse](), reflect.TypeFor[WebSearchResponse](), reflect.TypeFor[AgentResponse](),
		reflect.TypeFor[NotebookEditResponse](), reflect.TypeFor[TodoWriteResponse](), reflect.TypeFor[ExitPlanModeResponse]():
		return true
	}
	return false
}

// checkCopilotResult refuses the view t of a built-in tool's result on
// raw when raw is the GitHub Copilot CLI's tool_result
// ({"result_type":…,"text_result_for_llm":…}, whatever the tool): it has
// none of the view's fields, so the view would decode to zero values that
// a guard reads as harmless and a redaction finds nothing in.
func checkCopilotResult(fn string, raw []byte, t reflect.Type) error {
	if !resultView(t) {
		return nil
	}
	ms, err := rawjson.Members(raw)
	if err != nil {
		return nil // not an object: the decoding says so
	}
	if _, ok := rawjson.Find(ms, "text_result_for_llm"); !ok {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return fmt.Errorf("hook: %s: %s is a view of Claude Code's result, and this is the GitHub Copilot CLI's tool_result, which has none of its fields: the model reads its text_result_for_llm (change or search it with hook.EditText; Copilot replaces no result, so block to keep a text from the model)", fn, t.Name())
}
