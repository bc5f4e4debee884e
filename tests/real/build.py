"""Rebuild the real-catalog PDFs from their public origins (``sources.json``).

Each source names a public file (repository, commit, path, SHA-256) and the pages taken from it.
The script finds the original in the directories given with ``--originals`` (matched by its
SHA-256) or, with ``--download``, fetches it from raw.githubusercontent.com at that commit, checks
its hash, and writes ``<set>/<name>.pdf`` holding the chosen pages in order (a photo becomes a
one-page PDF, shown as taken: set upright by its EXIF orientation). The truth files beside them number
pages 1..n in that order.

    python tests/real/build.py --download                 # every external document
    python tests/real/build.py --originals ~/catalogs     # from files already downloaded
    python tests/real/build.py --mirrors /work/.mirror    # from git mirrors (owner+name/repo)
    python tests/real/build.py --committed --originals …  # also (re)write the committed PDFs

External documents are licensed in ways that do not let us commit them; they are checked outside
CI (``skuflow eval tests/real``). Committed ones are in CI's quality gate.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pymupdf
from PIL import Image

HERE = Path(__file__).parent
IMAGE_DPI = 144  # a photo's page size assumes this resolution (a phone photo or a scan of ~A4)
EXIF_ORIENTATION = 0x0112
TURNS = {3: 180, 6: 270, 8: 90}  # EXIF orientation → degrees anticlockwise that set the photo upright


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _originals(directories: list[Path]) -> dict[str, Path]:
    """Every file below the directories, by SHA-256 (each hashed once, however many sources)."""
    return {_sha256(path.read_bytes()): path for directory in directories for path in directory.rglob("*")
            if path.is_file() and path.stat().st_size < 50_000_000}


def _from_mirror(source: dict, mirrors: Path) -> bytes | None:
    """The original from a git mirror of its repository (``<owner>+<name>/repo``, bare or not), as
    the workplace's ``fetch`` leaves them: no network, and the commit is the one recorded."""
    repo = mirrors / source["repo"].replace("/", "+") / "repo"
    git_dir = repo / ".git" if (repo / ".git").is_dir() else repo
    if not git_dir.is_dir():
        return None
    shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{source['commit']}:{source['path']}"],
                           capture_output=True, check=False)
    return shown.stdout if shown.returncode == 0 else None


def _download(source: dict) -> bytes:
    url = f"https://raw.githubusercontent.com/{source['repo']}/{source['commit']}/{source['path']}"
    with urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": "skuflow-real-set"}),
                                timeout=120) as response:
        return response.read()


def upright_turn(data: bytes) -> int:
    """How far a phone photo's pixels are turned to show it as taken: its EXIF orientation, which photo
    viewers and the tools that make a PDF of a photo obey, and a PDF's picture does not."""
    with Image.open(io.BytesIO(data)) as picture:
        return TURNS.get(picture.getexif().get(EXIF_ORIENTATION, 1), 0)


def build_pdf(data: bytes, original: str, pages: list[int]) -> bytes:
    """The chosen pages of a PDF, or a photo as a one-page PDF."""
    out = pymupdf.open()
    if original.lower().endswith((".jpg", ".jpeg", ".png")):
        picture = pymupdf.open(stream=data, filetype=original.rsplit(".", 1)[1])
        width, height = picture[0].rect.width, picture[0].rect.height
        scale = 72 / IMAGE_DPI
        page = out.new_page(width=width * scale, height=height * scale)
        page.insert_image(page.rect, stream=data, rotate=upright_turn(data))
    else:
        source = pymupdf.open(stream=data, filetype="pdf")
        for number in pages:
            out.insert_pdf(source, from_page=number - 1, to_page=number - 1)
    return out.tobytes(garbage=3, deflate=True, no_new_id=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--originals", type=Path, action="append", default=[], help="directory holding originals")
    parser.add_argument("--mirrors", type=Path, help="directory of git mirrors, <owner>+<name>/repo")
    parser.add_argument("--download", action="store_true", help="fetch originals from GitHub")
    parser.add_argument("--committed", action="store_true", help="also write the committed PDFs")
    parser.add_argument("--only", action="append", default=[], help="build only these names")
    args = parser.parse_args(argv)
    sources = json.loads((HERE / "sources.json").read_text(encoding="utf-8"))
    originals = _originals(args.originals)
    missing = []
    for n, source in enumerate(sources, start=1):
        if (source["committed"] and not args.committed) or (args.only and source["name"] not in args.only):
            continue
        target = HERE / ("committed" if source["committed"] else "external") / f"{source['name']}.pdf"
        print(f"[{n}/{len(sources)}] {source['name']}: ", end="", flush=True)
        found = originals.get(source["sha256"])
        data = found.read_bytes() if found else None
        if data is None and args.mirrors:
            data = _from_mirror(source, args.mirrors)
        if data is None and args.download:
            try:
                data = _download(source)
            except OSError as exc:
                print(f"download failed ({exc})")
                missing.append(source["name"])
                continue
        if data is None or _sha256(data) != source["sha256"]:
            print("original not found" if data is None else "original has a different SHA-256")
            missing.append(source["name"])
            continue
        target.write_bytes(build_pdf(data, source["original"], source["pages"]))
        print(f"{len(source['pages'])} pages → {target.relative_to(HERE)}")
    if missing:
        print(f"not built: {', '.join(missing)}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
