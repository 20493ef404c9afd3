"""A partner's generated client (issue 35 part 1): openapi-python-client generates a
package from the served document, `pip install` puts it in a fresh virtualenv (its
version, 1.3.0, is one packaging accepts), and the package calls two operations of the
running service, typing an event's `data` from the `Event` union by its `type`."""

import json
import subprocess
import sys
import venv
from pathlib import Path

import requests

from tests.e2e.test_serve import serving

SCRIPT = """
import importlib, pkgutil, sys
package = importlib.import_module(sys.argv[1])
from importlib import import_module
client = import_module(sys.argv[1] + ".client").AuthenticatedClient(base_url=sys.argv[2], token=sys.argv[3])
operations = {name.rsplit(".", 1)[-1]: name for _, name, _ in pkgutil.walk_packages(
    import_module(sys.argv[1] + ".api").__path__, sys.argv[1] + ".api.")}
company = import_module(operations["get_company"]).sync(client=client)
page = import_module(operations["list_events"]).sync(client=client, limit=200)
created = [event for event in page.data if type(event).__name__ == "EmployeeCreatedEvent"]
print(company.id, company.sandbox, len(page.data), type(created[0].data).__name__,
      created[0].data.employee.staff_number)
"""


def test_a_generated_client_installs_and_calls_the_service(tmp_path):
    with serving(tmp_path) as (base, key, _, _):
        document = requests.get(f"{base}/v1/openapi.json", timeout=10).json()
        assert document["info"]["version"] == "1.3.0" and document["info"]["x-contract-version"] == "1.0.0-draft.1"
        (tmp_path / "openapi.json").write_text(json.dumps(document))
        generator = Path(sys.executable).parent / "openapi-python-client"
        subprocess.run([str(generator), "generate", "--path", str(tmp_path / "openapi.json"), "--output-path",
                        str(tmp_path / "client"), "--meta", "setup"], check=True, capture_output=True, text=True)
        venv.create(tmp_path / "venv", with_pip=True)
        python = tmp_path / "venv" / "bin" / "python"
        installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(tmp_path / "client")],
                                   capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, installed.stderr[-2000:]
        package = next(p.name for p in (tmp_path / "client").iterdir() if (p / "client.py").exists())
        run = subprocess.run([str(python), "-c", SCRIPT, package, base, key], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr[-3000:]
        company_id, sandbox, count, data_type, staff_number = run.stdout.split()
        assert company_id.startswith("cmp_") and sandbox == "True" and int(count) > 0
        assert data_type == "EmployeeEventData" and staff_number.startswith("SBX-")
