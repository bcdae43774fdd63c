package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Listing compiles the package in dir for goarch with the compiler's
// assembly listing (go build -gcflags=-S, without the package's tests) and
// returns the instructions of each function it compiled, keyed by the
// function's symbol, such as "github.com/worksteal/wsq/bench.floorPlain" or
// "github.com/worksteal/wsq/chaselev.(*Deque[go.shape.int]).Push". Each
// value holds the function's instruction lines as the listing prints them:
// a tab, the offset in hex and decimal, the source position, a tab, the
// instruction. It skips the test as GoTool does and fails it when the
// package does not compile. The go command replays a cached compilation's
// listing, so a second call costs little.
func Listing(t testing.TB, goarch, dir string) map[string]string {
	t.Helper()
	cmd := exec.Command(GoTool(t), "build", "-gcflags=-S", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOARCH="+goarch, "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOARCH=%s go build -gcflags=-S: %v\n%s", goarch, err, out)
	}
	funcs := map[string]string{}
	var name string
	var body strings.Builder
	flush := func() {
		if name != "" {
			funcs[name] = body.String()
		}
		name = ""
		body.Reset()
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "\t") {
			if name != "" && strings.Contains(l, ")\t") { // an instruction, not the bytes or relocations
				body.WriteString(l)
				body.WriteByte('\n')
			}
			continue
		}
		flush()
		if sym, rest, ok := strings.Cut(l, " STEXT"); ok && (rest == "" || rest[0] == ' ') {
			name = sym
		}
	}
	flush()
	return funcs
}
