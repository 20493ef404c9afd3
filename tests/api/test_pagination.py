import base64
import json

import pytest
from playhouse.test_utils import count_queries

from app.api.pagination import encode_cursor, fingerprint
from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.models import Employee
from tests.conftest import bearer
from tests.helpers import assert_problem


def first_cursor(client, headers, url="/v1/employees?limit=2"):
    return client.get(url, headers=headers).get_json()["next_cursor"]


def tamper(cursor, change):
    body, signature = cursor.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    change(payload)
    new_body = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()
    return f"{new_body}.{signature}"


@pytest.mark.parametrize("mangle", [
    lambda c: c[:-2] + ("AA" if not c.endswith("AA") else "BB"),  # signature altered
    lambda c: tamper(c, lambda p: p[1].__setitem__(1, "emp_zzzzzzzz")),  # position altered
    lambda c: "not-a-cursor",
    lambda c: c.split(".")[0],
    lambda c: "",
    lambda c: "%%%.%%%",
])
def test_altered_or_garbage_cursor_is_400(client, headers, mangle):
    cursor = first_cursor(client, headers)
    response = client.get("/v1/employees", query_string={"cursor": mangle(cursor)}, headers=headers)
    body = assert_problem(response, 400, "invalid_request")
    assert "cursor" in body["detail"]


def test_cursor_from_other_filters_is_400(client, headers):
    cursor = first_cursor(client, headers)
    response = client.get(f"/v1/employees?status=active&cursor={cursor}", headers=headers)
    assert_problem(response, 400, "invalid_request")


def test_cursor_of_another_company_is_400(client, headers, make_sandbox, make_key):
    cursor = first_cursor(client, headers)
    other = bearer(make_key(make_sandbox("OM")))
    assert_problem(client.get(f"/v1/employees?limit=2&cursor={cursor}", headers=other), 400, "invalid_request")


def test_cursor_of_another_resource_is_400(client, headers):
    cursor = first_cursor(client, headers)
    assert_problem(client.get(f"/v1/payroll-runs?cursor={cursor}", headers=headers), 400, "invalid_request")


def test_page_cost_does_not_grow_with_depth(client, headers, sandbox, clock):
    template = Employee.get(Employee.company == sandbox)
    Employee.insert_many([
        {**template.__data__, "id": new_id("emp"), "staff_number": f"B-{i}",
         "created_at": to_db(clock.now()), "manager": None}
        for i in range(300)
    ]).execute()
    cursor, pages = None, []
    while True:
        url = "/v1/employees?limit=20" + (f"&cursor={cursor}" if cursor else "")
        with count_queries() as counter:
            body = client.get(url, headers=headers).get_json()
        pages.append(counter.count)
        cursor = body["next_cursor"]
        if not cursor:
            break
    assert len(pages) == 16
    assert max(pages[1:]) <= 1 + 1  # key lookup + one keyset page query, at any depth


@pytest.mark.parametrize("position", [["2026-11-21T09:00:00"], ["not a time", "emp_1"], [1, 2, 3], [None, None]])
def test_a_cursor_we_signed_for_another_shape_of_position_is_400_too(app, client, headers, sandbox, position):
    """Only a leaked SECRET_KEY could make one; it still gets the cursor's 400, not a 500."""
    query = fingerprint("employees", sandbox.id, None, None)
    with app.test_request_context():
        cursor = encode_cursor(query, position)
    response = client.get("/v1/employees", query_string={"cursor": cursor}, headers=headers)
    assert "cursor" in assert_problem(response, 400, "invalid_request")["detail"]
