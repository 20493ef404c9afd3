"""The few places that lean on a library's internals, pinned: an upgrade that renames
or reshapes them fails here, by name, instead of quietly turning a check off.

- app/api/auth.py reads flask-smorest's `_apidoc` to know each view's query parameters
  (unknown ones are refused with 400), and writes each operation's problem answers into
  it as `alt_response` would;
- app/jobs/worker.py overrides methods of RQ's SimpleWorker and CronScheduler (stop
  handling, one log line per job, a rarer heartbeat, one scheduler leading);
- app/__init__.py's PartnerFlask overrides Flask's `ensure_sync` (asked once per view).
"""

import inspect

from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint
from marshmallow import Schema, fields
from rq import SimpleWorker
from rq.cron import CronScheduler

from app import PartnerFlask
from app.api.auth import ALWAYS, ERROR_DESCRIPTIONS, _query_names, operation
from app.api.problems import PROBLEM_MIMETYPE
from app.api.schemas import ProblemSchema
from app.jobs.worker import Scheduler, Worker


def _parameters(cls, name):
    return list(inspect.signature(getattr(cls, name)).parameters)


def test_flask_smorest_keeps_a_views_query_arguments_in_apidoc():
    class Query(Schema):
        status = fields.String()
        since = fields.String(data_key="updated_since", metadata={"x-release": "v1.3"})

    app = Flask(__name__)
    app.config.update(API_TITLE="pin", API_VERSION="1", OPENAPI_VERSION="3.0.3")
    blp = Blueprint("pin", __name__, url_prefix="/pin")

    @blp.route("")
    class Things(MethodView):
        @blp.arguments(Query, location="query")
        def get(self, args):
            return {}

    Api(app).register_blueprint(blp)
    view = Things.get
    assert _query_names(view) == {"status", "updated_since"}
    assert _query_names(view, release="v1.3") == {"updated_since"}


def test_flask_smorest_documents_the_problems_operation_writes_into_apidoc_as_alt_response_does():
    def served(write):
        app = Flask(__name__)
        app.config.update(API_TITLE="pin", API_VERSION="1", OPENAPI_VERSION="3.0.3")
        blp = Blueprint("pin", __name__, url_prefix="/pin")
        api = Api(app)

        @blp.route("")
        class Things(MethodView):
            @write(blp)
            @blp.response(200, Schema)
            def get(self):
                return {}

        api.register_blueprint(blp)
        return api.spec.to_dict()["paths"]["/pin"]["get"]["responses"]

    def by_alt_response(blp):
        def decorate(func):
            for status in (400, 401, 403, 404, 429):  # operation's default errors, and ALWAYS
                description = ALWAYS[status] if status in ALWAYS else ERROR_DESCRIPTIONS[status]
                func = blp.alt_response(status, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                                        description=description)(func)
            return blp.doc(operationId="pin", description="Any valid key. Release v1.0.",
                           security=[{"bearerAuth": []}], **{"x-release": "v1.0"})(func)
        return decorate

    ours = served(lambda blp: operation(blp, "pin", release="v1.0"))
    assert ours == served(by_alt_response)
    assert ours["401"]["content"][PROBLEM_MIMETYPE]["schema"]


def test_the_rq_methods_the_worker_and_scheduler_override_are_still_rqs():
    overridden = {
        (SimpleWorker, Worker): {"request_stop": ["self", "signum", "frame"],
                                 "perform_job": ["self", "job", "queue"],
                                 "handle_exception": ["self", "job", "exc_info"],
                                 "heartbeat": ["self", "timeout", "pipeline"]},
        (CronScheduler, Scheduler): {"_request_stop": ["self", "signum", "frame"],
                                     "enqueue_jobs": ["self"],
                                     "calculate_sleep_interval": ["self"],
                                     "register_death": ["self", "pipeline"]},
    }
    for (base, ours), methods in overridden.items():
        for name, parameters in methods.items():
            assert name in vars(ours), (ours.__name__, name)
            assert _parameters(base, name)[:len(parameters)] == parameters, (base.__name__, name)


def test_flask_still_asks_ensure_sync_for_every_view_and_partnerflask_answers_once():
    assert _parameters(Flask, "ensure_sync") == ["self", "func"]
    app = PartnerFlask(__name__)
    asked = []

    def view():
        asked.append(1)
        return "ok"

    app.add_url_rule("/pin", view_func=view)
    assert app.test_client().get("/pin").data == b"ok" and asked == [1]
    assert view in PartnerFlask._sync_functions  # Flask went through the override
    assert app.ensure_sync(view) is app.ensure_sync(view)
