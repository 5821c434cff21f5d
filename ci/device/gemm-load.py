#!/usr/bin/env python3
"""gemm-load.py SECONDS [N]: a foreign compute process on the GPU for the busy-GPU tests
(docs/COUNTERS.md): bf16 N x N matrix products back to back for SECONDS (bounded), printing how many it did.
It shares the GPU with fabricgate's launch the way a leftover training job would."""
import sys
import time

import torch

seconds = float(sys.argv[1])
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
end = time.time() + seconds
done = 0
while time.time() < end:
    for _ in range(10):
        c = a @ b
    torch.cuda.synchronize()
    done += 10
print(f"{done} bf16 {n}x{n} products in {seconds:.0f} s = {2 * n**3 * done / seconds / 1e12:.0f} TFLOP/s")
