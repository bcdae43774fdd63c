module github.com/worksteal/wsq/bench/pools

go 1.25

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/bradenaw/juniper v0.15.3
	github.com/destel/rill v0.9.0
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/sourcegraph/conc v0.3.0
	github.com/worksteal/wsq v0.0.0
)

require (
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	golang.org/x/exp v0.0.0-20231006140011-7918f672742d // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/worksteal/wsq => ../..
