"""The pure core every game shares.

Cards, seeded randomness, seats, tricks, errors, events, the rules protocol and settings;
standard library only.
"""
