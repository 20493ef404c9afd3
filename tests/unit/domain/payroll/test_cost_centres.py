"""Cost centres that never stand for fewer than three people (issue 34 part 2):
floor_groups and split_journal in app/domain/payroll/rules.py, for any staff."""

from hypothesis import given
from hypothesis import strategies as st

from app.domain.payroll.rules import FLOOR, floor_groups, split_journal


def test_small_departments_go_unassigned_and_a_small_unassigned_group_joins_the_smallest():
    members = {f"e{n}": group for n, group in enumerate(["Sales"] * 4 + ["Ops"] * 3 + ["Legal"] * 2)}
    shown = floor_groups(members)
    # Legal (2) is unassigned; the unassigned (2) join Ops, the smallest, shown unassigned too.
    assert sorted(set(shown.values()), key=str) == [None, "Sales"]
    assert sum(1 for g in shown.values() if g is None) == 5
    assert floor_groups({"a": "X", "b": "X"}) == {"a": None, "b": None}  # all together under the floor: one group


def test_an_account_splits_into_lines_that_sum_to_it():
    groups = {f"e{n}": "Sales" if n < 3 else "Ops" for n in range(6)}
    amounts = {f"e{n}": 100 * (n + 1) for n in range(6)}
    lines = split_journal([("5100", "Basic salaries", 2100, 0), ("2110", "Salaries payable", 0, 2100)],
                          {("5100", "debit"): amounts}, groups)
    assert lines == [("5100", "Basic salaries", 1500, 0, "Ops", 3), ("5100", "Basic salaries", 600, 0, "Sales", 3),
                     ("2110", "Salaries payable", 0, 2100, None, 0)]  # liabilities whole


staff = st.dictionaries(st.text(min_size=1, max_size=5), st.tuples(st.one_of(st.none(), st.sampled_from("ABCDEF")),
                                                                   st.integers(1, 10**9)), max_size=40)


@given(staff)
def test_every_split_line_covers_at_least_three_and_they_sum_to_the_whole(people):
    amounts = {e: amount for e, (_, amount) in people.items()}
    groups = {e: group for e, (group, _) in people.items()}
    total = sum(amounts.values())
    if not total:
        return
    lines = split_journal([("5100", "Basic", total, 0)], {("5100", "debit"): amounts}, groups)
    assert sum(line[2] for line in lines) == total
    assert sum(line[5] for line in lines) == len(people)
    if len(people) >= FLOOR:
        assert all(line[5] >= FLOOR for line in lines)
    else:
        assert len(lines) == 1 and lines[0][4] is None
    shown = floor_groups(groups)
    named = {group for group in shown.values() if group is not None}
    assert all(groups[e] == shown[e] for e in people if shown[e] is not None)  # a name shown is the person's own
    assert len({line[4] for line in lines}) == len(lines) and named <= {line[4] for line in lines}
