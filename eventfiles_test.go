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
// the protocol table, and that file declares the event's struct.
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
	for _, e := range protocol.Events {
		file, ok := fileOf[e.Name]
		if !assert.True(t, ok, "%s is not listed in events.go", e.Name) {
			continue
		}
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Contains(t, string(b), "\ntype "+e.Name+" struct {", "%s does not declare %s", file, e.Name)
		assert.Contains(t, string(b), "\ntype "+e.Name+"Output struct {", "%s does not declare %sOutput", file, e.Name)
	}
}
