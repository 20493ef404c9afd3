"""Initial schema: companies, users, employees, payroll, API keys, event outbox."""

from contextlib import suppress

import peewee as pw
from peewee_migrate import Migrator


with suppress(ImportError):
    import playhouse.postgres_ext as pw_pext


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    """Write your migrations here."""

    @migrator.create_model
    class User(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        email = pw.CharField(max_length=254, unique=True)
        name = pw.CharField(max_length=200)
        password_hash = pw.CharField(max_length=255, null=True)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "app_user"

    @migrator.create_model
    class Company(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        name_en = pw.CharField(max_length=200)
        name_ar = pw.CharField(max_length=200, null=True)
        country = pw.CharField(max_length=2)
        currency = pw.CharField(max_length=3)
        timezone = pw.CharField(max_length=64)
        sandbox = pw.BooleanField(default=False)
        api_enabled = pw.BooleanField(default=False)
        sandbox_owner = pw.ForeignKeyField(column_name='sandbox_owner_id', field='id', model=migrator.orm['app_user'], null=True, unique=True)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "company"

    @migrator.create_model
    class ApiKey(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        name = pw.CharField(max_length=100)
        environment = pw.CharField(max_length=4)
        display_prefix = pw.CharField(max_length=24)
        secret_hash = pw.CharField(max_length=64, unique=True)
        scopes = pw.TextField()
        created_by = pw.ForeignKeyField(column_name='created_by_id', field='id', model=migrator.orm['app_user'], null=True)
        created_at = pw.DateTimeField()
        last_used_at = pw.DateTimeField(null=True)
        revoked_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "api_key"

    @migrator.create_model
    class Entity(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        country = pw.CharField(max_length=2)
        name_en = pw.CharField(max_length=200)
        name_ar = pw.CharField(max_length=200, null=True)
        currency = pw.CharField(max_length=3)
        primary = pw.BooleanField(default=False)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "entity"

    @migrator.create_model
    class Branch(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        entity = pw.ForeignKeyField(column_name='entity_id', field='id', model=migrator.orm['entity'], on_delete='CASCADE')
        name = pw.CharField(max_length=200)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "branch"

    @migrator.create_model
    class Employee(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        entity = pw.ForeignKeyField(column_name='entity_id', field='id', model=migrator.orm['entity'])
        branch = pw.ForeignKeyField(column_name='branch_id', field='id', model=migrator.orm['branch'], null=True)
        manager = pw.ForeignKeyField(column_name='manager_id', field='id', model='self', null=True)
        staff_number = pw.CharField(max_length=40)
        name_en = pw.CharField(max_length=200)
        name_ar = pw.CharField(max_length=200, null=True)
        job_title = pw.CharField(max_length=200, null=True)
        department = pw.CharField(max_length=200, null=True)
        status = pw.CharField(max_length=16)
        employment_type = pw.CharField(max_length=16)
        country = pw.CharField(max_length=2)
        contact_email = pw.CharField(max_length=254, null=True)
        contact_phone = pw.CharField(max_length=20, null=True)
        hire_date = pw.DateField()
        termination_date = pw.DateField(null=True)
        created_at = pw.DateTimeField()
        updated_at = pw.DateTimeField()
        nationality = pw.CharField(max_length=2)
        is_national = pw.BooleanField()
        basic_salary_minor = pw.BigIntegerField()
        housing_allowance_minor = pw.BigIntegerField(default=0)
        transport_allowance_minor = pw.BigIntegerField(default=0)
        other_allowance_minor = pw.BigIntegerField(default=0)
        bank_name = pw.CharField(max_length=100, null=True)
        iban = pw.CharField(max_length=34, null=True)
        civil_id = pw.CharField(max_length=20, null=True)
        passport_number = pw.CharField(max_length=20, null=True)
        date_of_birth = pw.DateField(null=True)
        social_insurance_number = pw.CharField(max_length=20, null=True)
        leaving_reason = pw.TextField(null=True)
        archived = pw.BooleanField(default=False)

        class Meta:
            table_name = "employee"
            indexes = [(('company', 'staff_number'), True), (('company', 'created_at', 'id'), False)]

    @migrator.create_model
    class PayrollRun(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        entity = pw.ForeignKeyField(column_name='entity_id', field='id', model=migrator.orm['entity'])
        country = pw.CharField(max_length=2)
        payroll_month = pw.CharField(max_length=7)
        status = pw.CharField(max_length=16)
        currency = pw.CharField(max_length=3)
        employee_count = pw.IntegerField(default=0)
        gross_minor = pw.BigIntegerField(default=0)
        deductions_minor = pw.BigIntegerField(default=0)
        net_minor = pw.BigIntegerField(default=0)
        employer_contributions_minor = pw.BigIntegerField(default=0)
        total_cost_minor = pw.BigIntegerField(default=0)
        finalized_at = pw.DateTimeField(null=True)
        paid_at = pw.DateTimeField(null=True)
        created_at = pw.DateTimeField()
        updated_at = pw.DateTimeField()

        class Meta:
            table_name = "payroll_run"
            indexes = [(('company', 'payroll_month', 'id'), False)]

    @migrator.create_model
    class JournalEntry(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        run = pw.ForeignKeyField(column_name='run_id', field='id', model=migrator.orm['payroll_run'], on_delete='CASCADE')
        kind = pw.CharField(max_length=16)
        currency = pw.CharField(max_length=3)
        posted_at = pw.DateTimeField()

        class Meta:
            table_name = "journal_entry"

    @migrator.create_model
    class JournalLine(pw.Model):
        id = pw.AutoField()
        entry = pw.ForeignKeyField(column_name='entry_id', field='id', model=migrator.orm['journal_entry'], on_delete='CASCADE')
        position = pw.IntegerField()
        account_code = pw.CharField(max_length=20)
        account_name = pw.CharField(max_length=100)
        debit_minor = pw.BigIntegerField(default=0)
        credit_minor = pw.BigIntegerField(default=0)

        class Meta:
            table_name = "journal_line"

    @migrator.create_model
    class Membership(pw.Model):
        id = pw.AutoField()
        user = pw.ForeignKeyField(column_name='user_id', field='id', model=migrator.orm['app_user'], on_delete='CASCADE')
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        role = pw.CharField(max_length=32)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "membership"
            indexes = [(('user', 'company'), True)]

    @migrator.create_model
    class OutboxEvent(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name='company_id', field='id', model=migrator.orm['company'], on_delete='CASCADE')
        type = pw.CharField(max_length=64)
        payload = pw.TextField()
        created_at = pw.DateTimeField()
        dispatched_at = pw.DateTimeField(index=True, null=True)

        class Meta:
            table_name = "outbox_event"

    @migrator.create_model
    class PayrollComponent(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(column_name='run_id', field='id', model=migrator.orm['payroll_run'], on_delete='CASCADE')
        position = pw.IntegerField()
        code = pw.CharField(max_length=40)
        name_en = pw.CharField(max_length=100)
        name_ar = pw.CharField(max_length=100, null=True)
        kind = pw.CharField(max_length=24)
        amount_minor = pw.BigIntegerField()
        employee_count = pw.IntegerField()

        class Meta:
            table_name = "payroll_component"

    @migrator.create_model
    class PayrollLine(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(column_name='run_id', field='id', model=migrator.orm['payroll_run'], on_delete='CASCADE')
        employee = pw.ForeignKeyField(column_name='employee_id', field='id', model=migrator.orm['employee'])
        component_code = pw.CharField(max_length=40)
        amount_minor = pw.BigIntegerField()

        class Meta:
            table_name = "payroll_line"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    """Write your rollback migrations here."""

    migrator.remove_model('payroll_line')

    migrator.remove_model('payroll_component')

    migrator.remove_model('outbox_event')

    migrator.remove_model('membership')

    migrator.remove_model('journal_line')

    migrator.remove_model('journal_entry')

    migrator.remove_model('payroll_run')

    migrator.remove_model('employee')

    migrator.remove_model('branch')

    migrator.remove_model('entity')

    migrator.remove_model('api_key')

    migrator.remove_model('company')

    migrator.remove_model('app_user')
