"""014: journal accounts by key (issue 34): a company's own code and name for each
account, and the key on every journal line. Lines posted before carry the default codes,
so their keys are known from them."""

import peewee as pw
from peewee_migrate import Migrator

# The default code of each account key when this migration was written (accounts.CATALOG).
KEYS = (
    ("1010", "bank"),
    ("2110", "salaries_payable"),
    ("2120", "social_insurance_payable"),
    ("2121", "social_insurance_payable_gosi"),
    ("2122", "social_insurance_payable_pifss"),
    ("2123", "social_insurance_payable_gpssa"),
    ("2124", "social_insurance_payable_grsia"),
    ("2125", "social_insurance_payable_sio"),
    ("2126", "social_insurance_payable_spf"),
    ("2300", "end_of_service_provision"),
    ("3100", "retained_earnings"),
    ("5100", "basic_salaries"),
    ("5110", "housing_allowances"),
    ("5120", "transport_allowances"),
    ("5130", "other_allowances"),
    ("5200", "employer_social_insurance"),
    ("5201", "employer_contributions_gosi"),
    ("5202", "employer_contributions_pifss"),
    ("5203", "employer_contributions_gpssa"),
    ("5204", "employer_contributions_grsia"),
    ("5205", "employer_contributions_sio"),
    ("5206", "employer_contributions_spf"),
    ("5210", "end_of_service_contributions"),
    ("5300", "end_of_service_expense"),
)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("journal_line", account_key=pw.CharField(max_length=60, null=True))
    # A company's own code is up to 40 characters (accounts.CODE); the lines carry it.
    migrator.change_fields("journal_line", account_code=pw.CharField(max_length=40))
    for code, key in KEYS:
        migrator.sql(f"UPDATE journal_line SET account_key = '{key}' WHERE account_code = '{code}'")

    @migrator.create_model
    class AccountMapping(pw.Model):
        id = pw.AutoField()
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE")
        entity = pw.CharField(max_length=40, default="")
        key = pw.CharField(max_length=60)
        code = pw.CharField(max_length=40)
        name_en = pw.CharField(max_length=100)
        name_ar = pw.CharField(max_length=100, null=True)
        updated_at = pw.DateTimeField()

        class Meta:
            table_name = "account_mapping"
            indexes = ((("company", "entity", "key"), True),)


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("account_mapping")
    migrator.change_fields("journal_line", account_code=pw.CharField(max_length=20))
    migrator.remove_fields("journal_line", "account_key")
