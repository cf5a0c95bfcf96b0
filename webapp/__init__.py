"""The Mini App's web process: page, static files, JSON API, table WebSockets and the bot's webhook."""
