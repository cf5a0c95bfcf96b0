"""Local stand-ins for the outside services the bot talks to."""
