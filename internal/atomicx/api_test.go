package atomicx_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPIParity checks that the normal build (atomicx.go) and the check
// build of the interleaving checker (atomicx_check.go) declare exactly the
// same exported API: the same types with the same type parameters, and the
// same methods and functions with the same signatures. Whoever adds to one
// file must mirror it in the other.
func TestAPIParity(t *testing.T) {
	normal := exportedAPI(t, "atomicx.go")
	check := exportedAPI(t, "atomicx_check.go")
	require.NotEmpty(t, normal)
	assert.Equal(t, normal, check, "atomicx.go and atomicx_check.go must declare the same exported API")
}

// exportedAPI returns one line per exported declaration of file.
func exportedAPI(t *testing.T, file string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	str := func(n any) string {
		var b bytes.Buffer
		require.NoError(t, printer.Fprint(&b, fset, n))
		return b.String()
	}
	var api []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			recv := ""
			if d.Recv != nil {
				recv = "(" + str(d.Recv.List[0].Type) + ") "
			}
			api = append(api, "func "+recv+d.Name.Name+str(d.Type)[len("func"):])
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						tp := ""
						if s.TypeParams != nil {
							for _, f := range s.TypeParams.List {
								for _, n := range f.Names {
									tp += "[" + n.Name + " " + str(f.Type) + "]"
								}
							}
						}
						api = append(api, "type "+s.Name.Name+tp)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							api = append(api, d.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
	sort.Strings(api)
	return api
}
