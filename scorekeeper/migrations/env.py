"""Alembic environment: runs on the engine the app hands over (see ``db.upgrade``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from scorekeeper import models  # noqa: F401 - registers the tables on Base.metadata
from scorekeeper.db import Base, make_engine

config = context.config
# The app hands over its engine; the command line (``alembic -c ...``) names a URL.
engine = config.attributes.get("engine") or make_engine(
    config.get_main_option("sqlalchemy.url", "sqlite:///instance/scorekeeper.sqlite")
)

with engine.connect() as connection:
    if connection.dialect.name == "postgresql":
        # Several app processes starting together: one migrates, the others wait.
        connection.execute(text("SELECT pg_advisory_xact_lock(727274)"))
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
