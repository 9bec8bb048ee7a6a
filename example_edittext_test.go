package hook_test

import (
	"fmt"
	"regexp"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// EditText changes the texts of an MCP result and keeps every other
// block and member as it came.
func ExampleEditText() {
	secret := regexp.MustCompile(`sk-live-[0-9A-Za-z]+`)
	result := jsontext.Value(`[{"type":"text","text":"key: sk-live-4eC39H","annotations":{"priority":0.50}},{"type":"image","data":"iVBORw0K","mimeType":"image/png"}]`)
	out, err := hook.EditText(result, func(s string) (string, error) {
		return secret.ReplaceAllString(s, "[redacted]"), nil
	})
	fmt.Println(string(out), err)
	// Output:
	// [{"type":"text","text":"key: [redacted]","annotations":{"priority":0.50}},{"type":"image","data":"iVBORw0K","mimeType":"image/png"}] <nil>
}

// Edit takes an MCP result's array of content blocks with
// []hook.ContentBlock: the block the edit changed keeps its unknown
// members, the others their bytes.
func ExampleEdit_contentBlocks() {
	result := jsontext.Value(`[{"type":"text","text":"3 rows","_meta":{"id":7}},{"type":"text","text":"done"}]`)
	out, err := hook.Edit(result, func(bs *[]hook.ContentBlock) error {
		(*bs)[0].Text = "3 rows (cached)"
		return nil
	})
	fmt.Println(string(out), err)
	// Output:
	// [{"type":"text","text":"3 rows (cached)","_meta":{"id":7}},{"type":"text","text":"done"}] <nil>
}
