#!/usr/bin/env python3
"""Extracts the launches a list names from the committed campaign tarballs, for re-reading them
with `fabricgate calibrate --by-session` or `tools/session_replay.py`.

  tools/extract_listed_launches.py PLATFORM_RESULTS LIST OUT

PLATFORM_RESULTS is results/<platform>; LIST has one launch per line, as
results/cpu-intel-xeon-c2/sessions-s8/launches-used.txt writes them: either
"<campaign>/runs <run id>" (the member runs/<platform>/<run id> of <campaign>/runs.tar.gz) or
"<campaign>/<tarball>.tar.gz/<member dir>". Each launch lands in OUT/<platform>/<run id>/ without its
confirmation launches, which are not launches of their own."""
import sys
import tarfile
from pathlib import Path


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    root, listing, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    platform = root.name
    tarballs = {}
    count = 0
    for line in listing.read_text().splitlines():
        if not line.strip():
            continue
        where, *rest = line.split()
        if ".tar.gz/" in where:
            tgz, member = where.split(".tar.gz/", 1)
            tgz += ".tar.gz"
        else:
            tgz, member = f"{where.split('/')[0]}/runs.tar.gz", f"runs/{platform}/{rest[0]}"
        archive = tarballs.setdefault(tgz, tarfile.open(root / tgz))
        run_id = member.rstrip("/").split("/")[-1]
        prefix = member.rstrip("/") + "/"
        for m in archive.getmembers():
            inner = m.name[len(prefix):]
            if m.isfile() and m.name.startswith(prefix) and not inner.startswith("confirm"):
                target = out / platform / run_id / inner
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.extractfile(m).read())
        count += 1
    print(f"{count} launches in {out / platform}")


if __name__ == "__main__":
    main()
