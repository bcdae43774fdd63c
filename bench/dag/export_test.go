package dag

// Test-only access to the closed forms of the checksums.
var (
	SumIDs     = sumIDs
	SumSquares = sumSquares
)
