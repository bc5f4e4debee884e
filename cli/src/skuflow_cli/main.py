"""``skuflow``: extract a catalog in-process, make a sample catalog, mint a dev token, submit a job,
add a user, evaluate, train the page reader, export annotators' corrections, replay a page's trace."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import httpx

from skuflow_cli.golden.generator import add_generate_arguments
from skuflow_cli.golden.twins import add_twins_arguments
from skuflow_cli.llm import add_llm_commands
from skuflow_cli.ocr_model import add_ocr_model_command
from skuflow_cli.replay import add_replay_command
from skuflow_cli.training.commands import adaptation, add_training_commands, cross_validate
from skuflow_cli.training.corrections import add_corrections_commands
from skuflow_cli.users import add_user_commands
from skuflow_platform.auth import mint_token
from skuflow_platform.settings import PlatformSettings


def _extract(args: argparse.Namespace) -> int:
    from skuflow_cli.pipeline import extract_file
    from skuflow_output.domain.completion import valid_sku_count
    from skuflow_parser.domain.document import UnreadableDocument

    if not args.pdf.is_file():
        print(f"skuflow: no such file: {args.pdf}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        document, path = extract_file(args.pdf, args.out)
    except UnreadableDocument as exc:
        print(f"skuflow: cannot process {args.pdf}: {exc.message} [{exc.reason}]", file=sys.stderr)
        return 3
    seconds = time.perf_counter() - started
    pages = document.job.total_pages
    print(f"{path}: {pages} pages, {valid_sku_count(document)} SKUs, status {document.job.status}, "
          f"{pages / seconds:.1f} pages/s")
    return 0


def _sample(args: argparse.Namespace) -> int:
    from skuflow_cli.catalog import generate_catalog, truth_document

    truth = generate_catalog(args.out, pages=args.pages, seed=args.seed)
    truth_path = args.out.with_suffix(".truth.json")
    truth_path.write_text(json.dumps(truth_document(truth), ensure_ascii=False, indent=2))
    print(f"{args.out} ({args.pages} pages) and {truth_path}")
    return 0


def _token(args: argparse.Namespace) -> int:
    print(mint_token(user_id=args.user, merchant_id=args.merchant, secret=PlatformSettings().jwt_secret,
                     roles=tuple(args.roles.split(",")), ttl_seconds=args.ttl))
    return 0


ENDED_WITHOUT_RESULT = ("failed", "cancelled")  # user statuses after which a job delivers nothing more


def _submit(args: argparse.Namespace) -> int:
    """Upload through the gateway and wait for the job to finish, printing progress."""
    if not args.pdf.is_file():
        print(f"skuflow: no such file: {args.pdf}", file=sys.stderr)
        return 2
    token = mint_token(user_id=args.user, merchant_id=args.merchant, secret=PlatformSettings().jwt_secret)
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=args.gateway, headers=headers, timeout=60) as client:
        with args.pdf.open("rb") as handle:
            created = client.post("/api/v1/jobs", files={"file": (args.pdf.name, handle, "application/pdf")})
        if created.status_code != 201:
            print(f"skuflow: upload refused ({created.status_code}): {created.text}", file=sys.stderr)
            return 1
        job_id = created.json()["job_id"]
        print(f"job {job_id} created")
        deadline = time.monotonic() + args.timeout
        last = None
        while time.monotonic() < deadline:
            job = client.get(f"/api/v1/jobs/{job_id}").json()
            progress = (job["status"], job["completed_pages"], job["total_pages"])
            if progress != last:
                print(f"  {job['status']:<16} {job['completed_pages']}/{job['total_pages'] or '?'} pages")
                last = progress
            if job["result_available"] or job["user_status"] in ENDED_WITHOUT_RESULT:
                break
            time.sleep(0.5)
        else:
            print(f"skuflow: job {job_id} did not finish within {args.timeout}s", file=sys.stderr)
            return 1
    if job["user_status"] in ENDED_WITHOUT_RESULT:
        print(f"job {job_id} {job['user_status']}: {job['error_message'] or job['action_hint']}", file=sys.stderr)
        return 1
    result_path = PlatformSettings().storage_root.resolve() / "results" / job_id / "result.json"
    print(f"job {job_id} {job['status']}: {job['sku_count']} SKUs from {job['total_pages']} pages")
    print(f"result: {result_path}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    """Score a golden set; through the services with ``--via kafka`` (the report is then stored)."""
    import asyncio

    from skuflow_cli.evaluation.report import summary_table
    from skuflow_cli.evaluation.runner import evaluate, run_in_process, run_via_services
    from skuflow_cli.evaluation.store import store_report
    from skuflow_llm import LLMSettings

    if args.cross_validate:
        return cross_validate(args)
    if args.adaptation:
        return adaptation(args)
    if args.golden_dir is None:
        print("skuflow eval: give the golden set's directory (or --cross-validate batch)", file=sys.stderr)
        return 2
    settings = PlatformSettings()
    if args.llm and args.via == "kafka":
        print("skuflow eval: --llm runs in-process; the services read their own SKUFLOW_LLM_* settings",
              file=sys.stderr)
        return 2
    if args.via == "kafka":
        def run(documents):
            return asyncio.run(run_via_services(documents, gateway=args.gateway, secret=settings.jwt_secret,
                                                concurrency=args.concurrency))
    elif args.llm:
        llm = LLMSettings(recording_mode=args.llm, fixtures_dir=args.llm_fixtures, langfuse_enabled=False)

        def run(documents):
            return run_in_process(documents, llm)
    else:
        run = run_in_process
    report = evaluate(args.golden_dir, run, args.via, batch=args.batch)  # a set that is none: said by main
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2))
    print(summary_table(report))
    if args.via == "kafka":
        report_id = store_report(settings.database_url, report, config_version=settings.config_version)
        print(f"stored as evaluation.eval_reports id {report_id}")
    print(f"report: {args.out}")
    return _check_baseline(report, args)


def _check_baseline(report: dict, args: argparse.Namespace) -> int:
    from skuflow_cli.evaluation.gate import gated_figures, regressions

    if args.update_baseline and args.baseline is None:
        print("skuflow eval: --update-baseline needs --baseline FILE", file=sys.stderr)
        return 2
    if args.update_baseline:
        args.baseline.write_text(json.dumps(gated_figures(report), indent=2, sort_keys=True) + "\n")
        print(f"baseline written: {args.baseline}")
        return 0
    if args.baseline is None:
        return 0
    found = regressions(report, json.loads(args.baseline.read_text()))
    for line in found:
        print(f"REGRESSION {line}", file=sys.stderr)
    print(f"quality gate: {'FAILED' if found else 'passed'} against {args.baseline}")
    return 1 if found else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skuflow", description="PDF catalogs to image-bound SKU data")
    sub = parser.add_subparsers(dest="command", required=True)
    extract = sub.add_parser("extract", help="process one PDF in-process (no Kafka, no Postgres)")
    extract.add_argument("pdf", type=Path)
    extract.add_argument("--out", type=Path, required=True, help="directory for result.json and images/")
    extract.set_defaults(run=_extract)
    sample = sub.add_parser("sample-catalog", help="write a generated catalog PDF and its truth file")
    sample.add_argument("--out", type=Path, required=True)
    sample.add_argument("--pages", type=int, default=6)
    sample.add_argument("--seed", type=int, default=7)
    sample.set_defaults(run=_sample)
    token = sub.add_parser("token", help="mint a development JWT (SKUFLOW_JWT_SECRET)")
    token.add_argument("--merchant", default="demo-merchant")
    token.add_argument("--user", default="demo-user")
    token.add_argument("--ttl", type=int, default=3600)
    token.add_argument("--roles", default="merchant", help="comma-separated, e.g. admin or uploader,ops")
    token.set_defaults(run=_token)
    submit = sub.add_parser("submit", help="upload a PDF to the running gateway and wait for the result")
    submit.add_argument("pdf", type=Path)
    submit.add_argument("--gateway", default="http://127.0.0.1:8000")
    submit.add_argument("--merchant", default="demo-merchant")
    submit.add_argument("--user", default="demo-user")
    submit.add_argument("--timeout", type=float, default=300)
    submit.set_defaults(run=_submit)
    golden = sub.add_parser("golden", help="golden sets: labelled catalogs with exact truth")
    golden_sub = golden.add_subparsers(dest="golden_command", required=True)
    add_generate_arguments(golden_sub.add_parser("generate", help="write a generated golden set"))
    add_twins_arguments(golden_sub.add_parser("twins", help="scanned twins of a labelled set's born-digital "
                                              "documents (and, with --score, what scanning costs)"))
    evaluation = sub.add_parser("eval", help="score a golden set (GOLDEN_FORMAT §3) and write a report")
    evaluation.add_argument("golden_dir", type=Path, nargs="?", default=None)
    evaluation.add_argument("--out", type=Path, required=True, help="report.json to write")
    evaluation.add_argument("--via", choices=["in-process", "kafka"], default="in-process")
    evaluation.add_argument("--gateway", default="http://127.0.0.1:8000")
    evaluation.add_argument("--concurrency", type=int, default=4, help="documents in flight with --via kafka")
    evaluation.add_argument("--baseline", type=Path, default=None, help="fail if the report is worse than this")
    evaluation.add_argument("--update-baseline", action="store_true", help="write the report's figures to --baseline")
    evaluation.add_argument("--llm", choices=["record", "replay"], default=None,
                            help="with the LLM paths: record (providers from SKUFLOW_LLM_* keys) or replay fixtures")
    evaluation.add_argument("--llm-fixtures", type=Path, default=Path("tests/llm/fixtures"),
                            help="where --llm records or replays provider answers")
    evaluation.add_argument("--batch", default=None, help="only the real set's documents of this batch "
                            "(sources.json), e.g. the frozen batch measured once")
    evaluation.set_defaults(run=_eval)
    add_training_commands(sub, evaluation)
    add_llm_commands(sub.add_parser("llm", help="LLM providers: configuration and reachability"))
    add_user_commands(sub.add_parser("user", help="user accounts for the workbench and the API"))
    add_corrections_commands(sub.add_parser("corrections", help="annotators' corrections as labelled pages"))
    add_replay_command(sub)
    add_ocr_model_command(sub)
    return parser


def _unreachable(exc: httpx.TransportError) -> str:
    """Where a request that never got an answer was going (its URL, when httpx kept the request)."""
    try:
        return str(exc.request.url)
    except RuntimeError:  # raised by httpx when the error carries no request
        return "the server"


def main(argv: list[str] | None = None) -> int:
    """Run a command; what stops one for a reason outside the code (a path that is not there, a labelled set
    that is not one, a server or database that does not answer) is said in one line, not a traceback."""
    from sqlalchemy.exc import OperationalError

    from skuflow_cli.evaluation.golden import GoldenSetError

    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (FileNotFoundError, NotADirectoryError) as exc:
        print(f"skuflow: no such file or directory: {exc.filename}", file=sys.stderr)
        return 2
    except GoldenSetError as exc:
        print(f"skuflow: {exc}", file=sys.stderr)
        return 2
    except httpx.TransportError as exc:  # the gateway down, a wrong --gateway, a timeout
        print(f"skuflow: no answer from {_unreachable(exc)} ({type(exc).__name__}: {exc}); "
              "is the gateway running (`make up`) and --gateway right?", file=sys.stderr)
        return 4
    except OperationalError as exc:  # the commands that read or write the services' database
        print(f"skuflow: the database does not answer ({str(exc.orig).splitlines()[0]}); is Postgres running "
              "(`make infra-up`) and SKUFLOW_DATABASE_URL right?", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main())
