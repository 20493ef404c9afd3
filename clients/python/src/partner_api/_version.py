"""The package's version: pyproject.toml reads it from here, and the User-Agent says it."""

VERSION = "0.2.0"
