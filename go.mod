module github.com/worksteal/wsq

go 1.24.0

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/schollz/progressbar/v3 v3.18.0
	github.com/sourcegraph/conc v0.3.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
	golang.org/x/sync v0.19.0
	golang.org/x/sys v0.41.0
	golang.org/x/term v0.38.0
	golang.org/x/text v0.32.0
)

require (
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
