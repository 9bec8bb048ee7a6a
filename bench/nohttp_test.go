package bench_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCommandHooksDoNotLinkNetHTTP checks that the library's packages, and
// so every command hook, leave out net/http and log/slog: linking them
// adds about 2 MB and 47 package initialisations to every hook binary,
// most of a millisecond on each start. HTTP hooks live in package
// hookhttp, which only an http server imports.
func TestCommandHooksDoNotLinkNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "..", "../examples/fingerprint").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/gohooks/hook")
	for _, heavy := range []string{"net/http", "log/slog", "net", "crypto/tls", "github.com/gohooks/hook/hookhttp"} {
		assert.NotContains(t, deps, heavy)
	}
	out, err = exec.Command("go", "list", "-deps", "../hookhttp").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, strings.Fields(string(out)), "net/http", "the check looks at the right list")
}
