"""The shared objects, created unbound here and bound in `create_app`."""

from flask_smorest import Api

from app.api.schemas import ProblemSchema
from app.models import db


class PartnerApi(Api):
    """flask-smorest's Api with our Problem as the documented error body. Error
    handling itself lives in `app/api/problems.py`."""

    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self):
        pass


api = PartnerApi()

__all__ = ["api", "db"]
