"""021: books that close (issue 47).

- Each journal entry's place in its company's posting order (`position`: 1, 2, 3 ...),
  which listJournalEntries pages by, and, for a true-up, the entry whose posting left the
  provision off (`caused_by`). Entries already posted are numbered in the order they
  were posted (a true-up after the entry its move posted in the same instant).
- The date through which a company's books are closed (no entry is dated on or before
  it), and the history of closings and reopenings.
- The end-of-service provision an entity's books already carried from another payroll
  system when it moved here, and its date.
- Who was in which department and branch when a run was finalized, so that a later
  correction splits by the month's cost centres, not today's.
"""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("journal_entry", position=pw.BigIntegerField(null=True),
                        caused_by=pw.CharField(max_length=40, null=True))
    migrator.sql(
        "UPDATE journal_entry SET position = numbered.n FROM ("
        " SELECT id, ROW_NUMBER() OVER (PARTITION BY company_id ORDER BY posted_at,"
        " CASE WHEN kind = 'true_up' THEN 1 ELSE 0 END, run_id, sequence) AS n FROM journal_entry"
        ") AS numbered WHERE journal_entry.id = numbered.id")
    migrator.add_index("journal_entry", "company", "position", unique=True)
    migrator.add_fields("company", books_closed_through=pw.DateField(null=True))
    migrator.add_fields("entity", eos_carried_minor=pw.BigIntegerField(null=True),
                        eos_carried_as_of=pw.DateField(null=True))

    @migrator.create_model
    class BooksClosing(pw.Model):
        id = pw.AutoField()
        company = pw.ForeignKeyField(migrator.orm["company"], on_delete="CASCADE")
        closed_through = pw.DateField(null=True)
        previous = pw.DateField(null=True)
        by = pw.CharField(max_length=254)
        at = pw.DateTimeField()

        class Meta:
            table_name = "books_closing"
            indexes = ((("company", "at"), False),)

    @migrator.create_model
    class PayrollMember(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(migrator.orm["payroll_run"], on_delete="CASCADE")
        employee = pw.ForeignKeyField(migrator.orm["employee"])
        department = pw.CharField(max_length=200, null=True)
        branch = pw.CharField(max_length=200, null=True)

        class Meta:
            table_name = "payroll_member"
            indexes = ((("run", "employee"), True),)


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("payroll_member")
    migrator.remove_model("books_closing")
    migrator.remove_fields("entity", "eos_carried_minor", "eos_carried_as_of")
    migrator.remove_fields("company", "books_closed_through")
    migrator.drop_index("journal_entry", "company", "position")
    migrator.remove_fields("journal_entry", "position", "caused_by")
