"""The domain's Words: English text for the API and the logs, with the template and values
kept for the console's catalogs (issue 37)."""

import json
import pickle

from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.errors import ValidationFailed, Words


@given(value=st.text(), limit=st.integers())
def test_words_are_the_text_their_template_and_values_make(value, limit):
    said = Words("%(value)r is over %(limit)s", value=value, limit=limit)
    assert said == f"{value!r} is over {limit}" and isinstance(said, str)
    assert said.template == "%(value)r is over %(limit)s" and said.values == {"value": value, "limit": limit}
    assert json.dumps({"detail": said}) == json.dumps({"detail": f"{value!r} is over {limit}"})


def test_words_without_values_keep_a_percent_sign_as_written():
    assert Words("100% of the run") == "100% of the run" and Words("100%% of %(n)s", n=3) == "100% of 3"


def test_a_refusal_carries_its_words_through_the_api_unchanged():
    refusal = ValidationFailed(Words("invalid events"), [("events[0]", Words("%(value)r is listed twice", value="x"))])
    assert refusal.message == "invalid events" and refusal.errors[0][1] == "'x' is listed twice"
    kept = pickle.loads(pickle.dumps(refusal.errors[0][1]))  # a job's argument, say
    assert kept == "'x' is listed twice" and kept.template == "%(value)r is listed twice"
