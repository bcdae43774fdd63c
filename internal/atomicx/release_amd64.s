//go:build !race

#include "textflag.h"

// The release stores of amd64 (release.go). Under x86-TSO a plain store is
// never reordered with the processor's older loads and stores, so a MOV is a
// release store; it is a function of its own so that the compiler cannot move
// the caller's memory accesses across it.

// func storeRelease64(x *atomic.Uint64, v uint64)
TEXT ·storeRelease64(SB), NOSPLIT, $0-16
	MOVQ	x+0(FP), AX
	MOVQ	v+8(FP), BX
	MOVQ	BX, (AX)
	RET

// func storeRelease32(x *atomic.Uint32, v uint32)
TEXT ·storeRelease32(SB), NOSPLIT, $0-12
	MOVQ	x+0(FP), AX
	MOVL	v+8(FP), BX
	MOVL	BX, (AX)
	RET

// func compilerBarrier()
TEXT ·compilerBarrier(SB), NOSPLIT, $0-0
	RET
