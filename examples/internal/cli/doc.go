// Package cli is the command-line layer shared by the example programs: a
// flag set per program whose -h prints a one-line description and the flags,
// flags that check their values as they are parsed (ranges, proportions,
// queue names, a choice among names), the refusal of flags that do nothing in
// the chosen mode, the limit on -workers, one way to format numbers (grouped
// by thousands, as in 1,234,567), durations and rates, and one progress line
// for long runs. The flags are the flag package's Func flags. The progress
// line is a bar of github.com/schollz/progressbar, drawn only on a
// terminal.
//
// A program builds its flag set with New, defines its flags, calls Parse and
// its own checks, and hands any error to Exit, which prints it and the hint
// "run with -h for help", and returns the exit status: 0 after -h, 2 on
// misuse. Every message names the flag and the value it refuses, as in
// "-n 100: out of range; want 0 to 90".
package cli
