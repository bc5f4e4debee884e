"""``skuflow llm check``: which LLM providers are configured and reachable, without spending tokens."""

from __future__ import annotations

import argparse
import asyncio


def _check(args: argparse.Namespace) -> int:
    """Exit 0 when every configured provider answers (or none is configured: the pipeline runs without LLMs)."""
    from skuflow_llm.check import check_providers, check_shared_state  # the providers' SDKs: seconds to import
    from skuflow_llm.settings import LLMSettings

    settings = LLMSettings()
    checks = asyncio.run(check_providers(settings))
    for check in checks:
        status = "reachable" if check.reachable else ("UNREACHABLE" if check.configured else "not configured")
        print(f"{check.name:<26} {check.model:<22} {status:<15} {check.endpoint}  {check.detail}")
    if settings.state_database_url:
        state = asyncio.run(check_shared_state(settings.state_database_url))
        print(f"{'shared state (Postgres)':<26} {'':<22} {state}")
    if not any(check.configured for check in checks):
        print("no LLM provider configured: the pipeline uses its deterministic engines")
    return 1 if any(check.configured and not check.reachable for check in checks) else 0


def add_llm_commands(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="llm_command", required=True)
    check = commands.add_parser("check", help="say which providers are configured and reachable (spends nothing)")
    check.set_defaults(run=_check)
