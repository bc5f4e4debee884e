"""The OCR tape: a scan read with it is read from the recorded answers, so another machine's engines
never decide what the training corpus says."""

import gzip
import json
import os

import numpy as np
from pdf_samples import scanned

from skuflow_parser.backends import ocr_backend, ocr_tape
from skuflow_parser.backends.pymupdf_backend import open_document


def test_a_scan_read_with_a_tape_is_recorded_once_then_read_from_the_recording(tmp_path):
    page = open_document(scanned())[0]
    with ocr_tape.playing(tmp_path):
        recorded = ocr_backend.ocr_page(page)
        held = sorted(tmp_path.glob("*/*.json.gz"))
        assert held and ocr_tape.recordings(tmp_path) == len(held)
        assert ocr_backend.ocr_page(page).blocks == recorded.blocks  # replayed: the same page
        assert ocr_tape.recordings(tmp_path) == len(held)  # and nothing recorded again
        # what the tape says is what the page reads: an answer changed on the tape changes the page
        for path in held:
            answer = json.loads(gzip.decompress(path.read_bytes()))
            if isinstance(answer, list):
                for line in answer:
                    line[1] = line[1].replace("SF-0012", "SF-0099")
                    line[3] = [[word.replace("SF-0012", "SF-0099"), at] for word, at in line[3]]
            path.write_bytes(gzip.compress(json.dumps(answer, ensure_ascii=False).encode()))
        replayed = " ".join(block.text for block in ocr_backend.ocr_page(page).blocks)
    assert "SF-0012" in " ".join(block.text for block in recorded.blocks)
    assert "SF-0099" in replayed and "SF-0012" not in replayed
    assert ocr_tape.TAPE_ENV not in os.environ  # the tape is put away after


def test_an_answer_is_keyed_by_every_pixel_and_argument_of_its_call():
    image = np.zeros((4, 5, 3), dtype=np.uint8)
    other = image.copy()
    other[3, 4, 2] = 1
    key = ocr_tape.call_key("rapidocr.read", image, [True, 1536, 6])
    assert key == ocr_tape.call_key("rapidocr.read", image.copy(), [True, 1536, 6])
    assert len({key, ocr_tape.call_key("rapidocr.read", other, [True, 1536, 6]),
                ocr_tape.call_key("rapidocr.read", image, [False, 1536, 6]),
                ocr_tape.call_key("tesseract", image, [True, 1536, 6]),
                ocr_tape.call_key("rapidocr.read", image.reshape(5, 4, 3), [True, 1536, 6])}) == 5


def test_without_a_tape_the_engines_answer_every_call():
    asked = []
    with ocr_tape.playing(None):
        for _ in range(2):
            assert ocr_tape.played("tesseract", np.zeros((2, 2), np.uint8), [], lambda: asked.append(1) or "x") == "x"
    assert asked == [1, 1]  # nothing recorded, nothing replayed
