from datetime import timedelta

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.models import Employee, Entity
from tests.helpers import assert_problem


def list_all(client, headers, query=""):
    items, cursor = [], None
    while True:
        url = f"/v1/employees?limit=3{query}" + (f"&cursor={cursor}" if cursor else "")
        body = client.get(url, headers=headers).get_json()
        items += body["data"]
        cursor = body["next_cursor"]
        if cursor is None:
            return items


def test_list_is_oldest_first_with_every_partner_field(client, headers, sandbox):
    body = client.get("/v1/employees", headers=headers).get_json()
    assert body["next_cursor"] is None
    assert [e["staff_number"] for e in body["data"]] == [f"SBX-{i:03d}" for i in range(1, 11)]
    first = body["data"][0]
    assert set(first) == {
        "id", "staff_number", "name", "job_title", "department", "status", "employment_type",
        "country", "entity_id", "branch", "manager_id", "contact_email", "contact_phone",
        "hire_date", "termination_date", "created_at", "updated_at",
    }
    assert first["manager_id"] is None and body["data"][1]["manager_id"] == first["id"]
    assert first["created_at"].endswith("Z")
    assert first["contact_phone"].startswith("+965")


def test_pages_walk_every_employee_once(client, headers):
    items = list_all(client, headers)
    assert len(items) == 10 and len({e["id"] for e in items}) == 10


def test_status_filter_active_means_everything_but_left(client, headers, sandbox):
    staff = {e.staff_number: e for e in Employee.select().where(Employee.company == sandbox)}
    Employee.update(status="left").where(Employee.id == staff["SBX-004"].id).execute()
    Employee.update(status="on_leave").where(Employee.id == staff["SBX-005"].id).execute()
    active = list_all(client, headers, "&status=active")
    assert len(active) == 9 and "SBX-005" in {e["staff_number"] for e in active}
    left = list_all(client, headers, "&status=left")
    assert [e["staff_number"] for e in left] == ["SBX-004"]


def test_archived_employees_are_never_returned(client, headers, sandbox):
    archived = Employee.get(Employee.company == sandbox, Employee.staff_number == "SBX-002")
    Employee.update(archived=True).where(Employee.id == archived.id).execute()
    assert "SBX-002" not in {e["staff_number"] for e in list_all(client, headers)}
    assert_problem(client.get(f"/v1/employees/{archived.id}", headers=headers), 404, "not_found")


def test_entity_filter(client, headers, sandbox, clock):
    second = Entity.create(id=new_id("ent"), company=sandbox, country="KW", name_en="Second W.L.L.",
                           currency="KWD", primary=False, created_at=to_db(clock.now()))
    moved = Employee.get(Employee.company == sandbox, Employee.staff_number == "SBX-007")
    Employee.update(entity=second).where(Employee.id == moved.id).execute()
    items = list_all(client, headers, f"&entity_id={second.id}")
    assert [e["staff_number"] for e in items] == ["SBX-007"]
    assert len(list_all(client, headers, "&entity_id=ent_unknown")) == 0


def test_get_one(client, headers, sandbox):
    employee = Employee.get(Employee.company == sandbox, Employee.staff_number == "SBX-003")
    body = client.get(f"/v1/employees/{employee.id}", headers=headers).get_json()
    assert body["id"] == employee.id and body["name"]["en"] == employee.name_en


def test_another_companys_employee_is_404_like_a_missing_one(client, headers, make_sandbox):
    other = make_sandbox("SA")
    theirs = Employee.get(Employee.company == other)
    assert_problem(client.get(f"/v1/employees/{theirs.id}", headers=headers), 404, "not_found")
    assert_problem(client.get("/v1/employees/emp_doesnotexist", headers=headers), 404, "not_found")
    assert theirs.id not in {e["id"] for e in list_all(client, headers)}


def test_same_instant_employees_are_ordered_by_id_and_paged_without_loss(client, headers, sandbox, clock):
    template = Employee.get(Employee.company == sandbox, Employee.staff_number == "SBX-010")
    instant = to_db(clock.now() + timedelta(days=1))
    for i in range(7):
        Employee.create(**{**template.__data__, "id": new_id("emp"), "staff_number": f"X-{i}",
                           "created_at": instant})
    items = list_all(client, headers)
    assert len(items) == 17 and len({e["id"] for e in items}) == 17
    tail = [e["id"] for e in items[10:]]
    assert tail == sorted(tail)


def test_limit_bounds(client, headers):
    for bad in ("0", "201", "-1", "ten"):
        body = assert_problem(client.get(f"/v1/employees?limit={bad}", headers=headers), 400, "invalid_request")
        assert "limit" in body["detail"]
    assert len(client.get("/v1/employees?limit=1", headers=headers).get_json()["data"]) == 1
    assert client.get("/v1/employees?limit=200", headers=headers).status_code == 200


def test_unknown_status_filter_is_400(client, headers):
    body = assert_problem(client.get("/v1/employees?status=fired", headers=headers), 400, "invalid_request")
    assert "status" in body["detail"]
