// Package par is a stub of github.com/worksteal/wsq/par for the tests of
// taskcheck.
package par

import (
	"context"

	"github.com/worksteal/wsq/sched"
)

func For(t *sched.Task, n int, body func(t *sched.Task, i int)) {}

func ForErrContext(ctx context.Context, n int, body func(t *sched.Task, i int) error) error {
	return nil
}
