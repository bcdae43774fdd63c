package queuetest

import (
	"slices"

	wsq "github.com/worksteal/wsq"

	"github.com/anishathalye/porcupine"
)

// This file exports the suite's porcupine model of wsq.Queue[int], so that
// checkers which record histories themselves (the interleaving checker,
// internal/check/interleave/queuecheck) use the one model, not a second copy.
// Operations are built with the *Op functions: client numbers the calling
// goroutine (0-based), call and ret are the logical times of the call and the
// return.

// LinearizabilityModel returns the porcupine model of wsq.Queue[int] with
// the tolerances Contract c declares (Capacity, InexactStealBatch). A Steal
// that reports false, a StealBatch that takes nothing and a TrySteal or
// TryStealBatch that reports wsq.Empty are accepted only where the model
// queue is empty; a wsq.Contended result is a no-op anywhere.
func LinearizabilityModel(c wsq.Contract) porcupine.Model { return linearizabilityModel(c) }

// PushOp is a Push(v) that returned ok.
func PushOp(client int, call, ret int64, v int, ok bool) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opPush, v: v}, lzOutput{ok: ok})
}

// PushBatchOp is a PushBatch(vs) that returned n.
func PushBatchOp(client int, call, ret int64, vs []int, n int) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opPushBatch, vs: slices.Clone(vs)}, lzOutput{n: n})
}

// PopOp is a Pop that returned v, ok.
func PopOp(client int, call, ret int64, v int, ok bool) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opPop}, lzOutput{v: v, ok: ok})
}

// StealOp is a Steal that returned v, ok.
func StealOp(client int, call, ret int64, v int, ok bool) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opSteal}, lzOutput{v: v, ok: ok})
}

// StealBatchOp is a StealBatch(dst, p), or a native bulk steal of p, that
// took vs, oldest first.
func StealBatchOp(client int, call, ret int64, p float64, vs []int) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opStealBatch, p: p}, lzOutput{vs: slices.Clone(vs)})
}

// TryStealOp is a TrySteal that returned v, r.
func TryStealOp(client int, call, ret int64, v int, r wsq.StealResult) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opTrySteal}, lzOutput{v: v, r: r})
}

// TryStealBatchOp is a TryStealBatch(dst, p) that took vs, oldest first,
// and reported r.
func TryStealBatchOp(client int, call, ret int64, p float64, vs []int, r wsq.StealResult) porcupine.Operation {
	return operation(client, call, ret, lzInput{kind: opTryStealBatch, p: p}, lzOutput{vs: slices.Clone(vs), r: r})
}

func operation(client int, call, ret int64, in lzInput, out lzOutput) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret}
}
