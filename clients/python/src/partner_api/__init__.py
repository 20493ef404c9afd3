"""A Python client for the Partner HR and Payroll API.

    from partner_api import Client
    with Client(api_key="svc_test_...", base_url="http://127.0.0.1:8000") as client:
        for employee in client.employees.list():
            print(employee.staff_number, employee.hire_date)
"""

from partner_api import oauth, webhooks
from partner_api._client import OPERATIONS, ApiError, Client, CursorStore, EventFeed, FileCursorStore
from partner_api._models import Model
from partner_api.oauth import OAuthApp, OAuthError, Token

__all__ = ["OPERATIONS", "ApiError", "Client", "CursorStore", "EventFeed", "FileCursorStore", "Model", "OAuthApp",
           "OAuthError", "Token", "oauth", "webhooks"]
