package transcript_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/gohooks/hook/transcript"
)

func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// FuzzReader: any input reads without a panic, every non-blank line is
// one entry, and a whole entry's Raw is its line.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"testdata/pitfalls.jsonl"} {
		b, err := readFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}]}}\r\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := transcript.NewReader(bytes.NewReader(data))
		rd.SetMaxLine(1 << 10)
		sum := &transcript.Summary{}
		last := 0
		for rd.Next() {
			e := rd.Entry()
			if e.Line <= last {
				t.Fatalf("line %d after %d", e.Line, last)
			}
			last = e.Line
			if e.Err == nil && (len(e.Raw) == 0 || bytes.ContainsAny(e.Raw, "\n")) {
				t.Fatalf("line %d: raw %q", e.Line, e.Raw)
			}
			sum.Add(e)
			e.Text()
			for _, b := range e.ToolResults() {
				b.ResultText()
			}
		}
		if rd.Err() != nil {
			t.Fatal(rd.Err())
		}
		sum.Files()
		sum.LastAssistantText()
		if last > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("%d lines counted in %d", last, bytes.Count(data, []byte("\n"))+1)
		}
	})
}
