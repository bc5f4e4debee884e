"""The real-catalog set: its records are consistent, and its committed part scores at least its baseline.

Raise the baseline with any change that improves it:
``skuflow eval tests/real/committed --out r.json --baseline tests/real/baseline.json --update-baseline``.
"""

import io
import json
import subprocess
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from skuflow_cli.evaluation.gate import regressions
from skuflow_cli.evaluation.report import summary_table
from skuflow_cli.evaluation.runner import evaluate
from tests.real import build

REAL = Path(__file__).parent
SOURCES = json.loads((REAL / "sources.json").read_text(encoding="utf-8"))
COMMITTABLE = ("MIT", "Apache-2.0", "BSD", "CC-BY", "CC0", "public-domain")


@pytest.mark.parametrize("source", SOURCES, ids=[s["name"] for s in SOURCES])
def test_every_source_has_a_truth_file_with_one_page_per_page_taken(source):
    folder = REAL / ("committed" if source["committed"] else "external")
    truth = json.loads((folder / f"{source['name']}.truth.json").read_text(encoding="utf-8"))
    assert [p["page"] for p in truth["pages"]] == list(range(1, len(source["pages"]) + 1))
    assert [p["original_page"] for p in truth["pages"]] == source["pages"]
    assert truth["split"] == source["split"] and truth["source_kind"] == source["kind"]
    assert (folder / f"{source['name']}.pdf").is_file() or not source["committed"]


def test_only_permissively_licensed_documents_are_committed_and_all_are_listed():
    listed = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    for source in SOURCES:
        assert f"`{source['name']}`" in listed
        if source["committed"]:
            assert source["licence"].startswith(COMMITTABLE), source["name"]
    assert {p.stem for p in (REAL / "committed").glob("*.pdf")} == {s["name"] for s in SOURCES if s["committed"]}


def test_the_set_is_as_large_and_as_varied_as_promised():
    pages = sum(len(s["pages"]) for s in SOURCES)
    chinese = sum(len(s["pages"]) for s in SOURCES if s["language"].startswith("zh"))
    assert len(SOURCES) >= 25 and pages >= 80 and chinese * 3 >= pages
    assert len({s["publisher"] for s in SOURCES}) >= 15
    assert len({s["language"][:2] for s in SOURCES if not s["language"].startswith("zh")}) >= 5
    holdout = [s for s in SOURCES if s["split"] == "holdout"]
    drawn_from = [s for s in SOURCES if s["batch"] == 1]  # batch 2 came later: measured untouched, then tuned on
    assert len(holdout) * 5 >= len(drawn_from) - 1


def test_the_committed_real_catalogs_score_at_least_their_baseline(read_in_process):
    report = evaluate(REAL / "committed", read_in_process, "in-process")
    print(summary_table(report))
    assert report["overall"]["silent_loss"]["rate"] == 0
    assert regressions(report, json.loads((REAL / "baseline.json").read_text())) == []


def test_a_document_is_built_from_its_git_mirror_the_same_bytes_every_time(tmp_path):
    original = pymupdf.open()
    for n in range(3):
        original.new_page().insert_text((72, 72), f"page {n + 1}: A-10{n} 12.50")
    data = original.tobytes()
    work = tmp_path / "work"
    work.mkdir()
    (work / "list.pdf").write_bytes(data)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run([*git, "add", "list.pdf"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "a price list"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirrors / "shop+site" / "repo")], check=True)
    source = {"repo": "shop/site", "commit": commit, "path": "list.pdf"}

    assert build._from_mirror(source, mirrors) == data
    assert build._from_mirror({**source, "path": "gone.pdf"}, mirrors) is None
    assert build._from_mirror({**source, "repo": "other/site"}, mirrors) is None
    first, again = build.build_pdf(data, "list.pdf", [3, 1]), build.build_pdf(data, "list.pdf", [3, 1])
    assert first == again
    assert [p.get_text().split(":")[0] for p in pymupdf.open(stream=first)] == ["page 3", "page 1"]


def test_a_phone_photo_is_built_as_it_was_taken_not_as_its_pixels_are_stored():
    """A camera stores a photo taken upright as turned pixels and an EXIF orientation (6: turn clockwise)."""
    stored = Image.new("RGB", (400, 200), "white")  # stored lying: 400 wide, shown 200 wide and 400 high
    stored.paste("black", (0, 0, 40, 200))  # the ink at the stored left shows at the top once turned
    exif = stored.getexif()
    exif[build.EXIF_ORIENTATION] = 6
    out = io.BytesIO()
    stored.save(out, "JPEG", exif=exif)
    page = pymupdf.open(stream=build.build_pdf(out.getvalue(), "menu.jpg", [1]))[0]
    assert page.rect.width < page.rect.height
    assert pymupdf.Rect(page.get_image_info()[0]["bbox"]) == page.rect  # the photo fills its page
    pixels = page.get_pixmap(dpi=36)
    top, bottom = pixels.pixel(pixels.width // 2, 2), pixels.pixel(pixels.width // 2, pixels.height - 3)
    assert max(top) < 80 < min(bottom)
