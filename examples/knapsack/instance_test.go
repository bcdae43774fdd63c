package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	in, err := readFile("testdata/sample.txt")
	require.NoError(t, err)
	assert.Len(t, in.items, 12)
	assert.Equal(t, int64(156), in.capacity)
	assert.Equal(t, item{value: 45, weight: 33}, in.items[0])
	assert.Equal(t, bruteForce(in), in.dp(nil))

	in, err = parse(strings.NewReader("0 5\n"), "empty")
	require.NoError(t, err)
	assert.Empty(t, in.items)

	for _, tc := range []struct{ text, want string }{
		{"", "f: no instance"},
		{"# only a comment\n\n", "f: no instance"},
		{"3\n", `f:1: want two numbers "n capacity"`},
		{"# c\n2 10\n1 2 3\n", `f:3: want two numbers "value weight", got "1 2 3"`},
		{"2 10\n1 2\n", "f:2: the first line announces 2 items, the file has 1"},
		{"1 10\n1 2\n3 4\n", "f:3: more items than the 1 the first line announces"},
		{"1 10\nx 2\n", `f:2: "x" is not a non-negative integer`},
		{"1 10\n1 -2\n", `f:2: "-2" is not a non-negative integer`},
		{"1 10\n1 0\n", "f:2: weight 0"},
		{"1 -10\n", `f:1: "-10" is not a non-negative integer`},
		{"1 10\n1 99999999999\n", "f:2: 99999999999 is larger than"},
		{"200000 10\n", "f:1: 200000 items is more than"},
		{"1 10\n" + strings.Repeat("9", 70000) + " 1\n", "f:2: bufio.Scanner: token too long"},
	} {
		_, err := parse(strings.NewReader(tc.text), "f")
		if assert.Error(t, err, "%q", tc.text) {
			assert.Contains(t, err.Error(), tc.want, "%q", tc.text)
		}
	}
}
