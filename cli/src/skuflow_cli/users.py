"""``skuflow user add``: create a login (annotators, team leads, uploaders) in the gateway's schema."""

from __future__ import annotations

import argparse
import getpass
import sys
import uuid

import sqlalchemy as sa

from skuflow_platform.access import ROLES
from skuflow_platform.settings import PlatformSettings


def _add(args: argparse.Namespace) -> int:
    from skuflow_gateway.domain.accounts import AccountError, check_new_account, hash_password
    from skuflow_gateway.service import definition
    from skuflow_gateway.tables import users
    from skuflow_platform.db import migrate

    password = sys.stdin.readline().rstrip("\n") if args.password_stdin else getpass.getpass("password: ")
    roles = args.role or ["annotator"]
    try:
        check_new_account(args.username, password, roles)
    except AccountError as exc:
        print(f"skuflow: {exc}", file=sys.stderr)
        return 2
    url = PlatformSettings().database_url
    migrate(url, definition.schema, definition.versions_dir)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            if conn.execute(sa.select(users.c.user_id).where(users.c.username == args.username)).first():
                print(f"skuflow: user {args.username!r} exists", file=sys.stderr)
                return 2
            user_id = str(uuid.uuid4())
            conn.execute(users.insert().values(user_id=user_id, merchant_id=args.merchant, username=args.username,
                                               password_hash=hash_password(password), roles=roles))
    finally:
        engine.dispose()
    print(f"user {args.username} ({', '.join(roles)}) of merchant {args.merchant}: {user_id}")
    return 0


def add_user_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="user_command", required=True)
    add = sub.add_parser("add", help="create a user who logs in at POST /api/v1/auth/login")
    add.add_argument("username")
    add.add_argument("--merchant", required=True, help="the merchant whose data the user works on")
    add.add_argument("--role", action="append", choices=ROLES, help="repeat for several roles (default annotator)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from stdin, not a prompt")
    add.set_defaults(run=_add)
