package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPairTables checks the tables of -pairs against those that
// bench/peers/run.sh's awk made of the same rounds: testdata/pairs-table.md
// and pairs-summary.md. One round lacks the C++ side of push1.
func TestPairTables(t *testing.T) {
	data, err := os.ReadFile("testdata/pairs-rounds.txt")
	if err != nil {
		t.Fatal(err)
	}
	pf, err := readPairs("testdata/pairs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	results, err := readRounds(data, "pairs-rounds.txt")
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	table, summary, err := pairTables(results, pf, roundsCaption(data, "bench/peers/run.sh -rounds 3"), func(s string) { warned = append(warned, s) })
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, got string }{{"testdata/pairs-table.md", table}, {"testdata/pairs-summary.md", summary}} {
		want, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if f.got != string(want) {
			t.Errorf("%s differs:\n%s\nwant\n%s", f.name, f.got, want)
		}
	}
	if want := "push1 bq/tf-cpp: 1 round(s) without a result|push1 tf-ub/tf-cpp: 1 round(s) without a result"; strings.Join(warned, "|") != want {
		t.Errorf("warnings %q, want %q", warned, want)
	}

	// A pair that no round has: a row that says so, and an error.
	pf.rows[0].pairs = append(pf.rows[0].pairs, pair{side{"go", "bq"}, side{"rust", "cb-steady"}})
	table, _, err = pairTables(results, pf, "", func(string) {})
	if !errors.Is(err, errMissingPairs) || !strings.Contains(table, "| push 1 item | bq | – | cb-steady (Rust) | – | no result (has a benchmark been renamed?) | |\n") {
		t.Errorf("a missing pair: %v\n%s", err, table)
	}

	// A row whose metric a result lacks.
	pf.rows[0].metric = "ns/item"
	if _, _, err := pairTables(results, pf, "", func(string) {}); err == nil || !strings.Contains(err.Error(), "row push1: no ns/item") {
		t.Errorf("a missing metric: %v", err)
	}
}

func TestReadPairsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"# nothing\n", "no row"},
		{"push1\tpush\tns/op\t\n", "want ROW, OPERATION"},
		{"push1\tpush\tns/op\t\t\n", "has no pair"},
		{"push1\tpush\tns/op\t(\tgo:bq/rust:cb\n", "missing closing )"},
		{"push1\tpush\tns/op\t\tbq:rust:cb\n", `pair "bq:rust:cb"`},
		{"label\trust\n", "want label"},
	} {
		p := filepath.Join(dir, "p.tsv")
		os.WriteFile(p, []byte(tc.text), 0o644)
		if _, err := readPairs(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestContenderOf(t *testing.T) {
	for name, want := range map[string]string{
		"BenchmarkPush/queue=tf-ub":                   "tf-ub",
		"BenchmarkForkJoin/impl=join-bq/work=fine":    "join-bq",
		"BenchmarkFibSerial/n=27":                     "serial",
		"BenchmarkThieves/queue=cb/thieves=1/steal=a": "cb",
	} {
		if got := contenderOf(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
