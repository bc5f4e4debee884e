"""Upload checks and the user-facing status map of seed-001b §2.2."""

import pytest

from skuflow_gateway.domain.jobs import (
    UploadLimits,
    UploadRejected,
    action_hint,
    check_upload,
    pages_done,
    route_inconsistency,
    user_status,
)

LIMITS = UploadLimits(max_bytes=1000)


@pytest.mark.parametrize("head, size, status", [
    (b"", 0, 400), (b"%PDF-1.7", 1001, 413), (b"GIF89a", 10, 415), (b"\x00" * 2000 + b"%PDF-", 2005, 413),
])
def test_bad_uploads_are_rejected_with_the_right_status(head, size, status):
    with pytest.raises(UploadRejected) as caught:
        check_upload(head, size, LIMITS)
    assert caught.value.status_code == status


def test_a_pdf_header_after_a_little_junk_is_accepted():
    check_upload(b"\r\n%PDF-1.4 ...", 500, LIMITS)


@pytest.mark.parametrize("internal, shown", [
    ("EVALUATING", "processing"), ("PARTIAL_IMPORTED", "partial_success"), ("FULL_IMPORTED", "completed"),
    ("DEGRADED_HUMAN", "needs_manual"), ("REJECTED", "failed"), ("CANCELLED", "cancelled"),
    ("SOMETHING_NEW", "processing"),
])
def test_internal_statuses_map_to_six_user_statuses(internal, shown):
    """The seed's five, and a cancel, which is the user's doing and no failure."""
    assert user_status(internal) == shown


def test_a_cancel_says_it_was_the_users_and_what_it_delivered_before():
    assert action_hint("cancelled") == "cancelled by the user; delivery is being stopped"
    assert action_hint("cancelled", 0) == "cancelled by the user before any SKU was delivered"
    assert action_hint("cancelled", 102) == "cancelled by the user after 102 SKUs were delivered; that result is " \
                                             "downloadable"
    assert action_hint("failed", 3) == "please check and re-upload"


def test_a_job_closed_by_output_counts_every_page_even_before_the_last_page_event_arrives():
    assert pages_done(True, 4, 6) == 6
    assert pages_done(True, 5, 6) == 6
    assert pages_done(False, 4, 6) == 4
    assert pages_done(False, 0, None) == 0


def test_the_gateway_refuses_to_start_in_a_deployment_with_the_development_secret():
    from skuflow_gateway.service import definition
    from skuflow_platform.runtime import build_app
    from skuflow_platform.settings import InsecureConfiguration, PlatformSettings

    with pytest.raises(InsecureConfiguration, match="SKUFLOW_JWT_SECRET"):
        build_app(definition, PlatformSettings(env="staging"))


def test_a_job_with_failed_pages_says_which_and_why():
    from skuflow_gateway.domain.jobs import error_message

    assert error_message(None, [], 4) is None
    assert error_message("security:encrypted_pdf", [], None).startswith("PDF is encrypted")
    message = error_message(None, [(2, "parse_failed:page_timeout")], 4)
    assert message == "1 of 4 pages could not be processed (page 2: parse_failed:page_timeout)"
    many = error_message(None, [(n, "boom") for n in range(1, 9)], 8)
    assert many.endswith("page 5: boom; and 3 more)")


def test_the_route_and_its_degrade_reason_must_agree():
    assert route_inconsistency("AUTO", None) is None and route_inconsistency("HYBRID", None) is None
    assert route_inconsistency("HUMAN_ALL", "low_confidence") is None
    assert route_inconsistency("AUTO", "low_confidence") == "INV-11_violated"
    assert route_inconsistency("HUMAN_ALL", None) == "route_human_no_reason"



