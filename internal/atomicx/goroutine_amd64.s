#include "textflag.h"

// func Goroutine() uint64
TEXT ·Goroutine(SB), NOSPLIT, $0-8
	MOVQ	TLS, CX
	MOVQ	0(CX)(TLS*1), AX // the runtime's g: see go_tls.h
	MOVQ	AX, ret+0(FP)
	RET
