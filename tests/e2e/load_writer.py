"""The service's own code, run against DATABASE_URL for the backup tests:

    python -m tests.e2e.load_writer write STOP_FILE   change job titles, one HR action per
        transaction (each writes its employee.updated event), until STOP_FILE exists;
        print how many
    python -m tests.e2e.load_writer endpoint          a webhook endpoint of the sandbox;
        print its signing secret (shown once)
    python -m tests.e2e.load_writer secrets           every endpoint's secret, opened with
        this SECRET_KEY, as JSON (exit 1 if one cannot be opened)
"""

import json
import os
import sys

from app.domain.access import keys
from app.domain.access.principal import Principal
from app.domain.webhooks import endpoints
from app.domain.webhooks.urls import check_url
from app.extensions import runtime
from app.models import Company, Employee, WebhookEndpoint
from app.models.base import connection
from wsgi import app


def write(stop_file):
    made = 0
    with connection():
        staff = [(e.company_id, e.id) for e in Employee.select().where(Employee.status == "active")]
    while not os.path.exists(stop_file):
        company_id, employee_id = staff[made % len(staff)]
        with connection():
            from app.domain.people import actions as hr

            hr.update_employee(company_id, employee_id, {"job_title": f"Load {made}"}, runtime())
        made += 1
    print(made)


def endpoint():
    with connection():
        company = Company.get(Company.sandbox)
        key, _ = keys.create_key(company, ["webhooks:manage"], runtime())
        owner = Principal(kind="api_key", credential_id=key.id, company=company, entities=(),
                          scopes=frozenset({"webhooks:manage"}))
        target = check_url("https://93.184.215.14/hook", lambda host, port: [host])
        _, secret = endpoints.create_endpoint(owner, target, ["employee.updated"], runtime())
    print(secret)


def secrets():
    with connection():
        print(json.dumps({row.id: runtime().sealer.open(row.secret_sealed) for row in WebhookEndpoint.select()}))


if __name__ == "__main__":
    with app.app_context():
        {"write": write, "endpoint": endpoint, "secrets": secrets}[sys.argv[1]](*sys.argv[2:])
