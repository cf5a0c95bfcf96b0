"""The English words of every refusal: a template per code with its named parameters, marked for translation.

Parameters are wire values (cards like ``"9-clubs"``, suits like ``"clubs"``, spaces like ``"NE"``, numbers, or
lists joined as text), so an adapter can render a refusal in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter

from engine.core.refusal_codes import RefusalCode

Param = str | int


def N_(message: str) -> str:
    """Mark a message template for extraction; it is translated where it is rendered, not here."""
    return message


C = RefusalCode

# code -> (English template, its parameter names). Parameters are wire values; lists arrive joined.
MESSAGES: dict[RefusalCode, tuple[str, tuple[str, ...]]] = {
    C.TABLE_NOT_FOUND: (N_("There is no such table."), ()),
    C.ALREADY_SEATED: (N_("You already have a seat at this table."), ()),
    C.TABLE_FULL: (N_("This table is full."), ()),
    C.TOO_MANY_PLAYERS: (N_("{seated} seats are taken; the table cannot shrink to {size}."), ("seated", "size")),
    C.SEAT_TAKEN_BY_AI: (N_("You left this game; an AI plays your seat now."), ()),
    C.NOT_SEATED: (N_("You do not have a seat at this table."), ()),
    C.NOT_HOST: (N_("Only the host can do that."), ()),
    C.NOT_STARTED: (N_("The game has not started yet."), ()),
    C.ALREADY_STARTED: (N_("The game has already started."), ()),
    C.ABANDONED: (N_("This table was cancelled."), ()),
    C.NOT_FINISHED: (N_("A rematch can be opened once this game is over."), ()),
    C.STALE: (N_("The table has moved on since you chose; your move was not applied."), ()),
    C.SERVER_ERROR: (N_("Something went wrong; try again."), ()),
    C.UNAVAILABLE: (N_("The game cannot reach its database just now; try again in a moment."), ()),
    C.MOVING: (N_("This table is moving to another server; reconnecting."), ()),
    C.UNKNOWN_GAME: (N_("There is no game called '{name}'; the games are: {games}."), ("name", "games")),
    C.DAILY_DONE: (N_("You have played today's {game} deal. A new one comes at midnight UTC."), ("game",)),
    C.DAILY_NOT_FINISHED: (N_("Finish today's {game} deal first; then you see how everyone did."), ("game",)),
    C.DAILY_NOT_CLOSED: (N_("The deal of {date} is not over yet."), ("date",)),
    C.BAD_DATE: (N_("'{value}' is not a date like 2026-12-02."), ("value",)),
    C.UNKNOWN_LANGUAGE: (N_("There is no language '{code}'; the languages are: {languages}."), ("code", "languages")),
    C.BAD_REQUEST: (N_("That request was not understood."), ()),
    C.BODY_NOT_JSON: (N_("The body must be JSON."), ()),
    C.BODY_NOT_OBJECT: (N_("The body must be a JSON object."), ()),
    C.UNKNOWN_OPERATION: (N_("Unknown table operation '{op}'; use one of {ops}."), ("op", "ops")),
    C.NAME_REQUIRED: (N_("Type a name to sign in."), ()),
    C.CREATE_SHAPE: (N_('Send {{"game": "<name>", "options": {{...}}}}.'), ()),
    C.CHANGES_NOT_OBJECT: (N_('"changes" must be an object.'), ()),
    C.BAD_JSON: (N_("The body must be a JSON object."), ()),
    C.BAD_NAME: (N_("Type a name to sign in."), ()),
    C.NAME_NOT_TEXT: (N_("That name holds characters that are not valid text."), ()),
    C.BAD_PAGE_LIMIT: (N_("limit must be a number from 1 to {maximum}."), ("maximum",)),
    C.BAD_CURSOR: (N_("That page of tables is gone; start again from the first page."), ()),
    C.TOO_MANY_TABLES: (N_("You already have {limit} open tables; finish or leave one first."), ("limit",)),
    C.TOO_MANY_REQUESTS: (N_("Too many requests at once; wait a moment and try again."), ()),
    C.TOO_MANY_NEW_TABLES: (N_("Many tables are being opened right now; try again in {seconds} s."), ("seconds",)),
    C.TOO_MANY_NEW_TABLES_YOURS: (N_("You have opened many tables in a row; try again in {seconds} s."),
                                  ("seconds",)),
    C.SETTING_NAME_TOO_LONG: (N_("That setting name is too long."), ()),
    C.SETTING_VALUE_SHAPE: (N_("The setting {name} takes a short word or a number."), ("name",)),
    C.BAD_NUMBER: (N_("{name} must be a whole number from {minimum} to {maximum}."), ("name", "minimum", "maximum")),
    C.NOT_IN_GROUP: (N_("Only people who have played in that group can see its leaderboard."), ()),
    C.TOO_MANY_OPTIONS: (N_("That is more options than any game has."), ()),
    C.LOCAL_SIGNIN_DISABLED: (N_("Local sign-in is off: open the app from Telegram."), ()),
    C.NO_BOT: (N_("Invitations need the bot, and it is not running here."), ()),
    C.INVITE_FAILED: (N_("Telegram did not prepare the invitation just now; share the link instead."), ()),
    C.NOT_FOUND: (N_("There is nothing at that address."), ()),
    C.METHOD_NOT_ALLOWED: (N_("That address does not take that method."), ()),
    C.REQUEST_TIMEOUT: (N_("The request did not arrive in time; try again."), ()),
    C.REQUEST_TOO_LARGE: (N_("That request is too large."), ()),
    C.UNAUTHORIZED: (N_("Sign in first: open the app from Telegram."), ()),
    C.BAD_INIT_DATA: (N_("The sign-in data makes no sense; reopen the app."), ()),
    C.SIGN_IN_MISSING: (N_("Sign in first: this request carries no Telegram data."), ()),
    C.SIGN_IN_HEADER_MISSING: (N_("Sign in first: send Authorization: tma <initData>."), ()),
    C.SIGN_IN_TOO_LONG: (N_("The sign-in data is far too long."), ()),
    C.SIGN_IN_NOT_TEXT: (N_("The sign-in data is not valid text."), ()),
    C.SIGN_IN_NOT_A_QUERY: (N_("The sign-in data is not a query string."), ()),
    C.SIGN_IN_REPEATS_FIELD: (N_("The sign-in data repeats a field."), ()),
    C.SIGN_IN_UNSIGNED: (N_("The sign-in data is not signed."), ()),
    C.SIGN_IN_FORGED: (N_("The sign-in data was not signed by this bot."), ()),
    C.SIGN_IN_BAD_DATE: (N_("The sign-in data has no valid auth_date."), ()),
    C.SIGN_IN_EXPIRED: (N_("The sign-in data has expired; reopen the app."), ()),
    C.SIGN_IN_ENDED: (N_("You signed out everywhere; open the app again from Telegram."), ()),
    C.SIGN_IN_FROM_THE_FUTURE: (N_("The sign-in data is dated in the future."), ()),
    C.SIGN_IN_NO_USER: (N_("The sign-in data names no user."), ()),
    C.SIGN_IN_BAD_USER_ID: (N_("The sign-in data has no valid user id."), ()),
    C.SIGN_IN_TEXT_NOT_UNICODE: (N_("The sign-in data holds text that is not valid Unicode."), ()),
    C.NO_HELLO: (N_("Say hello with your sign-in data first."), ()),
    C.HELLO_FIRST: (N_("The first frame must be hello with your sign-in data."), ()),
    C.HELLO_WITHOUT_INIT_DATA: (N_('"hello" needs "init_data".'), ()),
    C.MALFORMED_FRAME: (N_("That frame was not understood."), ()),
    C.FRAME_NOT_TEXT: (N_("Frames must be JSON text."), ()),
    C.FRAME_NOT_JSON: (N_("A frame must be a JSON object."), ()),
    C.FRAME_TOO_DEEP: (N_("A frame must be a JSON object nested no deeper than {maximum} levels."), ("maximum",)),
    C.FRAME_NOT_UNICODE: (N_("A frame must be a JSON object of valid Unicode text."), ()),
    C.UNKNOWN_FRAME: (N_("Unknown frame type; expected hello, act, lobby, resync or ping."), ()),
    C.BAD_REF: (N_('"ref" must be a short string.'), ()),
    C.ACT_WITHOUT_SEQ: (N_('"act" needs the "seq" the move was made against.'), ()),
    C.ACT_WITHOUT_ACTION: (N_('"act" needs an "action" object with a "type".'), ()),
    C.BAD_LOBBY_OP: (N_('"op" must be one of {ops}.'), ("ops",)),
    C.FRAME_CHANGES_NOT_OBJECT: (N_('"changes" must be an object.'), ()),
    C.BAD_PING: (N_('"t" must be a number or a short string.'), ()),
    C.BAD_LAST_SEQ: (N_('"last_seq" must be a number or null.'), ()),
    C.TOO_LARGE: (N_("That message is too large."), ()),
    C.FLOOD: (N_("Too many messages; slow down."), ()),
    C.FLOOD_DISCONNECTED: (N_("Too many messages; disconnected."), ()),
    C.TABLE_CROWDED: (N_("Too many people have this table open; try again later."), ()),
    C.TOO_MANY_SOCKETS: (N_("You have too many tables open at once; close one and try again."), ()),
    C.TOO_MANY_PENDING: (N_("The server has too many sockets waiting to sign in; try again in a moment."), ()),
    C.TOO_MANY_PENDING_HERE: (
        N_("Too many sockets from your address are waiting to sign in; try again in a moment."), ()
    ),
    C.MALFORMED_ACTION: (N_('An action is an object with a "type", like {example}.'), ("example",)),
    C.ACTION_NOT_JSON: (N_("A move must be plain JSON."), ()),
    C.ACTION_TOO_LARGE: (N_("That move is far too large."), ()),
    C.MOVE_WITHOUT_SEQ: (N_("A move must say which position (seq) it was made against."), ()),
    C.CARDS_NOT_A_LIST: (N_('Give the cards as a list, like "cards": ["2-clubs", "3-clubs"].'), ()),
    C.FIELD_NOT_A_WORD: (N_('This action needs "{field}" as a word.'), ("field",)),
    C.BID_NOT_A_NUMBER: (N_('A bid needs "tricks" as a whole number.'), ()),
    C.UNKNOWN_ACTION: (N_("'{action}' is not an action; the actions are {actions}."), ("action", "actions")),
    C.UNKNOWN_CARD: (N_("'{given}' is not a card of this deck (write it like '{example}')."), ("given", "example")),
    C.DUPLICATE_CARD: (N_("{card} is listed twice."), ("card",)),
    C.UNKNOWN_SPACE: (N_("'{given}' is not a space; the spaces are {spaces}."), ("given", "spaces")),
    C.BAD_TRICK: (N_("That is not a trick."), ()),
    C.TRICK_NOT_THREE: (N_("A trick has exactly three cards, not {count}."), ("count",)),
    C.TRICK_TOO_LONG: (N_("A trick has one to three cards, not {count}."), ("count",)),
    C.TRICK_REPEATS_CARD: (N_("A trick cannot hold the same card twice."), ()),
    C.GAME_OVER: (N_("The game is over."), ()),
    C.NOT_YOUR_TURN: (N_("It is not your turn."), ()),
    C.CARD_NOT_IN_HAND: (N_("You do not hold {card}."), ("card",)),
    C.WRONG_PHASE: (N_("You cannot {action} now: the hand is at the {phase} step."), ("action", "phase")),
    C.MUST_FOLLOW_SUIT: (N_("You must follow suit: {suit} were led and you hold some."), ("suit",)),
    C.BAD_BID: (N_("A bid now must be a whole number from {low} to {high}."), ("low", "high")),
    C.BAD_COUNT: (N_("That is not the number of cards asked for."), ()),
    C.GIVE_COUNT: (N_("You must give exactly {count} cards, not {given}."), ("count", "given")),
    C.DISCARD_COUNT: (N_("You must discard exactly {count} cards, not {given}."), ("count", "given")),
    C.BAD_CALL: (N_("A call is one of {calls}, not '{call}'."), ("calls", "call")),
    C.TRUMP_SUIT_ONLY: (N_("Only a trump suit can be named now: {suits}."), ("suits",)),
    C.CALL_USED: (N_("You have already called {call}; each call is made once."), ("call",)),
    C.BAD_SUIT: (N_("Trump must be one of {suits}, not '{suit}'."), ("suits", "suit")),
    C.MUST_PLAY_DRAWN: (N_("You must play the card you drew, {card}, first."), ("card",)),
    C.NO_PARTIAL_MOVES: (N_("Only whole piles move: you cannot move part of a pile."), ()),
    C.CARD_ON_BOARD: (N_("{card} is on the board: cards laid down stay put, and only whole piles move."), ("card",)),
    C.SPACE_EMPTY: (N_("There is no pile on {space} to move."), ("space",)),
    C.CORNER_NEEDS_KING: (N_("{space} is empty: only a King starts a corner (place_king)."), ("space",)),
    C.SIDE_NEEDS_FILL: (N_("{space} is empty: fill an empty side with fill_side."), ("space",)),
    C.NO_PILE_TO_MOVE_ONTO: (
        N_("{space} is empty: piles only move onto other piles (a King pile to a corner: move_king_pile)."),
        ("space",),
    ),
    C.DOES_NOT_FIT: (N_("{card} does not fit on {top}."), ("card", "top")),
    C.NOTHING_ON_ACE: (N_("Nothing fits on an Ace ({top})."), ("top",)),
    C.NOT_ONE_LOWER: (N_("{card} does not fit on {top}: piles run down by exactly one."), ("card", "top")),
    C.SAME_COLOUR: (N_("{card} does not fit on {top}: colours must alternate."), ("card", "top")),
    C.NOT_A_CORNER: (N_("{space} is a side; Kings go to NE, SE, SW or NW."), ("space",)),
    C.NOT_A_SIDE: (N_("{space} is a corner, not a side (N, E, S or W)."), ("space",)),
    C.NOT_A_KING: (N_("{card} is not a King: only Kings start corner piles."), ("card",)),
    C.PILE_NOT_KING: (N_("The pile on {space} does not have a King at the bottom."), ("space",)),
    C.SPACE_NOT_EMPTY: (N_("{space} already holds a pile."), ("space",)),
    C.KINGS_GO_TO_CORNERS: (N_("{card} is a King: Kings go to the corners (place_king)."), ("card",)),
    C.SAME_SPACE: (N_("A pile cannot be moved onto itself."), ()),
    C.CORNER_CANNOT_MOVE: (N_("A corner pile starts with a King, which fits on nothing: it stays."), ()),
    C.KING_PILES_FIXED: (
        N_("At this table layout Kings go to corners by themselves; side piles are never moved to corners."), ()
    ),
    C.KING_MUST_BE_PLACED: (N_("You hold a King: place it in an empty corner before ending."), ()),
    C.BAD_OPTIONS: (N_("Options must be a mapping of setting names to values."), ()),
    C.UNKNOWN_SETTING: (N_("Unknown setting '{name}'; the settings are: {settings}."), ("name", "settings")),
    C.SETTING_OUT_OF_RANGE: (
        N_("{name} must be a whole number from {minimum} to {maximum}, not {value}."),
        ("name", "minimum", "maximum", "value"),
    ),
    C.SETTING_NOT_A_CHOICE: (N_("{name} must be one of {choices}, not {value}."), ("name", "choices", "value")),
    C.OPTION_NOT_UNDERSTOOD: (N_("I did not understand '{word}'; options look like target=15."), ("word",)),
    C.BAD_FIRST_DEALER: (
        N_("first_dealer must be 'random', 'host' or 'seat:0' … 'seat:{last}', not {value}."), ("last", "value")
    ),
    C.NO_SUCH_SEAT: (
        N_("first_dealer '{value}' names a seat this {players}-player table does not have."), ("value", "players")
    ),
    C.BAD_REMOVED_CARD: (
        N_("removed_card must be a card such as '2-clubs', or 'random_each_hand', not {value}."), ("value",)
    ),
    C.OPTION_NOT_FOR_VARIANT: (
        N_("{name} = {value} cannot be used with the {variant} variant; it applies only to {variants}."),
        ("name", "value", "variant", "variants"),
    ),
    C.DRAW_UNTIL_PLAYABLE_AT_START: (
        N_("“Draw until a card can be played” happens at the end of a turn, so it cannot be combined with "
           "“Draw at: Start of the turn”."),
        (),
    ),
    C.PLAYER_COUNT_FIXED: (N_("{game} is for exactly {count} players, not {players}."), ("game", "count", "players")),
    C.PLAYER_COUNT_RANGE: (
        N_("{game} is for {minimum} to {maximum} players, not {players}."), ("game", "minimum", "maximum", "players")
    ),
}


def placeholders(template: str) -> tuple[str, ...]:
    """The named fields of a template, in order of appearance."""
    return tuple(name for _, name, _, _ in Formatter().parse(template) if name)


def render(reason: RefusalCode, params: dict[str, Param], translate: Callable[[str], str] = N_) -> str:
    """The message for ``reason``: its template, translated by ``translate``, filled with ``params``."""
    return translate(MESSAGES[reason][0]).format(**params)
