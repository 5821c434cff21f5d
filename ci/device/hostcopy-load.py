#!/usr/bin/env python3
"""hostcopy-load.py SECONDS [MIB]: the injected host-copy regression of the device scripts.

Copies a pinned host buffer of MIB MiB (default 256) to the GPU and back, over and over, for SECONDS (bounded),
so a fabricgate run on the same GPU competes for the PCIe link and the copy engines."""
import sys
import time

import torch

seconds = float(sys.argv[1])
size = int(sys.argv[2]) << 20 if len(sys.argv) > 2 else 256 << 20
h = torch.empty(size, dtype=torch.uint8).pin_memory()
d = torch.empty(size, dtype=torch.uint8, device="cuda")
end = time.time() + seconds
n = 0
while time.time() < end:
    d.copy_(h, non_blocking=True)
    h.copy_(d, non_blocking=True)
    n += 2
    if n % 64 == 0:
        torch.cuda.synchronize()
torch.cuda.synchronize()
print("copies", n)
