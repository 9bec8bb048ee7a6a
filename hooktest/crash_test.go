package hooktest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// TestExit2QuotingACrashIsABlock runs hooks that block with exit code 2
// and a reason that quotes a crash — what a feedback hook does with test
// output — in Go, Python, Node.js and the shell: Claude Code blocks the
// call with the reason, and none of them crashed. The real crashes of the
// same languages are told apart: a Go panic exits 2 with the runtime's
// report alone, Python and Node.js exit 1.
func TestExit2QuotingACrashIsABlock(t *testing.T) {
	in := hooktest.Payload("pretooluse-bash")
	goQuote := "tests fail, fix them first:\npanic: runtime error: index out of range [3] with length 0\n\ngoroutine 7 [running]:\nexample.com/app.TestRooms(0xc000102340)\n\t/src/app/rooms_test.go:12 +0x1d\nFAIL\texample.com/app\t0.012s\n"
	pyQuote := "pytest failed:\nTraceback (most recent call last):\n  File \"test_rooms.py\", line 3, in test_room\nKeyError: 'room'\n"
	nodeQuote := "npm test failed:\nTypeError: Cannot read properties of undefined (reading 'room')\n    at Object.<anonymous> (/src/rooms.test.js:3:22)\n    at Module._compile (node:internal/modules/cjs/loader:1554:14)\n"
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	blocks := func(t *testing.T, r *hooktest.Recorder) {
		t.Helper()
		assert.Equal(t, 2, r.Code, "%s", r.Stderr)
		assert.NoError(t, r.Err(), "a block with a reason that quotes a crash is no crash")
		assert.False(t, r.FailsOpen(), "exit 2 blocks")
	}

	t.Run("shell", func(t *testing.T) {
		needs(t, "sh") // Windows has none
		for _, quote := range []string{goQuote, pyQuote, nodeQuote} {
			r := run(t, in, "sh", write("block.sh", "cat >/dev/null\ncat >&2 <<'EOF'\n"+quote+"EOF\nexit 2\n"))
			blocks(t, r)
			assert.Empty(t, r.Notes)
		}
	})
	t.Run("go", func(t *testing.T) {
		bin := hooktest.BuildGo(t, "./testdata/quotepanic")
		r := run(t, in, bin)
		blocks(t, r)
		assert.Contains(t, string(r.Stderr), "goroutine 1 [running]:", "the reason quotes a real panic")
		// It ends with the panic, as a crash would after text of the
		// hook's own: a note, not a failure.
		require.Len(t, r.Notes, 1)
		assert.ErrorContains(t, r.Notes[0], "ends with a Go crash report")
		assert.ErrorContains(t, r.Notes[0], hooktest.NoteCrashReason)

		// The real crash: exit 2 and the runtime's report alone.
		crash := run(t, in, hooktest.BuildGo(t, "./testdata/crash"))
		require.Equal(t, 2, crash.Code)
		require.Len(t, problems(t, crash), 1)
		assert.Equal(t, hooktest.RuleCrash, problems(t, crash)[0].Rule)
	})
	t.Run("python", func(t *testing.T) {
		needs(t, "python3")
		r := run(t, in, "python3", write("block.py", "import sys, traceback\nsys.stdin.read()\ntry:\n    {}['room']\nexcept KeyError:\n    sys.stderr.write('the room check failed:\\n' + traceback.format_exc())\nsys.exit(2)\n"))
		blocks(t, r)
		assert.Contains(t, string(r.Stderr), "Traceback (most recent call last):")
		crash := run(t, in, "python3", write("crash.py", "import sys\nsys.stdin.read()\n{}['room']\n"))
		assert.Equal(t, 1, crash.Code)
		require.NotEmpty(t, problems(t, crash))
		assert.Equal(t, hooktest.RuleCrash, problems(t, crash)[0].Rule)
		assert.True(t, crash.FailsOpen())
	})
	t.Run("node", func(t *testing.T) {
		needs(t, "node")
		r := run(t, in, "node", write("block.js", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{try{undefined.room}catch(e){process.stderr.write('tests fail:\\n'+e.stack+'\\n');process.exit(2)}})\n"))
		blocks(t, r)
		assert.Contains(t, string(r.Stderr), "    at ")
		crash := run(t, in, "node", write("crash.js", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{undefined.room})\n"))
		assert.Equal(t, 1, crash.Code)
		require.NotEmpty(t, problems(t, crash))
		assert.Equal(t, hooktest.RuleCrash, problems(t, crash)[0].Rule)
	})
	t.Run("shell syntax error", func(t *testing.T) {
		needs(t, "bash")
		r := run(t, in, "bash", write("broken.sh", "cat >/dev/null\nif [ -n x ; then echo\n"))
		require.Equal(t, 2, r.Code, "bash exits 2 on a syntax error, which blocks")
		assert.NoError(t, r.Err())
		require.Len(t, r.Notes, 1, "%s", r.Stderr)
		assert.ErrorContains(t, r.Notes[0], "failing to run")
	})
}
