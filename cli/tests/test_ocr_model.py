"""`skuflow ocr-model`: PP-OCR's detector quantized from pages, and a clear refusal without them."""

import numpy as np
import onnxruntime
import pymupdf
import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.main import main
from skuflow_cli.ocr_model import detector_inputs, float_detector, quantize


def test_the_quantized_detector_sees_text_where_the_float_one_does(tmp_path):
    """Calibrated on one catalog page, the int8 detector's text map of another page agrees with the float
    detector's on nearly every pixel, in under a third of the file's size."""
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=2, seed=3)
    document = pymupdf.open(pdf)
    out = quantize([document[0]], tmp_path / "det.onnx")
    assert out.stat().st_size < float_detector().stat().st_size / 3
    [page] = detector_inputs([document[1]])
    maps = [onnxruntime.InferenceSession(str(model)).run(None, {"x": page})[0] > 0.3
            for model in (float_detector(), out)]
    assert maps[0].mean() > 0.01  # the page has text to find
    assert np.mean(maps[0] == maps[1]) > 0.98 and (maps[0] & maps[1]).sum() > 0.8 * maps[0].sum()


def test_missing_calibration_documents_are_named(tmp_path):
    listing = tmp_path / "pages.txt"
    listing.write_text("# a comment\nno_such_scan_zh  # why it is there\n", encoding="utf-8")
    (tmp_path / "committed").mkdir()
    with pytest.raises(SystemExit, match=r"not found .*: no_such_scan_zh$"):
        main(["ocr-model", "--calibration", str(listing), "--real", str(tmp_path), "--out", str(tmp_path / "d.onnx")])
    assert not (tmp_path / "d.onnx").exists()
