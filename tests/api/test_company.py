from tests.conftest import bearer


def test_company_of_the_key_with_its_entities(client, sandbox, headers):
    response = client.get("/v1/company", headers=headers)
    assert response.status_code == 200
    body = response.get_json()
    assert body == {
        "id": sandbox.id,
        "name": {"en": "Kuwait Sandbox Trading Co.", "ar": "شركة الكويت التجريبية للتجارة"},
        "country": "KW", "currency": "KWD", "timezone": "Asia/Kuwait", "sandbox": True,
        "entities": [{"id": body["entities"][0]["id"], "country": "KW",
                      "name": {"en": "Kuwait Sandbox Trading Co.", "ar": "شركة الكويت التجريبية للتجارة"},
                      "currency": "KWD", "primary": True}],
    }


def test_company_needs_no_scope(client, sandbox, make_key):
    assert client.get("/v1/company", headers=bearer(make_key(sandbox, scopes=[]))).status_code == 200


def test_company_carries_request_id_and_rate_limit_headers(client, headers):
    response = client.get("/v1/company", headers=headers)
    assert response.headers["X-Request-Id"]
    assert response.headers["X-RateLimit-Limit"] == "600"
    assert response.headers["X-RateLimit-Remaining"] == "599"
    assert response.headers["X-RateLimit-Reset"] == "1"
