// Package par is a stub of github.com/worksteal/wsq/par for the tests of
// taskcheck.
package par

import "github.com/worksteal/wsq/sched"

func For(t *sched.Task, n int, body func(t *sched.Task, i int)) {}
