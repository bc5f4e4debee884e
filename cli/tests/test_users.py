"""``skuflow user add`` on the real Postgres: the account rules, and a login that then works."""

import io

import pytest
import sqlalchemy as sa

from skuflow_cli.main import main
from skuflow_gateway.domain.accounts import AccountError, check_new_account, password_matches
from skuflow_gateway.tables import users


@pytest.mark.parametrize("username, password, roles", [
    ("ab", "long enough 1", ["annotator"]), ("ann", "short 1", ["annotator"]), ("ann", "onlyletterss", ["annotator"]),
    ("ann", "1234567890123", ["annotator"]), ("ann", "long enough 1", ["root"]), ("ann", "long enough 1", []),
    ("a n", "long enough 1", ["annotator"]),
])
def test_names_passwords_and_roles_that_are_refused(username, password, roles):
    with pytest.raises(AccountError):
        check_new_account(username, password, roles)


def test_user_add_stores_a_hashed_password_once(database_url, monkeypatch, capsys):
    monkeypatch.setenv("SKUFLOW_DATABASE_URL", database_url)
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse 1\n"))
    assert main(["user", "add", "zoe", "--merchant", "m9", "--role", "annotator", "--role", "team_lead",
                 "--password-stdin"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse 1\n"))
    assert main(["user", "add", "zoe", "--merchant", "m9", "--password-stdin"]) == 2
    assert "exists" in capsys.readouterr().err
    engine = sa.create_engine(database_url)
    with engine.connect() as conn:
        row = conn.execute(sa.select(users).where(users.c.username == "zoe")).one()
    engine.dispose()
    assert row.merchant_id == "m9" and row.roles == ["annotator", "team_lead"]
    assert "correct horse" not in row.password_hash and password_matches(row.password_hash, "correct horse 1")
