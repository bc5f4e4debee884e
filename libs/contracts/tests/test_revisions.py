"""One integer orders every reading and review of a page across full reprocesses."""

from skuflow_contracts.revisions import MAX_READING, is_review, machine_revision, outranks, review_revision


def test_a_later_generation_outranks_every_review_of_an_earlier_one():
    assert machine_revision(0) == 1 and review_revision(0, 0) == 2  # the numbers before reprocessing existed
    assert machine_revision(1) > review_revision(0, 997)
    assert machine_revision(0) < review_revision(0, 0) < review_revision(0, 1) < machine_revision(1)


def test_a_revision_says_whether_a_person_made_it():
    assert [is_review(r) for r in (1, 2, 5, 1001, 1002, 2001)] == [False, True, True, False, True, False]


def test_a_re_read_outranks_the_reading_before_it_but_never_a_review():
    first, reread = machine_revision(0), machine_revision(0, 1)
    review = review_revision(0, 0)
    assert (first, reread, review) == (1, 101, 2)
    assert outranks(reread, first) and not outranks(first, reread)
    assert outranks(review, reread) and not outranks(reread, review)  # a learned change never overwrites a person
    assert outranks(review_revision(0, 0, reading=1), review) or review_revision(0, 0, 1) > review
    assert outranks(machine_revision(1), review_revision(0, 3, reading=2))  # a full reprocess replaces everything
    assert [is_review(r) for r in (101, 102, 1101, 1102)] == [False, True, False, True]


def test_a_reading_past_the_room_of_a_generation_is_refused():
    import pytest

    with pytest.raises(ValueError):
        machine_revision(0, MAX_READING + 1)
