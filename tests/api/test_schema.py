"""The migrations make exactly the columns, and at least the indexes, the models declare:
a model changed without its migration fails here, on SQLite and on PostgreSQL."""

from app.models import ALL_MODELS, db


def test_every_model_matches_its_migrated_table(transaction):
    for model in ALL_MODELS:
        table = model._meta.table_name
        columns = {column.name for column in db.get_columns(table)}
        assert columns == {field.column_name for field in model._meta.sorted_fields}, table
        made = {(tuple(index.columns), bool(index.unique)) for index in db.get_indexes(table)}
        for fields, unique in model._meta.indexes:
            declared = tuple(model._meta.fields[name].column_name for name in fields)
            assert (declared, unique) in made, (table, declared)


def test_the_outbox_indexes_its_pending_events_alone(transaction):
    """Migration 018's partial index, which a drain's rounds read (events.pending_fairly)
    and which dispatching an event leaves."""
    [pending] = [index for index in db.get_indexes("outbox_event") if index.name == "outbox_event_pending"]
    assert pending.columns == ["company_id", "created_at", "id"]
    assert "dispatched_at is null" in pending.sql.lower()
