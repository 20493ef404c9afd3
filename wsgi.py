"""WSGI entry point: `gunicorn wsgi:app`, `flask --app wsgi ...`."""

import sys

from app import create_app
from config import ConfigurationError

# gunicorn's exit status for "worker failed to boot": its master then stops, where any
# other status would have it boot the same failing worker again and again.
BOOT_ERROR = 3

try:
    app = create_app()
except ConfigurationError as exc:
    # One line that names the setting, for gunicorn and every flask command alike.
    print(f"Configuration error: {exc}", file=sys.stderr)
    sys.exit(BOOT_ERROR)
