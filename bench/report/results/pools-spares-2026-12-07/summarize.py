"""Summarizes rounds.txt: wsq against the best of ants, pond and conc in each run."""
import collections, statistics

runs = collections.defaultdict(dict)  # (binary, round, submitters) -> impl -> (wall ns/op, cpu-ns/task)
for line in open("rounds.txt"):
    if line.startswith("#"):
        continue
    f = line.split()
    binary, rnd, name = f[0], f[1], f[2]
    parts = dict(p.split("=") for p in name.split("/")[1:])
    impl = parts["impl"].rsplit("-", 1)[0]
    wall = float(f[4])
    cpu = float(f[f.index("cpu-ns/task") - 1])
    runs[(binary, rnd, parts["submitters"])][impl] = (wall, cpu)

def fmt(xs, digits=2):
    xs = sorted(xs)
    return "**%.*f** (%.*f–%.*f)" % (digits, statistics.median(xs), digits, xs[0], digits, xs[-1])

print("| submitters | binary | wsq wall | wsq processor time per task | pond's | wsq ÷ best pool, wall | wsq ÷ best pool, processor time |")
print("|---|---|---:|---:|---:|---:|---:|")
for sub in ["1", "4", "100"]:
    for binary in ["before", "after"]:
        keys = [k for k in runs if k[0] == binary and k[2] == sub]
        wall = [runs[k]["wsq"][0] for k in keys]
        cpu = [runs[k]["wsq"][1] for k in keys]
        pond = [runs[k]["pond"][1] for k in keys]
        rw = [runs[k]["wsq"][0] / min(runs[k][p][0] for p in ("ants", "pond", "conc")) for k in keys]
        rc = [runs[k]["wsq"][1] / min(runs[k][p][1] for p in ("ants", "pond", "conc")) for k in keys]
        print("| %s | %s | %.0f ms | %s ns | %s ns | %s | %s |" % (
            sub, binary, statistics.median(wall) / 1e6, format(round(statistics.median(cpu)), ","),
            format(round(statistics.median(pond)), ","), fmt(rw, 3), fmt(rc)))
