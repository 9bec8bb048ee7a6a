package doclinks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindsALinkToATestOnlySymbol: a doc link to a name that only a test
// file declares is reported; links to the package's names, methods,
// fields, other packages and predeclared names are not.
func TestFindsALinkToATestOnlySymbol(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("doc.go", `// Package p has [Thing], [Thing.Do], [Thing.Field], [Missing],
// [strings.Cut], [error] and [Answers].
package p

// Thing is a [Thing] with a method [Thing.Gone].
type Thing struct {
	// Field is [Other].
	Field int
}

// Do does it, unlike [Fixture].
func (t *Thing) Do() { _ = "[NotADoc]" }
`)
	write("p_test.go", "package p\n\n// Answers is for the tests.\nfunc Answers() {}\n")
	got, err := Broken(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"doc.go:11: [Fixture]", "doc.go:1: [Answers]", "doc.go:1: [Missing]", "doc.go:5: [Thing.Gone]", "doc.go:7: [Other]"}, got)
}

// prose are brackets in doc comments that are text, not links: the
// server-sent events' end marker and a map type's suffix.
var prose = map[string]bool{
	"internal/clientrun [DONE]": true,
	"internal/sdkdecl [K]":      true,
}

// TestModuleDocLinks: no package of the module links to a symbol it does
// not declare outside its tests.
func TestModuleDocLinks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	var broken []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		bad, err := Broken(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, b := range bad {
			if prose[filepath.ToSlash(rel)+" "+b[strings.Index(b, "["):]] {
				continue
			}
			broken = append(broken, filepath.ToSlash(filepath.Join(rel, b)))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, broken, "doc links that name nothing the package declares")
}
