"""Quality gate: the committed golden sets must score at least as well as ``baseline.json``.

Raise the baseline with any change that improves quality:
``skuflow eval tests/golden --out report.json --baseline tests/golden/baseline.json --update-baseline``.
"""

import json
from pathlib import Path

from skuflow_cli.evaluation.gate import regressions
from skuflow_cli.evaluation.report import summary_table
from skuflow_cli.evaluation.runner import evaluate

GOLDEN = Path(__file__).parent


def test_the_golden_sets_score_at_least_the_baseline(read_in_process):
    report = evaluate(GOLDEN, read_in_process, "in-process")
    print(summary_table(report))
    assert report["documents"] >= 40 and report["pages"] >= 300
    assert regressions(report, json.loads((GOLDEN / "baseline.json").read_text())) == []
