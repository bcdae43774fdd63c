// Package taskcheck defines an Analyzer that reports misuses of the
// *sched.Task of package github.com/worksteal/wsq/sched: code that the
// compiler accepts, and that a run finds only when it panics, or not at
// all. A *Task is valid only in the function it was passed to, in that
// function's goroutine, and nil only outside tasks. The Analyzer reports:
//
//	finding                                              why
//	a nil Task passed by a task function                 the call would block its worker: pass the task's own t
//	Do, or a Pool's Do, in a task                        the same: it waits on a pool
//	a Task of an enclosing function in a task function   each task has its own; the outer one is another task's
//	a Task in the function of Task.Block                 that goroutine runs no task while it blocks
//	a Task in a goroutine that the task starts           a Task is valid only in its task's goroutine
//	a Task stored where it outlives its function         a kept Task is invalid once the function returns
//	a Future used by a goroutine that the task starts    join it in a task, whose wait runs other tasks
//
// A task function is a function with a *sched.Task parameter: what Fork,
// Join, Group.Go, Pool.Do and the loops of package par call. The analysis
// is syntactic within a function and its nested literals: it does not
// follow calls, so a helper that receives a Task and misuses it is not
// seen, and a nested literal without a Task parameter counts as part of
// the function it is written in.
//
// The command github.com/worksteal/wsq/taskcheck/cmd/taskcheck runs it,
// alone or as go vet's tool (go vet -vettool=$(which taskcheck) ./...);
// gopls and golangci-lint run analyzers of this kind too.
package taskcheck

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports misuses of a *sched.Task: see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:     "taskcheck",
	Doc:      "report misuses of a *sched.Task that the compiler accepts: a nil Task from a task, a Task kept or used outside its own task function, a Future joined by a goroutine",
	URL:      "https://pkg.go.dev/github.com/worksteal/wsq/taskcheck",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// schedPath is the package whose names the analysis knows.
const schedPath = "github.com/worksteal/wsq/sched"

// kind is what a function is, to the analysis.
type kind int

const (
	plain     kind = iota // a function without a Task parameter, or a literal called in place
	task                  // it has a *sched.Task parameter: it runs as a task
	block                 // the function of a Task.Block call
	goroutine             // the function of a go statement
)

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	nodes := []ast.Node{(*ast.Ident)(nil), (*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.SendStmt)(nil)}
	ins.WithStack(nodes, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		c := checker{pass: pass, stack: stack}
		switch n := n.(type) {
		case *ast.Ident:
			c.ident(n)
		case *ast.CallExpr:
			c.call(n)
		case *ast.AssignStmt:
			c.assign(n)
		case *ast.SendStmt:
			if isTask(pass.TypesInfo.TypeOf(n.Value)) {
				pass.Reportf(n.Pos(), "a Task sent on a channel outlives its function: a *sched.Task is valid only in its task's function, during the call")
			}
		}
		return true
	})
	return nil, nil
}

// checker checks one node, with its ancestors in stack (the node last).
type checker struct {
	pass  *analysis.Pass
	stack []ast.Node
}

// fn is a function around the node: a *ast.FuncDecl or *ast.FuncLit.
type fn struct {
	node ast.Node
	kind kind
}

// funcs returns the functions around the node, innermost first.
func (c checker) funcs() []fn {
	var out []fn
	for i := len(c.stack) - 1; i >= 0; i-- {
		switch n := c.stack[i].(type) {
		case *ast.FuncDecl:
			out = append(out, fn{n, c.kindOf(n.Type, nil)})
		case *ast.FuncLit:
			var parent, grand ast.Node
			if i > 0 {
				parent = c.stack[i-1]
			}
			if i > 1 {
				grand = c.stack[i-2]
			}
			out = append(out, fn{n, c.kindOf(n.Type, n, parent, grand)})
		}
	}
	return out
}

// kindOf returns the kind of a function of type ft: for a literal lit,
// parent and grand are its parent and grandparent in the syntax tree.
func (c checker) kindOf(ft *ast.FuncType, lit *ast.FuncLit, around ...ast.Node) kind {
	if ft.Params != nil {
		for _, f := range ft.Params.List {
			if isTask(c.pass.TypesInfo.TypeOf(f.Type)) {
				return task
			}
		}
	}
	if lit == nil || len(around) < 2 {
		return plain
	}
	parent, grand := around[0], around[1]
	if call, ok := parent.(*ast.CallExpr); ok {
		if call.Fun == lit {
			if _, ok := grand.(*ast.GoStmt); ok {
				return goroutine
			}
			return plain
		}
		if c.isBlock(call) && len(call.Args) == 1 && call.Args[0] == lit {
			return block
		}
	}
	return plain
}

