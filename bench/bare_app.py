"""The bare stack the service is measured against: Flask + Peewee, nothing else.

`/json` answers a small JSON object; `/employees` selects 200 employee rows with Peewee
and serializes them; `/pk` does one primary-key select (for reference).
"""

import json
import os

from flask import Flask, Response

from app.models import Employee, db, make_database

app = Flask(__name__)
db.initialize(make_database(os.environ["DATABASE_URL"]))
COMPANY_ID = os.environ["BENCH_COMPANY_ID"]
FIELDS = ("id", "staff_number", "name_en", "name_ar", "job_title", "department", "status",
          "employment_type", "country", "entity", "branch", "manager", "contact_email",
          "contact_phone", "hire_date", "termination_date", "created_at", "updated_at")


@app.before_request
def _open():
    db.connect(reuse_if_open=True)


@app.teardown_request
def _close(exc):
    if not db.is_closed():
        db.close()


def _json(data):
    return Response(json.dumps(data, default=str), mimetype="application/json")


@app.get("/json")
def bare_json():
    return _json({"id": COMPANY_ID, "name": {"en": "Bare", "ar": None}, "sandbox": True})


@app.get("/pk")
def bare_pk():
    employee = Employee.select(Employee.id, Employee.name_en).where(Employee.company == COMPANY_ID).first()
    return _json({"id": employee.id, "name": employee.name_en})


@app.get("/employees")
def bare_employees():
    rows = (Employee.select(*[getattr(Employee, f) for f in FIELDS])
            .where(Employee.company == COMPANY_ID).order_by(Employee.created_at, Employee.id).limit(200).dicts())
    return _json({"data": [{f: row[f] for f in FIELDS} for row in rows]})
