package hook

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
)

// TestEventFilesListed: events.go's list names the file of every event in
// the protocol table; that file declares the event's name constant, its
// struct and its answer, and holds the answer's methods unless the table
// generates them.
func TestEventFilesListed(t *testing.T) {
	src, err := os.ReadFile("events.go")
	require.NoError(t, err)
	line := regexp.MustCompile(`(?m)^//\t(\w+\.go) +(.+)$`)
	fileOf := map[string]string{}
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		for _, name := range strings.Split(m[2], ", ") {
			fileOf[name] = m[1]
		}
	}
	require.Len(t, fileOf, len(protocol.Events))
	types, err := protocol.ReadTypes(".")
	require.NoError(t, err)
	schemaFile := map[string]string{}
	for _, typ := range types {
		schemaFile[typ.Name] = typ.File
	}
	consts, err := protocol.ReadConsts(".")
	require.NoError(t, err)
	constFile := map[string]string{}
	for _, c := range consts {
		constFile[c.Name] = c.File
	}
	for _, e := range protocol.Events {
		file, ok := fileOf[e.Name]
		if !assert.True(t, ok, "%s is not listed in events.go", e.Name) {
			continue
		}
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, file, constFile["Event"+e.Name], "the file that declares Event%s", e.Name)
		assert.Equal(t, file, schemaFile[e.Name], "the file that declares %s", e.Name)
		assert.Equal(t, file, schemaFile[e.Name+"Output"], "the file that declares %sOutput", e.Name)
		// The answer's own methods are in its file, unless its row says
		// its fields decide them (then they are generated).
		own := e.Answer == protocol.AnswerOwn
		assert.Equal(t, own, strings.Contains(string(b), "\nfunc (o *"+e.Name+"Output) appendForm("), "%s holds %sOutput's appendForm", file, e.Name)
		assert.Equal(t, own, strings.Contains(string(b), "\nfunc (a *"+e.Name+"Output) join("), "%s holds %sOutput's join", file, e.Name)
	}
}