// isBlock reports whether call is a call of (*sched.Task).Block.
func (c checker) isBlock(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Block" {
		return false
	}
	return isTask(c.pass.TypesInfo.TypeOf(sel.X))
}

// ident checks a use of a variable that holds a Task or a Future: the
// boundaries between the use and the function that declares it.
func (c checker) ident(id *ast.Ident) {
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return
	}
	taskVar, futureVar := isTask(v.Type()), isFuture(v.Type())
	if !taskVar && !futureVar {
		return
	}
	if as, ok := c.stack[len(c.stack)-2].(*ast.AssignStmt); ok {
		for _, lhs := range as.Lhs {
			if lhs == id {
				return // a store, not a use: assign checks it
			}
		}
	}
	for _, f := range c.funcs() {
		if contains(f.node, v.Pos()) {
			return // the declaring function: no boundary crossed
		}
		if v.Parent() == v.Pkg().Scope() {
			return // a package-level variable: assign reports the store
		}
		switch {
		case taskVar && f.kind == task:
			c.pass.Reportf(id.Pos(), "%s is the Task of an enclosing function, another task's: a task function uses the Task it receives", id.Name)
			return
		case taskVar && f.kind == block:
			c.pass.Reportf(id.Pos(), "%s is used in the function of Task.Block, whose goroutine runs no task while it blocks: use the Task before or after the call", id.Name)
			return
		case taskVar && f.kind == goroutine:
			c.pass.Reportf(id.Pos(), "%s is used by a goroutine that the task starts: a *sched.Task is valid only in its task's goroutine", id.Name)
			return
		case futureVar && f.kind == goroutine:
			c.pass.Reportf(id.Pos(), "the Future %s is used by a goroutine that the task starts: join it in a task, whose wait runs other tasks", id.Name)
			return
		case futureVar && f.kind == task:
			return // a task may join any Future
		}
	}
}

// call checks a call made by a task function: a nil Task passed, or a
// call that a task must not make.
func (c checker) call(call *ast.CallExpr) {
	if !c.inTask() {
		return
	}
	info := c.pass.TypesInfo
	if name, ok := c.forOutsiders(call); ok {
		c.pass.Reportf(call.Pos(), "%s called by a task waits on a pool and blocks the task's worker: a task passes its own t to the form that takes a Task", name)
		return
	}
	sig, ok := info.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i, arg := range call.Args {
		var pt types.Type
		switch {
		case i < params.Len()-1 || !sig.Variadic() && i < params.Len():
			pt = params.At(i).Type()
		case sig.Variadic() && params.Len() > 0:
			if s, ok := params.At(params.Len() - 1).Type().(*types.Slice); ok {
				pt = s.Elem()
			}
		}
		if pt == nil || !isTask(pt) {
			continue
		}
		if tv, ok := info.Types[arg]; ok && tv.IsNil() {
			c.pass.Reportf(arg.Pos(), "a nil Task passed by a task function: the call would wait outside the pool and block the task's worker; pass the task's own t")
		}
	}
}

// inTask reports whether the node is in a task function, with no Block
// function or goroutine between: the code that runs as a task. The code
// of a function that takes a Task on the path where that Task is nil is
// not: a caller that is not a task passed nil (see nilPath).
func (c checker) inTask() bool {
	for _, f := range c.funcs() {
		switch f.kind {
		case task:
			return !c.nilPath(f)
		case block, goroutine:
			return false
		}
	}
	return false
}

