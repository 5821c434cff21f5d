#!/usr/bin/env python3
"""Is a PNG screenshot blank? Decodes it with zlib and struct only (no imaging library on CI
runners) and counts distinct colours and pixels that differ from the background (the colour of
the top-left pixel). Exit 0 when both exceed the given minimums, 1 when the image looks blank,
2 when the file is not a PNG this checker can read. Prints the figures either way.

usage: png_check.py FILE [--min-colours N] [--min-foreground FRACTION]
"""
import argparse
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # grey, RGB, grey+alpha, RGBA


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path}: not a PNG (bad signature)")
    pos, header, idat = len(SIGNATURE), None, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None or not idat:
        raise ValueError(f"{path}: no IHDR or IDAT chunk")
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in CHANNELS or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {colour_type}, interlace {interlace})")
    return width, height, CHANNELS[colour_type], zlib.decompress(b"".join(idat))


def unfilter_rows(width, height, bpp, raw):
    """Yields each row's bytes after undoing the PNG filters (RFC 2083, section 6)."""
    stride = width * bpp
    previous = bytearray(stride)
    pos = 0
    for _ in range(height):
        kind = raw[pos]
        row = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 0xFF
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, previous))
        elif kind == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        elif kind != 0:
            raise ValueError(f"unknown PNG filter type {kind}")
        yield bytes(row)
        previous = row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--min-colours", type=int, default=16)
    parser.add_argument("--min-foreground", type=float, default=0.01)
    args = parser.parse_args()
    try:
        width, height, bpp, raw = read_png(args.file)
        colours, foreground, background = set(), 0, None
        for row in unfilter_rows(width, height, bpp, raw):
            pixels = [row[i:i + bpp] for i in range(0, len(row), bpp)]
            if background is None:
                background = pixels[0]
            colours.update(pixels)
            foreground += sum(1 for p in pixels if p != background)
    except (OSError, ValueError, zlib.error) as e:
        print(f"png_check: {e}", file=sys.stderr)
        return 2
    share = foreground / float(width * height)
    print(f"png_check: {args.file}: {width}x{height}, {len(colours)} distinct colours, "
          f"{share:.1%} of pixels differ from the background {background.hex()}")
    if len(colours) < args.min_colours or share < args.min_foreground:
        print(f"png_check: looks blank (need >= {args.min_colours} colours and >= {args.min_foreground:.1%} "
              "foreground)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
