"""The async table service: the one owner of every change to a table, and what it publishes."""