// nilPath reports whether the node is on the path of the task function f
// where a Task parameter p of f is nil: in the body of an if p == nil, or
// after an if p != nil whose body ends in a return.
func (c checker) nilPath(f fn) bool {
	var ft *ast.FuncType
	switch n := f.node.(type) {
	case *ast.FuncDecl:
		ft = n.Type
	case *ast.FuncLit:
		ft = n.Type
	}
	params := map[types.Object]bool{}
	for _, field := range ft.Params.List {
		if isTask(c.pass.TypesInfo.TypeOf(field.Type)) {
			for _, name := range field.Names {
				params[c.pass.TypesInfo.Defs[name]] = true
			}
		}
	}
	// isNil reports whether cond compares a Task parameter with nil by op.
	isNil := func(cond ast.Expr, op token.Token) bool {
		be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
		if !ok || be.Op != op {
			return false
		}
		for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			if ok && params[c.pass.TypesInfo.Uses[id]] {
				if tv, ok := c.pass.TypesInfo.Types[pair[1]]; ok && tv.IsNil() {
					return true
				}
			}
		}
		return false
	}
	node := c.stack[len(c.stack)-1]
	for i := len(c.stack) - 2; i >= 0 && c.stack[i] != f.node; i-- {
		switch n := c.stack[i].(type) {
		case *ast.IfStmt:
			if c.stack[i+1] == n.Body && isNil(n.Cond, token.EQL) {
				return true
			}
		case *ast.BlockStmt:
			for _, st := range n.List {
				if contains(st, node.Pos()) {
					break
				}
				if is, ok := st.(*ast.IfStmt); ok && isNil(is.Cond, token.NEQ) && endsInReturn(is.Body) {
					return true
				}
			}
		}
	}
	return false
}

// endsInReturn reports whether the block's last statement is a return.
func endsInReturn(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// forOutsiders reports whether call calls a function that only a
// goroutine that is not a task may call, and its name: sched.Do, and a
// Pool's Do or DoMeasured.
func (c checker) forOutsiders(call *ast.CallExpr) (string, bool) {
	var obj types.Object
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		obj = c.pass.TypesInfo.Uses[f]
	case *ast.SelectorExpr:
		obj = c.pass.TypesInfo.Uses[f.Sel]
	case *ast.IndexExpr:
		if sel, ok := f.X.(*ast.SelectorExpr); ok {
			obj = c.pass.TypesInfo.Uses[sel.Sel]
		}
	case *ast.IndexListExpr:
		if sel, ok := f.X.(*ast.SelectorExpr); ok {
			obj = c.pass.TypesInfo.Uses[sel.Sel]
		}
	}
	fun, ok := obj.(*types.Func)
	if !ok || fun.Pkg() == nil {
		return "", false
	}
	sig := fun.Type().(*types.Signature)
	switch path, name := fun.Pkg().Path(), fun.Name(); {
	case path == schedPath && sig.Recv() == nil && name == "Do":
		return "sched.Do", true
	case path == schedPath && sig.Recv() != nil && (name == "Do" || name == "DoMeasured") && isPool(sig.Recv().Type()):
		return "Pool." + name, true
	}
	return "", false
}

// assign checks stores of a Task where it outlives its function: a
// field, an element, a pointer's target, a package-level variable, or a
// variable of an enclosing function.
func (c checker) assign(as *ast.AssignStmt) {
	info := c.pass.TypesInfo
	for i, lhs := range as.Lhs {
		var rhs ast.Expr
		switch {
		case len(as.Rhs) == len(as.Lhs):
			rhs = as.Rhs[i]
		default:
			continue // a call's results: not a Task passed on here
		}
		if !isTask(info.TypeOf(rhs)) {
			continue
		}
		if tv, ok := info.Types[rhs]; ok && tv.IsNil() {
			continue
		}
		switch l := ast.Unparen(lhs).(type) {
		case *ast.Ident:
			v, ok := info.ObjectOf(l).(*types.Var)
			if !ok || l.Name == "_" {
				continue
			}
			if v.Parent() == v.Pkg().Scope() || !c.declaredInInnermostTask(v) {
				c.pass.Reportf(as.Pos(), "a Task stored in %s, which outlives the task's function: a *sched.Task is valid only during the call", l.Name)
			}
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			c.pass.Reportf(as.Pos(), "a Task stored beyond its function: a *sched.Task is valid only in its task's function, during the call")
		}
	}
}

// declaredInInnermostTask reports whether v is declared in the innermost
// task function around the node, or in a function nested in it.
func (c checker) declaredInInnermostTask(v *types.Var) bool {
	for _, f := range c.funcs() {
		if contains(f.node, v.Pos()) {
			return true
		}
		if f.kind == task {
			return false
		}
	}
	return true // not in a task function: nothing to outlive
}

// contains reports whether the node's source range holds pos.
func contains(n ast.Node, pos token.Pos) bool { return n.Pos() <= pos && pos < n.End() }

// isTask reports whether t is *sched.Task.
func isTask(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), "Task")
}

// isPool reports whether t is *sched.Pool.
func isPool(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), "Pool")
}

// isFuture reports whether t is a sched.Future of any result type.
func isFuture(t types.Type) bool { return isNamed(t, "Future") }

// isNamed reports whether t is the type of package sched named name, or
// an instance of it.
func isNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == schedPath
}
