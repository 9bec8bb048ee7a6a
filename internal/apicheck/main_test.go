package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAPI is the listing of testdata/fake: one of each kind of
// declaration, in the Go project's api file form. The internal package
// and the command are not listed.
const fakeAPI = `pkg example.com/fake, const KindA = "a"
pkg example.com/fake, const KindA Kind
pkg example.com/fake, const KindB = "b"
pkg example.com/fake, const KindB Kind
pkg example.com/fake, const Limit = 1048576
pkg example.com/fake, const Limit untyped int
pkg example.com/fake, func Close(*Conn)
pkg example.com/fake, func Map[$0 interface{}, $1 comparable]([]$0, func($0) $1) map[$1]$0
pkg example.com/fake, func Open(context.Context, string, ...Option) (*Conn, error)
pkg example.com/fake, method (*Conn) Write([]byte) (int, error)
pkg example.com/fake, method (*Pair[$0, $1]) Swap($1) $1
pkg example.com/fake, method (Conn) Len() int
pkg example.com/fake, type Alias = Conn
pkg example.com/fake, type Callback = func(string) bool
pkg example.com/fake, type Conn struct
pkg example.com/fake, type Conn struct, Done chan<- struct{}
pkg example.com/fake, type Conn struct, Hidden hidden.T
pkg example.com/fake, type Conn struct, Name string
pkg example.com/fake, type Conn struct, Streams map[string]<-chan []byte
pkg example.com/fake, type Conn struct, embedded io.Reader
pkg example.com/fake, type Handler interface { Close, Serve }
pkg example.com/fake, type Handler interface, Close() error
pkg example.com/fake, type Handler interface, Serve(context.Context, *Conn) error
pkg example.com/fake, type Kind string
pkg example.com/fake, type Number interface { ~int | ~float64 }
pkg example.com/fake, type Option func(*Conn)
pkg example.com/fake, type Pair[$0 comparable, $1 interface{}] struct
pkg example.com/fake, type Pair[$0 comparable, $1 interface{}] struct, Key $0
pkg example.com/fake, type Pair[$0 comparable, $1 interface{}] struct, Val $1
pkg example.com/fake, type Sealed interface { unexported methods }
pkg example.com/fake, var ErrGone error
pkg example.com/fake/sub, const Version = "v1 \"quoted\""
pkg example.com/fake/sub, const Version untyped string
`

// fakeModule copies testdata/fake into a temporary folder the test may
// edit, and returns that folder.
func fakeModule(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fake")
	require.NoError(t, os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "fake"))))
	return dir
}

// apicheck runs the command on dir with args and returns its exit code,
// standard output and standard error.
func apicheck(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"-dir", dir}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// edit replaces old with new in the fake module's fake.go.
func edit(t *testing.T, dir, old, new string) {
	t.Helper()
	path := filepath.Join(dir, "fake.go")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(src), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestListing(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := apicheck(t, filepath.Join("testdata", "fake"), "-list")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, fakeAPI, stdout)
}

// released sets up a fake module whose api/v0.1.0.txt is its listing.
func released(t *testing.T) string {
	t.Helper()
	dir := fakeModule(t)
	code, stdout, stderr := apicheck(t, dir, "-release", "v0.1.0")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote api/v0.1.0.txt (33 lines)")
	assert.Equal(t, fakeAPI, readFile(t, filepath.Join(dir, "api", "v0.1.0.txt")))
	assert.Equal(t, "", readFile(t, filepath.Join(dir, "api", "next.txt")))
	code, _, stderr = apicheck(t, dir)
	require.Equal(t, 0, code, stderr)
	return dir
}

func TestCheckFailsOnRemovedName(t *testing.T) {
	t.Parallel()
	dir := released(t)
	edit(t, dir, "func Close(c *Conn) {}", "")
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "released API removed or changed")
	assert.Contains(t, stderr, "\n-pkg example.com/fake, func Close(*Conn)\n")
	assert.NotContains(t, stderr, "+pkg", "nothing was added")
}

