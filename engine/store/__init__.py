"""The event-sourced store: tables, seats and users as rows, moves as an append-only log."""
