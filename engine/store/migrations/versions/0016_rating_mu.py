"""Each result keeps the person's mu before and after its game, no longer the conservative mu - 3 sigma.

The rating people see is made from mu alone (``engine.service.rating_scale``: 1500 for a
newcomer, provisional for the first games). ``results.rating_before`` and
``results.rating_after`` held mu - 3 sigma, from which mu cannot be told, so they are emptied
here, as 0014 left them for the games finished before it: ``cardroom ratings --rebuild``
recomputes every rating from the logs and fills them in again. The ratings themselves
(``ratings.mu``, ``ratings.sigma``) stay as they are.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

RESULTS = sa.table("results", sa.column("rating_before", sa.Float), sa.column("rating_after", sa.Float))


def upgrade() -> None:
    """Empty ``results.rating_before`` and ``results.rating_after`` (kept in the old meaning)."""
    op.execute(RESULTS.update().values(rating_before=None, rating_after=None))


def downgrade() -> None:
    """Empty them again: they now hold mu, which the older code would show as mu - 3 sigma."""
    op.execute(RESULTS.update().values(rating_before=None, rating_after=None))
