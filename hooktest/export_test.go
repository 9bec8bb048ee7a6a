package hooktest

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/gohooks/hook/internal/protocol"
)

// The embedded answers test CheckAnswer; no hook outside the module needs
// them, so they are exported to the package's own tests only.

// AnswerFixture is one embedded hook answer: what a hook prints on stdout.
type AnswerFixture struct {
	// Name is the file's path below the fixture set without its extension,
	// e.g. "outputs/pretooluse-allow" or
	// "outputs/invalid/null-systemmessage".
	Name string
	// Event is the event the answer is written for, or "" for answers any
	// event takes (such as a systemMessage alone). The answers under
	// outputs/invalid/ were checked as PreToolUse answers, except the
	// PermissionRequest one.
	Event string
	// Stdout is the answer, byte for byte as stored (pretty-printed JSON,
	// or plain text).
	Stdout []byte
	// Valid is true for answers a command hook may print, with exit code 0,
	// for Event; false for the answers under outputs/invalid/ and for
	// answers only HTTP hooks may give.
	Valid bool
}

// Answers returns every embedded answer, sorted by name; each call
// returns new copies. CheckAnswer accepts exactly the valid ones.
func Answers() []AnswerFixture {
	files, _ := fs.Glob(fixtureFS, "fixtures/outputs/*")
	inv, _ := fs.Glob(fixtureFS, "fixtures/outputs/invalid/*")
	files = append(files, inv...)
	slices.Sort(files)
	var out []AnswerFixture
	for _, f := range files {
		if !strings.HasSuffix(f, ".json") && !strings.HasSuffix(f, ".txt") {
			continue
		}
		b, err := fixtureFS.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		name := strings.TrimPrefix(f, "fixtures/")
		name = name[:len(name)-len(path.Ext(name))]
		base := path.Base(name)
		a := AnswerFixture{Name: name, Stdout: b, Valid: !strings.HasPrefix(name, "outputs/invalid/")}
		switch {
		case !a.Valid && strings.HasPrefix(base, "permissionrequest-"):
			a.Event = "PermissionRequest"
		case !a.Valid:
			a.Event = "PreToolUse"
		case strings.HasPrefix(base, "plaintext-"):
			a.Event = "UserPromptSubmit"
		default:
			prefix, _, _ := strings.Cut(base, "-")
			a.Event = eventByLowerName()[prefix]
		}
		if base == "worktreecreate-http" {
			a.Valid = false // HTTP hooks only: a command hook's JSON is not read
		}
		out = append(out, a)
	}
	return out
}

// eventByLowerName maps lower-case event names to their spelling.
var eventByLowerName = sync.OnceValue(func() map[string]string {
	events := protocol.Names()
	m := make(map[string]string, len(events))
	for _, e := range events {
		m[strings.ToLower(e)] = e
	}
	return m
})
