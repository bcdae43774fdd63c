// Package dag is the DAG-exploration workload of the paper's evaluation: an
// implicit, seeded graph that the work-stealing scheduler (package sched)
// explores, each handled node producing its children as one batch.
//
// The graph takes no memory: it is a tree whose nodes are the integers 0 to
// Nodes-1, and a node's children are computed from the node and the seed. A
// Node carries its id and the size of its subtree, whose ids are the
// consecutive range starting at the node itself (depth-first numbering); a
// node's children split the rest of that range into parts of seeded random
// sizes. So every node has exactly one parent, the whole graph is reached
// from one root, and a run can be checked exactly: Explore counts the nodes
// handled and sums their ids and squared ids, and compares all three with
// the closed forms for 0..Nodes-1 (optionally it also keeps a bitmap that
// pins down any duplicate).
//
// Each node costs a spin loop of seeded length: Uniform work gives every node
// the same cost; Irregular work draws it from a heavy-tailed (Pareto)
// distribution with the same mean, the case the paper expects to favour bulk
// stealing. The busy work feeds a checksum that Explore returns, so the
// compiler cannot remove it.
//
// The paper explored graphs of 2.5 million and 300 million nodes; PaperNodes
// and PaperLargeNodes are those sizes, SmallNodes a size for quick runs.
//
// The package is the one workload that the benchmarks (package bench) and
// the program examples/dagexplore share. It is not part of the library: it
// lives under bench, beside what measures it, and not under internal/,
// whose packages sit below sched and never import it.
package dag
