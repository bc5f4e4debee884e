"""What make bench reports beside its figures."""

from skuflow_cli.bench import cpu_times, stolen_share


def test_the_stolen_share_is_steal_over_all_cpu_time_between_two_readings():
    before = [100, 0, 50, 800, 0, 0, 0, 50]
    after = [130, 0, 60, 860, 0, 0, 0, 100]  # 10 + 30 + 60 + 50 spent, 50 of it stolen
    assert stolen_share(before, after) == 50 / 150
    assert stolen_share(before, before) == 0.0


def test_the_machine_s_cpu_counters_are_read_and_only_grow():
    first, second = cpu_times(), cpu_times()
    assert len(first) == 8 and all(b >= a for a, b in zip(first, second, strict=True))
