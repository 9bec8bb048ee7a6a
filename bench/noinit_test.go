// Package bench_test checks that the hook library does no work when a hook
// starts: a hook runs once per tool call, so every microsecond spent
// initialising packages is paid on every call.
package bench_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linked are the directories, relative to this one, of the packages that
// every hook links: their package-level variables are initialised when a
// hook starts.
var linked = []string{"..", "../internal/rawjson", "../internal/wire", "../internal/jsonopts", "../internal/shell"}

// cheapInit are the functions a package-level variable of a linked
// package may call in its initialiser: each returns at once, without
// building anything large. Anything else (regexp.MustCompile,
// strings.NewReplacer, template.Must, a function of the package itself, …)
// belongs in a function called when needed, or behind sync.OnceValue.
var cheapInit = map[string]bool{
	"errors.New":                     true,
	"reflect.TypeFor":                true,
	"sync.OnceValue":                 true,
	"sync.OnceValues":                true,
	"sync.OnceFunc":                  true,
	"jsontext.Value":                 true, // a conversion
	"jsontext.AllowInvalidUTF8":      true,
	"jsontext.AllowDuplicateNames":   true,
	"jsontext.PreserveRawStrings":    true,
	"json.JoinOptions":               true,
	"json.MatchCaseInsensitiveNames": true,
	"json.FormatNilSliceAsNull":      true,
	"json.FormatNilMapAsNull":        true,
	"json.Deterministic":             true,
	"json.DiscardUnknownMembers":     true,
	"json.RejectUnknownMembers":      true,
	"jsontext.Multiline":             true,
	"jsontext.WithIndent":            true,
}

// maxMapLiteral is the largest map literal a package-level variable may
// hold: a map literal is built at start-up, entry by entry.
const maxMapLiteral = 32

// builtinTypes are the predeclared types: calling one is a conversion.
var builtinTypes = map[string]bool{
	"string": true, "byte": true, "rune": true, "bool": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// initWork returns, for the non-test Go files of the package in dir, one
// line per init function and per package-level variable initialiser that
// calls something not known to be cheap or builds a large map.
func initWork(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	require.NotEmpty(t, files, "no Go files in %s", dir)
	// The package's own type names: calling one is a conversion.
	types := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					types[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	var found []string
	report := func(n ast.Node, format string, args ...any) {
		p := fset.Position(n.Pos())
		found = append(found, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, fmt.Sprintf(format, args...)))
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				report(fd, "func init runs at start-up")
				continue
			}
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.FuncLit:
							return false // runs when called, not at start-up
						case *ast.CompositeLit:
							if _, ok := n.Type.(*ast.MapType); ok && len(n.Elts) > maxMapLiteral {
								report(n, "a map literal of %d entries is built at start-up", len(n.Elts))
							}
						case *ast.CallExpr:
							if name, ok := callee(n.Fun, types); !ok {
								report(n, "%s is called at start-up", name)
							}
						}
						return true
					})
				}
			}
		}
	}
	return found
}

// callee names the function fun of a call and reports whether calling it
// at start-up is allowed: a conversion or a function in cheapInit.
func callee(fun ast.Expr, types map[string]bool) (string, bool) {
	switch f := fun.(type) {
	case *ast.ParenExpr:
		return callee(f.X, types)
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType, *ast.StarExpr:
		return "a conversion", true
	case *ast.Ident:
		return f.Name, builtinTypes[f.Name] || types[f.Name]
	case *ast.IndexExpr: // a generic function or type, e.g. reflect.TypeFor[T]
		return callee(f.X, types)
	case *ast.IndexListExpr:
		return callee(f.X, types)
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			name := x.Name + "." + f.Sel.Name
			return name, cheapInit[name]
		}
	}
	return "an expression", false
}

func TestNoWorkAtInit(t *testing.T) {
	for _, dir := range linked {
		assert.Empty(t, initWork(t, dir), "package in %s does work at start-up", dir)
	}
}

// TestInitWorkIsFound checks the check on a package that does work at
// start-up.
func TestInitWorkIsFound(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import (
	"errors"
	"regexp"
	"strings"
)

type name string

var (
	ok1 = errors.New("x")
	ok2 = name("y")
	ok3 = []byte("z")
	ok4 = map[string]int{"a": 1}
	ok5 = func() int { return len(strings.Fields("a b")) }
	bad1 = regexp.MustCompile("a+")
	bad2 = strings.NewReplacer("a", "b")
	bad3 = table()
	bad4 = [...]*regexp.Regexp{regexp.MustCompile("b")}
)

func table() []int { return make([]int, 1<<20) }

func init() {}
`
	big := "\nvar bad5 = map[int]int{"
	for i := range maxMapLiteral + 1 {
		big += strconv.Itoa(i) + ": 0, "
	}
	src += big + "}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644))
	found := strings.Join(initWork(t, dir), "\n")
	for _, want := range []string{"regexp.MustCompile is called", "strings.NewReplacer is called", "table is called", "func init", "map literal of 33 entries"} {
		assert.Contains(t, found, want)
	}
	assert.Equal(t, 6, strings.Count(found, "\n")+1, found)
	assert.NotContains(t, found, "errors.New")
}

// TestStartupInitTrace builds the fingerprint example and runs it with
// GODEBUG=inittrace=1: the library's packages must allocate next to
// nothing while the hook starts.
func TestStartupInitTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "fingerprint")
	build := exec.Command("go", "build", "-o", bin, "../examples/fingerprint")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	in, err := os.ReadFile("../examples/fingerprint/testdata/listen_here.json")
	require.NoError(t, err)
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "%s", stderr.String())
	line := regexp.MustCompile(`(?m)^init github\.com/gohooks/hook(/\S*)? @.*, (\d+) bytes, (\d+) allocs$`)
	ms := line.FindAllStringSubmatch(stderr.String(), -1)
	require.NotEmpty(t, ms, "no init trace of the hook packages in:\n%s", stderr.String())
	for _, m := range ms {
		bytes, _ := strconv.Atoi(m[2])
		allocs, _ := strconv.Atoi(m[3])
		assert.LessOrEqual(t, bytes, 4096, m[0])
		assert.LessOrEqual(t, allocs, 32, m[0])
	}
}
