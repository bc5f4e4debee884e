"""``python -m skuflow_cli.golden generate --out DIR --seed N [--documents K]``."""

from __future__ import annotations

import argparse
import sys

from skuflow_cli.golden.generator import add_generate_arguments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skuflow_cli.golden", description="golden sets for skuflow")
    sub = parser.add_subparsers(dest="command", required=True)
    add_generate_arguments(sub.add_parser("generate", help="write a generated golden set (PDFs and truth files)"))
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
