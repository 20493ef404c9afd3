"""Domain rules on a real database (SQLite, or TEST_DATABASE_URL), without the Flask
client: each test in a transaction rolled back, time moved by the FrozenClock. The
fixtures are tests/conftest.py's."""
