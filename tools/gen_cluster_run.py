#!/usr/bin/env python3
"""Generates a run directory the size a 1,024-node x 8-GPU job would leave, to measure what rank 0
gathers and how long `fabricgate compare` takes on it (docs/MULTINODE.md, "Scale on paper").

  tools/gen_cluster_run.py --out results/gen --run-id r1 --seed 1 [--nodes 1024 --gpus-per-node 8
      --max-rounds 8 --pair-sizes 65536,16777216 --coll-sizes 20] [--bad-node 17] [--odd-driver 33]

Writes <out>/<platform>/<run-id>/run.json (schema fabricgate.run/1): one rank-table line per rank,
one compact fingerprint per node (run.json "nodes"), node-pair keys for the first --max-rounds
rounds of the circle-method tournament (bench/engine/tournament.cpp) plus one round key each, and
--coll-sizes all_reduce keys. Figures are synthetic (seeded noise around fixed values); only the
sizes and shapes are real. Standard library only.
"""
import argparse
import json
import os
import random


def rounds(k, max_rounds):
    m = k if k % 2 == 0 else k + 1
    seat = list(range(m))
    out = []
    for _ in range(min(max_rounds, m - 1) if max_rounds > 0 else m - 1):
        r = []
        for i in range(m // 2):
            a, b = seat[i], seat[m - 1 - i]
            if a < k and b < k:
                r.append((min(a, b), max(a, b)))
        out.append(sorted(r))
        seat = [seat[0], seat[-1]] + seat[1:-1]
    return out


def result(key, family, op, nbytes, nranks, times_us, extra):
    times_us = [round(t, 4) for t in times_us]
    algbw = [nbytes / (t * 1e-6) / 1e9 for t in times_us]
    med = sorted(times_us)[len(times_us) // 2]
    r = {"key": key, "family": family, "backend": "nccl", "op": op, "params": extra, "bytes": nbytes,
         "nranks": nranks, "gpus_per_process": 1, "status": "ok", "message": "", "repetitions": len(times_us),
         "iterations": 20, "samples": {"time_us": times_us, "algbw_GBps": algbw}, "time_us": med,
         "algbw_GBps": nbytes / (med * 1e-6) / 1e9, "warmup_us": med * 1.5, "wrong_elements": 0, "notes": []}
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--run-id", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--platform", default="h200-sxm-x8-nv18")
    ap.add_argument("--nodes", type=int, default=1024)
    ap.add_argument("--gpus-per-node", type=int, default=8)
    ap.add_argument("--max-rounds", type=int, default=8)
    ap.add_argument("--pair-sizes", default="65536,16777216")
    ap.add_argument("--coll-sizes", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--bad-node", type=int, default=-1, help="this node's pairs run at 40 %%")
    ap.add_argument("--odd-driver", type=int, default=-1, help="this node reports another driver")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    k, g = a.nodes, a.gpus_per_node
    n = k * g
    names = ["gpu-node-%04d" % i for i in range(k)]
    nodes = []
    for i, name in enumerate(names):
        facts = {"driver": "580.159.04", "cuda_driver": "13.0", "cuda_runtime": "13.0", "nccl": "2.28.3",
                 "gpu_count": str(g), "gpu_models": "NVIDIA H200",
                 "nics": ",".join("mlx5_%d" % j for j in range(8)),
                 "nic_links": "; ".join("mlx5_%d/1 ACTIVE 400Gb/s InfiniBand" % j for j in range(8)),
                 "platform_key": a.platform}
        if i == a.odd_driver:
            facts["driver"] = "570.86.15"
        nodes.append({"hostname": name, "platform_key": a.platform, "facts": facts, "name": name, "index": i,
                      "emulated": False, "ranks": list(range(i * g, (i + 1) * g))})
    ranks = [{"rank": r, "host": names[r // g], "local_rank": r % g, "node": names[r // g],
              "gpu_uuid": "GPU-%08x-0000-0000-0000-%012x" % (r // g, r % g), "pci_bus_id": "00000000:%02X:00.0" % (0x18 + r % g),
              "gpu_name": "NVIDIA H200"} for r in range(n)]
    benchmarks = []
    noise = lambda base: [base * (1 + rng.gauss(0, 0.01)) for _ in range(a.reps)]
    for s in range(a.coll_sizes):
        nbytes = 8 << s
        t = 30 + nbytes / 150e3
        benchmarks.append(result("coll/nccl/all_reduce/float32/sum/bytes:%d/ranks:%d/oop" % (nbytes, n), "coll", "all_reduce",
                                 nbytes, n, noise(t), {"dtype": "float32", "redop": "sum", "inplace": False}))
    for r, rnd in enumerate(rounds(k, a.max_rounds)):
        for nbytes in [int(x) for x in a.pair_sizes.split(",")]:
            base = 8 + nbytes / 45e3  # ~45 GB/s per direction pair
            slowest = 0
            for (x, y) in rnd:
                t = base / (0.4 if a.bad_node in (x, y) else 1.0)
                times = noise(t)
                slowest = max(slowest, max(times))
                benchmarks.append(result("pairs/nccl/sendrecv/bytes:%d/nodes:%s+%s" % (nbytes, names[x], names[y]), "nodepairs",
                                         "sendrecv", nbytes, 2, times,
                                         {"nodes": [names[x], names[y]], "ranks": [x * g, y * g], "round": r,
                                          "emulated_nodes": False}))
            benchmarks.append(result("pairs/nccl/sendrecv/bytes:%d/round:%d" % (nbytes, r), "nodepairs", "sendrecv_round",
                                     nbytes, n, noise(slowest), {"round": r, "nodes": k,
                                                                 "pairs": ["%s+%s" % (names[x], names[y]) for x, y in rnd]}))
    run = {"schema": "fabricgate.run/1", "run_id": a.run_id, "suite": "nightly", "scenario": {"name": "default", "env": {}},
           "platform": a.platform, "complete": True, "incomplete_reason": "", "started_at": "2026-11-29T20:00:00Z",
           "finished_at": "2026-11-29T20:30:00Z", "metadata": {"generator": "tools/gen_cluster_run.py"},
           "launch": {"launcher": "srun", "nranks": n, "nodes": k, "gpus_per_process": 1, "ranks_per_node": g,
                      "gpus_per_node": g, "nodes_emulated": False, "mpi_version": "Open MPI v4.1.6"},
           "ranks": ranks, "nodes": nodes,
           "fingerprint": {"schema": "fabricgate.fingerprint/1", "platform_key": a.platform,
                           "identity": {"gpu_model": "NVIDIA H200", "gpu_count": g, "gpu_topology": "NV18",
                                        "cpu_model": "Intel(R) Xeon(R) Platinum 8480+", "rdma_devices": 8},
                           "versions": {"driver": "580.159.04", "cuda_driver": "13.0", "cuda_runtime": "13.0",
                                        "nccl": "2.28.3", "mpi": "Open MPI 4.1.6"}},
           "capture": {"path": "profiler", "nccl_version": "2.28.3", "network": "IB", "transports": ["P2P/CUMEM"],
                       "gdrdma": True, "env_overrides": {}},
           "benchmarks": benchmarks}
    d = os.path.join(a.out, a.platform, a.run_id)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f)
    print(d)


if __name__ == "__main__":
    main()
