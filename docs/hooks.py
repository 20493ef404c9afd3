"""MkDocs hook: the API reference is the OpenAPI document the service serves, written into
the site at build time (every release live, as in development), so it cannot drift from
the code. Needs the service's requirements installed beside docs/requirements.txt."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]


def openapi_document() -> str:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/docs.db", "REDIS_URL": "", "APP_ENV": "development"}
        env.pop("LIVE_RELEASES", None)
        env.pop("LIVE_OPERATIONS", None)
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "openapi", "print"], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the OpenAPI document could not be made:\n{done.stderr}")
    return done.stdout


def on_files(files, config, **kwargs):
    """reference/openapi.json, made now, as one of the site's files (linked and rendered
    by reference/api.md)."""
    files.append(File.generated(config, "reference/openapi.json", content=openapi_document()))
    return files
