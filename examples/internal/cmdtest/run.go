package cmdtest

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/worksteal/wsq/examples/internal/cli"
)

// Case is one command line and what the program must do with it.
type Case struct {
	// Args are the arguments after the program's name.
	Args []string
	// Code is the exit status the run must give: 0 for a run that
	// succeeds, which must print a line starting with "verified:" to
	// stdout and nothing to stderr, or for -h, which must print the help to
	// stdout; 2 for a refusal, which must print one error message (a line
	// that starts with the program's name and a colon) to stderr, then
	// the line cli.HelpHint unless NoHint is set, and nothing else, and
	// nothing to stdout but what the program printed before it found the
	// problem.
	Code int
	// Want lists text that must appear: in stdout for status 0, in stderr
	// otherwise.
	Want []string
	// NoHint marks a refusal of the input (a malformed file, say) rather
	// than of the flags: the message is not followed by cli.HelpHint.
	NoHint bool
}

// Verified is a Case for a run that succeeds and prints want (typically the
// start of its "verified:" line).
func Verified(want string, args ...string) Case {
	return Case{Args: args, Code: 0, Want: []string{want}}
}

// Refused is a Case for a run refused with exit status 2 and the message
// want, followed by cli.HelpHint.
func Refused(want string, args ...string) Case {
	return Case{Args: args, Code: 2, Want: []string{want}}
}

// Help is the Case of -h, which must print the synopsis, a one-line
// description of the program, and the flags, and exit 0.
func Help(synopsis string) Case {
	return Case{Args: []string{"-h"}, Code: 0, Want: []string{synopsis}}
}

// Run runs each case as a subtest, named by its arguments, with the program
// bin, which reports itself as name (the prefix of its error messages).
func Run(t *testing.T, bin, name string, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.Args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, c.Args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
				code = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			out, errOut := stdout.String(), stderr.String()
			require.Equal(t, c.Code, code, "exit status\nstdout:\n%s\nstderr:\n%s", out, errOut)
			for _, s := range []string{"panic", "goroutine "} {
				assert.NotContains(t, out+errOut, s, "a crash")
			}
			switch {
			case c.Code == 0 && isHelp(c.Args):
				check(t, out, c.Want, "stdout")
				assert.True(t, strings.HasPrefix(out, c.Want[0]+"\n"), "-h starts with the one-line description %q:\n%s", c.Want[0], out)
				assert.Contains(t, out, "Usage: "+name+" [flags]")
				assert.Empty(t, errOut, "stderr")
			case c.Code == 0:
				check(t, out, c.Want, "stdout")
				assert.Regexp(t, `(?m)^verified: `, out, "a verified: line")
				assert.Empty(t, errOut, "stderr (no progress line when stderr is not a terminal)")
			default:
				check(t, errOut, c.Want, "stderr")
				assert.NotContains(t, out, "verified:")
				var messages []string
				for _, line := range strings.Split(errOut, "\n") {
					if strings.HasPrefix(line, name+":") {
						messages = append(messages, line)
					}
				}
				assert.Len(t, messages, 1, "exactly one error message, first:\n%s", errOut)
				assert.True(t, strings.HasPrefix(errOut, name+": "), "the message comes first:\n%s", errOut)
				assert.NotContains(t, errOut, "Usage:", "no usage after an error")
				lines := strings.SplitAfter(errOut, "\n")
				if c.NoHint {
					assert.NotContains(t, errOut, cli.HelpHint)
				} else {
					assert.Equal(t, []string{messages[0] + "\n", cli.HelpHint + "\n", ""}, lines, "the message, then the hint, and nothing else")
				}
			}
		})
	}
}

// isHelp reports whether args ask for the help.
func isHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
}

// check asserts that out contains every string of want.
func check(t *testing.T, out string, want []string, what string) {
	t.Helper()
	for _, w := range want {
		assert.Contains(t, out, w, what)
	}
}
