// Package cmdtest helps the example programs' tests build and run the
// program as a user would.
package cmdtest
