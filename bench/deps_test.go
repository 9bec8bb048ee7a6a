package bench_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandHookNeverLinks are the packages a command hook must not link:
// net/http and crypto/tls cost it start-up time (their package variables
// and init functions run on every tool call), and runtime/cgo, which
// net's resolver brings where a C compiler is installed, makes the binary
// dynamically linked against the build machine's C library. The http
// hooks live in package hookhttp for that reason.
var commandHookNeverLinks = []string{"net/http", "crypto/tls", "runtime/cgo", "net"}

// TestCommandHookLinksNoNetHTTP lists what examples/fingerprint, a
// command hook built from package hook alone, links.
func TestCommandHookLinksNoNetHTTP(t *testing.T) {
	for _, env := range [][]string{nil, {"CGO_ENABLED=1"}, {"CGO_ENABLED=0"}} {
		cmd := exec.Command("go", "list", "-deps", "../examples/fingerprint")
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		deps := strings.Fields(string(out))
		require.Contains(t, deps, "github.com/gohooks/hook", "the list is of a hook")
		for _, p := range commandHookNeverLinks {
			assert.NotContains(t, deps, p, "examples/fingerprint links %s (env %v)", p, env)
		}
	}
}

// TestHookHTTPLinksNetHTTP keeps the check above honest: the same listing
// of package hookhttp finds net/http.
func TestHookHTTPLinksNetHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../hookhttp").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, strings.Fields(string(out)), "net/http")
}
