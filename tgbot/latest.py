"""The newest snapshot of each table the bot follows: every pass draws a table as it is now, not as it was asked."""

from __future__ import annotations

from engine.service.live import Snapshot, TableInfo


class Latest:
    """The newest snapshot per table, as the updates brought them."""

    def __init__(self) -> None:
        self._snapshots: dict[str, Snapshot] = {}

    def note(self, snapshot: Snapshot) -> None:
        """The table is now as ``snapshot`` says."""
        self._snapshots[snapshot.info.id] = snapshot

    def get(self, table_id: str) -> Snapshot | None:
        """The table's newest snapshot, if the bot follows it."""
        return self._snapshots.get(table_id)

    def info(self, table_id: str) -> TableInfo | None:
        """The table's newest public state, if the bot follows it."""
        found = self._snapshots.get(table_id)
        return None if found is None else found.info

    def __contains__(self, table_id: str) -> bool:
        return table_id in self._snapshots

    def forget(self, table_id: str, snapshot: Snapshot) -> bool:
        """The table ended as ``snapshot`` says: forget it, unless a newer snapshot came meanwhile (False then)."""
        if self._snapshots.get(table_id, snapshot) is not snapshot:
            return False
        self._snapshots.pop(table_id, None)
        return True
