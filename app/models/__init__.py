"""Peewee models, one module per domain. No Flask imports here."""

from app.models.attendance import AttendanceDay, AttendanceEvent, IdentityLink
from app.models.base import BaseModel, db, make_database
from app.models.company import Branch, Company, Entity, Membership, User
from app.models.employees import Employee
from app.models.events import EmployeeAnnouncement, OutboxEvent
from app.models.idempotency import IdempotencyKey
from app.models.keys import ApiKey, CredentialsVersion
from app.models.leave import LeaveProvisionBalance, LeaveRequest, PayrollLeave
from app.models.oauth import OAuthApp, OAuthCode, OAuthConnection, OAuthToken
from app.models.payroll import (
    AccountMapping,
    BooksClosing,
    EndOfServiceBalance,
    JournalEntry,
    JournalLine,
    PayrollComponent,
    PayrollLine,
    PayrollMember,
    PayrollRun,
)
from app.models.sessions import ConsoleSession, PasswordReset
from app.models.webhooks import WebhookDelivery, WebhookEndpoint

# In dependency order: what migrations create, tests truncate.
ALL_MODELS = (
    User, Company, Membership, Entity, Branch, Employee, PayrollRun, PayrollLine, EndOfServiceBalance,
    PayrollComponent, PayrollMember, JournalEntry, JournalLine, AccountMapping, BooksClosing, ApiKey, OutboxEvent,
    EmployeeAnnouncement,
    AttendanceEvent, IdentityLink, AttendanceDay, ConsoleSession, PasswordReset, WebhookEndpoint, WebhookDelivery,
    OAuthApp, OAuthConnection, OAuthCode, OAuthToken, IdempotencyKey, CredentialsVersion, LeaveRequest, PayrollLeave,
    LeaveProvisionBalance,
)

__all__ = [
    "ALL_MODELS", "AccountMapping", "ApiKey", "AttendanceDay", "AttendanceEvent", "BaseModel", "BooksClosing", "Branch",
    "Company",
    "ConsoleSession", "CredentialsVersion",
    "Employee", "EmployeeAnnouncement", "EndOfServiceBalance", "Entity", "IdempotencyKey", "IdentityLink",
    "JournalEntry", "JournalLine", "LeaveProvisionBalance", "LeaveRequest", "Membership",
    "OAuthApp", "OAuthCode", "OAuthConnection", "OAuthToken", "OutboxEvent", "PasswordReset", "PayrollComponent",
    "PayrollLeave", "PayrollLine", "PayrollMember", "PayrollRun", "User", "WebhookDelivery", "WebhookEndpoint", "db",
    "make_database",
]