func TestCheckFailsOnRemovedMethodAndField(t *testing.T) {
	t.Parallel()
	dir := released(t)
	edit(t, dir, "func (c Conn) Len() int { return 0 }", "")
	edit(t, dir, "\tName    string\n", "")
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "\n-pkg example.com/fake, method (Conn) Len() int\n")
	assert.Contains(t, stderr, "\n-pkg example.com/fake, type Conn struct, Name string\n")
}

func TestCheckFailsOnChangedSignature(t *testing.T) {
	t.Parallel()
	dir := released(t)
	edit(t, dir, "func Open(ctx context.Context, name string, opts ...Option)", "func Open(ctx context.Context, name string, mode int, opts ...Option)")
	edit(t, dir, `KindB Kind = "b"`, `KindB Kind = "B"`)
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "\n-pkg example.com/fake, func Open(context.Context, string, ...Option) (*Conn, error)\n")
	assert.Contains(t, stderr, "\n+pkg example.com/fake, func Open(context.Context, string, int, ...Option) (*Conn, error)\n")
	assert.Contains(t, stderr, "\n-pkg example.com/fake, const KindB = \"b\"\n")
}

func TestUnexportedChangesPass(t *testing.T) {
	t.Parallel()
	dir := released(t)
	edit(t, dir, "func (c *Conn) unexported() {}", "func (c *Conn) unexported(int) {}\n\nfunc helper() {}")
	edit(t, dir, "Open(ctx context.Context, name string,", "Open(c context.Context, file string,")
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 0, code, "parameter names and unexported names are not API: %s", stderr)
}

func TestAdditionGoesToNext(t *testing.T) {
	t.Parallel()
	dir := released(t)
	edit(t, dir, "type unexportedType", "// Added is new.\nfunc Added() {}\n\ntype unexportedType")
	const added = "pkg example.com/fake, func Added()"

	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code, "a new name in no file fails")
	assert.Contains(t, stderr, "new API that api/next.txt does not list")
	assert.Contains(t, stderr, "\n+"+added+"\n")

	code, stdout, stderr := apicheck(t, dir, "-next")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "wrote api/next.txt (1 lines)")
	assert.Equal(t, added+"\n", readFile(t, filepath.Join(dir, "api", "next.txt")))
	code, _, stderr = apicheck(t, dir)
	assert.Equal(t, 0, code, stderr)

	// The next release takes next.txt's lines; the earlier file stays.
	code, _, stderr = apicheck(t, dir, "-release", "v0.2.0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, added+"\n", readFile(t, filepath.Join(dir, "api", "v0.2.0.txt")))
	assert.Equal(t, "", readFile(t, filepath.Join(dir, "api", "next.txt")))
	assert.Equal(t, fakeAPI, readFile(t, filepath.Join(dir, "api", "v0.1.0.txt")))

	// Removing it now breaks the v0.2.0 promise.
	edit(t, dir, "func Added() {}", "")
	code, _, stderr = apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "\n-"+added+"\n")
}

func TestStaleNextFails(t *testing.T) {
	t.Parallel()
	dir := released(t)
	stale := "pkg example.com/fake, func Gone()"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "api", "next.txt"), []byte(stale+"\n"), 0o644))
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "api/next.txt lists lines the API does not have")
	assert.Contains(t, stderr, stale)
}

func TestNoReleasedFileFails(t *testing.T) {
	t.Parallel()
	dir := fakeModule(t)
	code, _, stderr := apicheck(t, dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no released listing")
}

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-release", "latest"},
		{"-next", "-release", "v0.2.0"},
		{"extra"},
		{"-nope"},
	} {
		code, _, _ := apicheck(t, ".", args...)
		assert.Equal(t, 2, code, "%q", args)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	released := map[string]bool{"a": true, "b": true}
	v := compare([]string{"a", "c", "d"}, released, []string{"c", "e"})
	assert.Equal(t, []string{"b"}, v.Removed)
	assert.Equal(t, []string{"d"}, v.Unlisted)
	assert.Equal(t, []string{"e"}, v.Stale)
	assert.False(t, v.ok())
	assert.True(t, compare([]string{"a", "b", "c"}, released, []string{"c"}).ok())
}
