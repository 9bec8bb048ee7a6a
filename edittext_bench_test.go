package hook_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// benchResult is an MCP result of n text blocks of size bytes each, one
// of which holds a secret.
func benchResult(n, size int) jsontext.Value {
	blocks := make([]string, n)
	for i := range blocks {
		text := strings.Repeat("lorem ipsum ", size/12)
		if i == n/2 {
			text += "sk-live-9f3a"
		}
		blocks[i] = `{"type":"text","text":"` + text + `","annotations":{"priority":0.5}}`
	}
	return jsontext.Value("[" + strings.Join(blocks, ",") + "]")
}

func benchEditText(b *testing.B, orig jsontext.Value) {
	b.SetBytes(int64(len(orig)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hook.EditText(orig, redactText); err != nil {
			b.Fatal(err)
		}
	}
}

func benchEditBlocks(b *testing.B, orig jsontext.Value) {
	b.SetBytes(int64(len(orig)))
	b.ReportAllocs()
	for b.Loop() {
		_, err := hook.Edit(orig, func(bs *[]hook.ContentBlock) error {
			for i := range *bs {
				(*bs)[i].Text, _ = redactText((*bs)[i].Text)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// A typical MCP result: three blocks of a few hundred bytes.
func BenchmarkEditTextSmall(b *testing.B)   { benchEditText(b, benchResult(3, 300)) }
func BenchmarkEditBlocksSmall(b *testing.B) { benchEditBlocks(b, benchResult(3, 300)) }

// A large one: 64 blocks of 16 KB.
func BenchmarkEditTextLarge(b *testing.B)   { benchEditText(b, benchResult(64, 16<<10)) }
func BenchmarkEditBlocksLarge(b *testing.B) { benchEditBlocks(b, benchResult(64, 16<<10)) }
