# SPDX-License-Identifier: GPL-3.0-or-later
"""8-bit images for the tests: PNG in (through OpenCV), netpbm out and in.

Shared by the parity tests, which drive the CLI with netpbm files.
"""
import numpy as np
import cv2

TUPLTYPES = {1: "GRAYSCALE", 2: "GRAYSCALE_ALPHA", 3: "RGB", 4: "RGB_ALPHA"}


def load_png(path):
    """8-bit PNG as an array in file order: gray, gray+alpha, RGB or RGBA."""
    a = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if a is None or a.dtype != np.uint8:
        raise SystemExit(f"{path}: not an 8-bit image cv2 can read")
    if a.ndim == 2:
        return a
    if a.shape[2] == 3:
        return a[..., ::-1]  # cv2 gives BGR
    rgba = a[..., [2, 1, 0, 3]]
    # cv2 expands gray+alpha to BGRA; the PNG colour type (IHDR byte 25) tells them apart
    return rgba[..., [0, 3]] if path.read_bytes()[25] == 4 else rgba



def write_pnm(path, a):
    """Gray as P5, RGB as P6, with alpha as P7 (PAM)."""
    h, w = a.shape[:2]
    depth = 1 if a.ndim == 2 else a.shape[2]
    if depth in (1, 3):
        header = f"P{5 if depth == 1 else 6}\n{w} {h}\n255\n"
    else:
        header = (f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH {depth}\nMAXVAL 255\n"
                  f"TUPLTYPE {TUPLTYPES[depth]}\nENDHDR\n")
    path.write_bytes(header.encode() + np.ascontiguousarray(a).tobytes())



def read_pnm(path):
    """Return (kind, array) for 8-bit P5/P6/P7; kind is "P5", "P6" or "P7 <TUPLTYPE>"."""
    data = path.read_bytes()
    if data.startswith(b"P7\n"):
        end = data.index(b"ENDHDR\n")
        fields = dict(line.split(" ", 1) for line in data[3:end].decode().splitlines()
                      if line and not line.startswith("#"))
        w, h, depth = int(fields["WIDTH"]), int(fields["HEIGHT"]), int(fields["DEPTH"])
        if fields["MAXVAL"] != "255":
            raise ValueError(f"{path}: MAXVAL {fields['MAXVAL']}")
        a = np.frombuffer(data, np.uint8, w * h * depth, end + 7).reshape(h, w, depth)
        return f"P7 {fields['TUPLTYPE']}", a[..., 0] if depth == 1 else a
    tokens, pos = [], 0
    while len(tokens) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        tokens.append(data[start:pos].decode())
    magic, w, h, maxval = tokens
    if magic not in ("P5", "P6") or maxval != "255":
        raise ValueError(f"{path}: unsupported header {tokens}")
    w, h = int(w), int(h)
    depth = 1 if magic == "P5" else 3
    a = np.frombuffer(data, np.uint8, w * h * depth, pos + 1)
    return magic, a.reshape(h, w) if depth == 1 else a.reshape(h, w, 3)

