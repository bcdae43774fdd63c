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

// The package's three layers, by file. The kinds of task (forks and
// their joins, groups, the pool and its default, the measuring) run on
// the fork-join core; the core runs any task through its record or its
// kind (jobKind) and its hooks (meterHooks), and names nothing above it.
// The core runs on the engine's workers; the engine names nothing of
// either. The loops, which used only exported names, are package par:
// the compiler keeps them on sched's exported API.
//
//	kinds       pool.go  group.go  fork.go  default.go  measure.go
//	              |  jobKind (Group), meterHooks (taskMeter)
//	core        task.go  runner.go  lend.go  forkstack.go  crewtable.go
//	              |  host (Pool implements it)
//	engine      config.go  run.go  scheduler.go  worker.go  mastermode.go
//	            randommode.go  park.go  inject.go  latch.go  panic.go
//	            perworker.go  stats.go  profile.go  cpuclock_linux.go
//	            cpuclock_other.go  race.go  norace.go  doc.go  parktable.go  modes.go
//	            tokens.go
var (
	kindFiles   = []string{"pool.go", "group.go", "fork.go", "default.go", "measure.go"}
	coreFiles   = []string{"task.go", "runner.go", "lend.go", "forkstack.go", "crewtable.go"}
	engineFiles = []string{
		"config.go", "run.go", "scheduler.go", "worker.go", "mastermode.go",
		"randommode.go", "park.go", "inject.go", "latch.go", "panic.go",
		"perworker.go", "stats.go", "profile.go", "cpuclock_linux.go", "cpuclock_other.go",
		"race.go", "norace.go", "doc.go", "parktable.go", "modes.go", "tokens.go",
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
			t.Errorf("%s is in no layer: add it to engineFiles, coreFiles or kindFiles", name)
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
	coreLayer
	kindLayer
)

var layers = []string{"engine", "core", "kinds"}

// layer returns the layer of the file name, or -1 for none.
func layer(name string) int {
	switch {
	case slices.Contains(engineFiles, name):
		return engine
	case slices.Contains(coreFiles, name):
		return coreLayer
	case slices.Contains(kindFiles, name):
		return kindLayer
	}
	return -1
}

// kindEntries are the methods that a kind above the core adds to the
// core's types, as its way in, in the kind's own file: so the core's
// files name nothing of the kind. Each maps to that file.
var kindEntries = map[string]string{
	"Pool.DoMeasured": "measure.go",
	"Task.NewRegion":  "measure.go",
	"Task.NewGroup":   "group.go",
}

// TestMethodsInTheirTypesFile checks that every method of a type is
// declared in the file that declares the type, or for a kind's entry
// (kindEntries), in the kind's file.
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
			if kindEntries[named.Obj().Name()+"."+fd.Name.Name] == filepath.Base(methodFile) {
				continue
			}
			if typeFile != methodFile {
				t.Errorf("%s: method %s.%s is not in %s, its type's file", fset.Position(fd.Pos()), named.Obj().Name(), fd.Name.Name, typeFile)
			}
		}
	}
}

// maxKnot is the most files that may all reach each other, through the
// names they use, in a group of the package (a knot: no file of it can
// change without reading the others).
const maxKnot = 4

// TestKnots checks that no group of more than maxKnot files all reach
// each other.
func TestKnots(t *testing.T) {
	fset, _, pkg, info := checkedPackage(t)
	uses := map[string]map[string]bool{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to {
			if uses[from] == nil {
				uses[from] = map[string]bool{}
			}
			uses[from][to] = true
		}
	}
	for _, group := range fileGroups(uses) {
		if len(group) > maxKnot {
			t.Errorf("%d files all reach each other, more than %d: %v", len(group), maxKnot, group)
		}
	}
}

// fileGroups returns the groups of more than one file that all reach each
// other through uses (Tarjan's strongly connected components).
func fileGroups(uses map[string]map[string]bool) [][]string {
	var names []string
	for f := range uses {
		names = append(names, f)
	}
	slices.Sort(names)
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var groups [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		var next []string
		for w := range uses[v] {
			next = append(next, w)
		}
		slices.Sort(next)
		for _, w := range next {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var g []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				g = append(g, w)
				if w == v {
					break
				}
			}
			if len(g) > 1 {
				slices.Sort(g)
				groups = append(groups, g)
			}
		}
	}
	for _, v := range names {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return groups
}
