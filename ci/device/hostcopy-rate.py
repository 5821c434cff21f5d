#!/usr/bin/env python3
"""hostcopy-rate.py RATE_GBPS SECONDS [CHUNK_MIB]: a fixed-rate background host-copy load for
detection tests.

Copies pinned chunks host->device and device->host, paced to RATE_GBPS GB/s each way, for SECONDS
(bounded). Large chunks (the default 64 MiB) make a bursty load: a foreground copy sees it only
when a burst overlaps it, so two tools that time copies differently can see different costs.
Small chunks (e.g. 4 MiB, a millisecond apart) spread the same rate evenly over time, so every
foreground copy of a few milliseconds or more shares the link alike. The cost either load imposes
on a foreground pinned copy is measured separately by pinned-bw.py in the same call, so a
detection claim rests on a reference figure."""
import sys
import time

import torch

rate = float(sys.argv[1]) * 1e9
seconds = float(sys.argv[2])
chunk = int(float(sys.argv[3]) * (1 << 20)) if len(sys.argv) > 3 else 64 << 20
h = torch.empty(chunk, dtype=torch.uint8).pin_memory()
d = torch.empty(chunk, dtype=torch.uint8, device="cuda")
stream = torch.cuda.Stream()
period = chunk / rate
start = time.time()
end = start + seconds
n = 0
while time.time() < end:
    with torch.cuda.stream(stream):
        d.copy_(h, non_blocking=True)
        h.copy_(d, non_blocking=True)
    stream.synchronize()
    n += 1
    wait = start + n * period - time.time()
    if wait > 0:
        time.sleep(wait)
elapsed = time.time() - start
print(f"copied {n} x {chunk >> 20} MiB each way in {elapsed:.1f} s = {n * chunk / elapsed / 1e9:.2f} GB/s each way")
