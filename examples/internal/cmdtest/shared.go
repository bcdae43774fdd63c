package cmdtest

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/catalog"
	"github.com/worksteal/wsq/examples/internal/cli"
)

// Command is the test of a program as a user runs it: it builds the
// program in the current directory with BuildBinary and runs, with Run,
// the Shared cases of its flags and then cases, the program's own. It marks
// the test parallel, since go build runs in a process of its own, beside the
// package's other tests.
func Command(t *testing.T, name, synopsis string, cases []Case) {
	t.Helper()
	t.Parallel()
	bin := BuildBinary(t)
	Run(t, bin, name, append(Shared(t, bin, name, synopsis), cases...))
}

// Shared returns the cases every program of package cli must pass, whatever
// else it does: -h with the synopsis, the refusal of an argument after the
// flags and of an unknown flag, and, for each flag of package cli that the
// program's help lists (-queue, -mode, -workers, -proportion, -progress),
// the refusal of its bad values with cli's message. It runs bin -h to learn
// the flags.
func Shared(t *testing.T, bin, name, synopsis string) []Case {
	t.Helper()
	var help bytes.Buffer
	cmd := exec.Command(bin, "-h")
	cmd.Stdout = &help
	require.NoError(t, cmd.Run(), "%s -h", name)
	flags := map[string]bool{}
	for _, line := range strings.Split(help.String(), "\n") {
		if f, ok := strings.CutPrefix(line, "  -"); ok {
			flags[strings.Fields(f)[0]] = true
		}
	}

	refused := func(args ...string) func(problem string) Case {
		return func(problem string) Case {
			return Refused(name+": "+args[0]+" "+args[1]+": "+problem, args...)
		}
	}
	cases := []Case{
		Help(synopsis),
		Refused(name+`: unexpected argument "extra": `+name+" takes flags only", "extra"),
		Refused(name+": flag provided but not defined: -nosuchflag", "-nosuchflag"),
	}
	if flags["queue"] {
		cases = append(cases, refused("-queue", "nope")("unknown queue; known queues: "+strings.Join(catalog.Names(), ", ")))
	}
	if flags["mode"] {
		var modes []string
		for _, m := range cli.Modes {
			modes = append(modes, m.String())
		}
		last := len(modes) - 1
		want := "unknown value; want " + strings.Join(modes[:last], ", ") + " or " + modes[last]
		cases = append(cases, refused("-mode", "both")(want))
	}
	if flags["workers"] {
		want := "out of range; want 0 to " + cli.Group(cli.MaxWorkers)
		cases = append(cases, refused("-workers", "-1")(want), refused("-workers", "100000")(want))
	}
	if flags["proportion"] {
		for _, p := range []string{"0", "1.5", "NaN"} {
			cases = append(cases, refused("-proportion", p)("outside (0, 1]"))
		}
	}
	if flags["progress"] {
		cases = append(cases, Refused(name+`: invalid boolean value "soon" for -progress`, "-progress=soon"))
	}
	return cases
}

// EveryQueue returns a Case for each queue of package catalog: args with
// -queue and the queue's name added, which must succeed and print want.
func EveryQueue(want string, args ...string) []Case {
	var cases []Case
	for _, q := range catalog.Names() {
		cases = append(cases, Verified(want, append(append([]string(nil), args...), "-queue", q)...))
	}
	return cases
}
