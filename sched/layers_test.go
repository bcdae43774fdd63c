package sched_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	pathpkg "path"
	"path/filepath"
	"slices"
	"testing"
)

// The package's two layers, by file. The fork-join layer runs tasks on
// the engine's workers; the engine names nothing of it. The loops, which
// used only the fork-join layer's exported names, are package par: the
// compiler now keeps them on sched's exported API.
//
//	fork-join   pool.go  task.go  fork.go  forkstack.go  runner.go  group.go  lend.go
//	            crewtable.go  default.go  measure.go
//	              |  host (Pool implements it)
//	engine      config.go  run.go  scheduler.go  worker.go  mastermode.go
//	            randommode.go  park.go  inject.go  latch.go  panic.go
//	            perworker.go  stats.go  profile.go  cpuclock_linux.go
//	            cpuclock_other.go  race.go  norace.go  doc.go  parktable.go
var (
	forkJoinFiles = []string{"pool.go", "task.go", "fork.go", "forkstack.go", "runner.go", "group.go", "lend.go", "crewtable.go", "default.go", "measure.go"}
	engineFiles   = []string{
		"config.go", "run.go", "scheduler.go", "worker.go", "mastermode.go",
		"randommode.go", "park.go", "inject.go", "latch.go", "panic.go",
		"perworker.go", "stats.go", "profile.go", "cpuclock_linux.go", "cpuclock_other.go",
		"race.go", "norace.go", "doc.go", "parktable.go",
	}
)

// checkedPackage parses and type-checks the package's files for this
// build, and returns them with what each identifier refers to.
func checkedPackage(t *testing.T) (*token.FileSet, map[string]*ast.File, *types.Package, *types.Info) {
	t.Helper()
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	var list []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
		list = append(list, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	// The imports are empty packages: only sched's own names matter here,
	// and they resolve without them. (Type-checking the imports from
	// source is slow, and crashes under qemu-user in the 32-bit CI run.)
	// The errors about the imports' names are expected, and dropped.
	conf := types.Config{Importer: emptyImports{}, Error: func(error) {}}
	pkg, _ := conf.Check("github.com/worksteal/wsq/sched", fset, list, info)
	return fset, files, pkg, info
}

// emptyImports imports every package as an empty one of its name.
type emptyImports struct{}

func (emptyImports) Import(path string) (*types.Package, error) {
	pkg := types.NewPackage(path, pathpkg.Base(path))
	pkg.MarkComplete()
	return pkg, nil
}

// TestLayers checks that no code of a layer refers to a name that a layer
// above it declares (a type, function, method, field, constant or
// variable), and that every file belongs to one layer.
func TestLayers(t *testing.T) {
	fset, files, pkg, info := checkedPackage(t)
	for name := range files {
		if layer(name) < 0 {
			t.Errorf("%s is in no layer: add it to engineFiles or forkJoinFiles", name)
		}
	}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg {
			continue
		}
		use := fset.Position(id.Pos())
		decl := fset.Position(obj.Pos())
		from, to := layer(filepath.Base(use.Filename)), layer(filepath.Base(decl.Filename))
		if from < to {
			t.Errorf("%s: the %s layer refers to %s, which the %s layer above it declares at %s", use, layers[from], obj.Name(), layers[to], decl)
		}
	}
}

// The layers, from the bottom up, as layer numbers them.
const (
	engine = iota
	forkJoin
)

var layers = []string{"engine", "fork-join"}

// layer returns the layer of the file name, or -1 for none.
func layer(name string) int {
	switch {
	case slices.Contains(engineFiles, name):
		return engine
	case slices.Contains(forkJoinFiles, name):
		return forkJoin
	}
	return -1
}

// TestMethodsInTheirTypesFile checks that every method of a type is
// declared in the file that declares the type.
func TestMethodsInTheirTypesFile(t *testing.T) {
	fset, files, _, info := checkedPackage(t)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			fn := info.Defs[fd.Name].(*types.Func)
			recv := fn.Type().(*types.Signature).Recv().Type()
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			named := recv.(*types.Named)
			typeFile := fset.Position(named.Obj().Pos()).Filename
			methodFile := fset.Position(fd.Pos()).Filename
			if typeFile != methodFile {
				t.Errorf("%s: method %s.%s is not in %s, its type's file", fset.Position(fd.Pos()), named.Obj().Name(), fd.Name.Name, typeFile)
			}
		}
	}
}
