#!/usr/bin/env python3
"""pinned-bw.py [REPS]: the reference figure for host-copy detection tests.

PyTorch measures pinned 1 GiB host->device and device->host copies (CUDA events, REPS timed
copies after 2 warm-ups) and prints the medians in GB/s (10^9 bytes/s), the unit fabricgate's
hostcopy keys use: `h2d <GB/s> d2h <GB/s>`."""
import statistics
import sys

import torch

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 10
size = 1 << 30
h = torch.empty(size, dtype=torch.uint8).pin_memory()
d = torch.empty(size, dtype=torch.uint8, device="cuda")


def measure(copy):
    out = []
    for i in range(reps + 2):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        copy()
        b.record()
        b.synchronize()
        if i >= 2:
            out.append(size / (a.elapsed_time(b) / 1e3) / 1e9)
    return statistics.median(out)


print(f"h2d {measure(lambda: d.copy_(h, non_blocking=True)):.3f} d2h {measure(lambda: h.copy_(d, non_blocking=True)):.3f}")
