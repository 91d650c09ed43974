"""The main job on a folder of images, through the engine's CLI.

For each PNG: prints the backend and the statistics of every channel, and
writes an equalized copy (each colour channel, as OpenCV's equalizeHist)
and a binarized copy (Otsu on luminance, or on the gray value) as PNG.

    python3 scripts/run_testimages.py CLI INPUT_DIR OUTPUT_DIR
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

TUPLTYPES = {1: "GRAYSCALE", 2: "GRAYSCALE_ALPHA", 3: "RGB", 4: "RGB_ALPHA"}


def to_pam(png, pam):
    img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    if img.ndim == 3:
        code = cv2.COLOR_BGRA2RGBA if img.shape[2] == 4 else cv2.COLOR_BGR2RGB
        img = cv2.cvtColor(img, code)
    h, w = img.shape[:2]
    depth = 1 if img.ndim == 2 else img.shape[2]
    header = (f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH {depth}\nMAXVAL 255\n"
              f"TUPLTYPE {TUPLTYPES[depth]}\nENDHDR\n")
    pam.write_bytes(header.encode() + img.astype(np.uint8).tobytes())


def pam_to_png(pam, png):
    data = pam.read_bytes()
    end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    fields = dict(line.split(" ", 1) for line in data[:end].decode().split("\n")[1:-2])
    w, h, d = int(fields["WIDTH"]), int(fields["HEIGHT"]), int(fields["DEPTH"])
    img = np.frombuffer(data[end:], np.uint8).reshape(h, w, d)
    if d >= 3:
        img = cv2.cvtColor(img, cv2.COLOR_RGBA2BGRA if d == 4 else cv2.COLOR_RGB2BGR)
    cv2.imwrite(str(png), img)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cli, src, dst = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    dst.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for png in sorted(src.glob("*.png")):
            pam, eq, bw = tmp / "in.pam", tmp / "eq.pam", tmp / "bw.pam"
            to_pam(png, pam)
            run = subprocess.run([cli, str(pam), "--equalize", str(eq), "--binarize", str(bw)],
                                 capture_output=True, text=True)
            if run.returncode:
                sys.exit(f"{png}: {run.stderr.strip()}")
            print(f"== {png.name}\n{run.stdout}", end="")
            pam_to_png(eq, dst / f"{png.stem}-equalized.png")
            pam_to_png(bw, dst / f"{png.stem}-binarized.png")
    print(f"equalized and binarized copies are in {dst}/")


if __name__ == "__main__":
    main()
