// Package doclinks finds the doc links of a package (a name, or a type's
// method or field, in square brackets) that name nothing the package
// declares, so that a doc comment does not point a reader at a symbol that
// is not there, or is only in a test file.
package doclinks

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Broken returns the doc links of the package in dir that resolve to no
// declaration of its non-test files (any build tags), one line per link,
// "file:line: [link]", sorted. Links to other packages ([hook.Handler])
// and to predeclared names ([error]) are not checked.
func Broken(dir string) ([]string, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	decl := declared(files)
	var out []string
	for _, f := range files {
		for _, doc := range docComments(f) {
			var bad []string
			p := comment.Parser{
				LookupPackage: func(name string) (string, bool) { return "", false },
				LookupSym: func(recv, name string) bool {
					if name == "" || recv == "" && types.Universe.Lookup(name) != nil {
						return true
					}
					key := name
					if recv != "" {
						key = recv + "." + name
					}
					if !decl[key] {
						bad = append(bad, key)
					}
					return decl[key]
				},
			}
			p.Parse(doc.Text())
			for _, b := range bad {
				pos := fset.Position(doc.Pos())
				out = append(out, fmt.Sprintf("%s:%d: [%s]", filepath.Base(pos.Filename), pos.Line, b))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// declared returns the names files declare at the top level, and
// "Type.Name" for each method and struct field.
func declared(files []*ast.File) map[string]bool {
	decl := map[string]bool{}
	embeds := map[string][]string{} // type: the types it embeds
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					decl[d.Name.Name] = true
					continue
				}
				decl[recvName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						decl[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									decl[s.Name.Name+"."+n.Name] = true
								}
								if len(fl.Names) == 0 {
									embeds[s.Name.Name] = append(embeds[s.Name.Name], recvName(fl.Type))
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							decl[n.Name] = true
						}
					}
				}
			}
		}
	}
	// Promote the embedded types' methods and fields, as far as they go.
	for changed := true; changed; {
		changed = false
		for key := range decl {
			recv, name, ok := strings.Cut(key, ".")
			if !ok {
				continue
			}
			for outer, inner := range embeds {
				if slices.Contains(inner, recv) && !decl[outer+"."+name] {
					decl[outer+"."+name], changed = true, true
				}
			}
		}
	}
	return decl
}

// recvName returns the type name of a method's receiver.
func recvName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.StarExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// docComments returns the doc comments of f: the package's, and those of
// its declarations, specs and struct fields.
func docComments(f *ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	add := func(g *ast.CommentGroup) {
		if g != nil {
			out = append(out, g)
		}
	}
	add(f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			add(n.Doc)
			return false // comments inside bodies are not docs
		case *ast.GenDecl:
			add(n.Doc)
		case *ast.TypeSpec:
			add(n.Doc)
		case *ast.ValueSpec:
			add(n.Doc)
		case *ast.Field:
			add(n.Doc)
		}
		return true
	})
	return out
}
