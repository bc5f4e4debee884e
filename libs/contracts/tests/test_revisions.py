"""One integer orders every reading and review of a page across full reprocesses."""

from skuflow_contracts.revisions import is_review, machine_revision, review_revision


def test_a_later_generation_outranks_every_review_of_an_earlier_one():
    assert machine_revision(0) == 1 and review_revision(0, 0) == 2  # the numbers before reprocessing existed
    assert machine_revision(1) > review_revision(0, 997)
    assert machine_revision(0) < review_revision(0, 0) < review_revision(0, 1) < machine_revision(1)


def test_a_revision_says_whether_a_person_made_it():
    assert [is_review(r) for r in (1, 2, 5, 1001, 1002, 2001)] == [False, True, True, False, True, False]
