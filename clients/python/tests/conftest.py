"""The package's own tests import it from src/ (the main suite also installs it in a fresh
virtualenv: tests/e2e/test_python_client.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
