"""The project's refusals: a closed set of codes, each with an English template and named parameters.

``Refusal`` is what every layer catches; ``IllegalAction`` is a move the rules forbid,
``MalformedAction`` a move that is not even well formed, ``BadOptions`` a table setting
that is not allowed. A refusal is built as ``Refusal(RefusalCode.X, **params)``: its English
``message`` comes from the code's template in ``MESSAGES``. Parameters are wire values
(cards like ``"9-clubs"``, suits like ``"clubs"``, spaces like ``"NE"``, numbers, or lists
joined as text), so an adapter can render them in the reader's language.

A few specific codes report a broader code on the wire (``FAMILY``): every refused setting
is ``bad_options``, every shapeless move ``malformed_action``. ``code`` is that wire code,
``reason`` the specific one whose template the message uses; they are equal for most codes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from string import Formatter

Param = str | int


def N_(message: str) -> str:
    """Mark a message template for extraction; it is translated where it is rendered, not here."""
    return message


class RefusalCode(StrEnum):
    """Every reason anything is refused, anywhere in the project."""

    # tables and seats (engine.service, adapters)
    TABLE_NOT_FOUND = "table_not_found"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    TOO_MANY_PLAYERS = "too_many_players"
    SEAT_TAKEN_BY_AI = "seat_taken_by_ai"
    NOT_SEATED = "not_seated"
    NOT_HOST = "not_host"
    NOT_STARTED = "not_started"
    ALREADY_STARTED = "already_started"
    ABANDONED = "abandoned"
    NOT_FINISHED = "not_finished"
    STALE = "stale"
    SERVER_ERROR = "server_error"
    UNAVAILABLE = "unavailable"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_LANGUAGE = "unknown_language"
    # requests (webapp)
    BAD_REQUEST = "bad_request"
    BODY_NOT_JSON = "body_not_json"
    BODY_NOT_OBJECT = "body_not_object"
    UNKNOWN_OPERATION = "unknown_operation"
    NAME_REQUIRED = "name_required"
    CREATE_SHAPE = "create_shape"
    CHANGES_NOT_OBJECT = "changes_not_object"
    BAD_JSON = "bad_json"
    BAD_NAME = "bad_name"
    NAME_NOT_TEXT = "name_not_text"
    BAD_PAGE_LIMIT = "bad_page_limit"
    BAD_CURSOR = "bad_cursor"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_REQUESTS = "too_many_requests"
    TOO_MANY_NEW_TABLES = "too_many_new_tables"
    SETTING_NAME_TOO_LONG = "setting_name_too_long"
    SETTING_VALUE_SHAPE = "setting_value_shape"
    BAD_NUMBER = "bad_number"
    TOO_MANY_OPTIONS = "too_many_options"
    NOT_IN_GROUP = "not_in_group"
    LOCAL_SIGNIN_DISABLED = "local_signin_disabled"
    NO_BOT = "no_bot"  # an invitation needs the bot (no bot token, or it has not started)
    INVITE_FAILED = "invite_failed"  # Telegram did not prepare an invitation
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    REQUEST_TIMEOUT = "request_timeout"
    REQUEST_TOO_LARGE = "request_too_large"
    # signing in (webapp.auth): the wire code is ``unauthorized`` (``bad_init_data`` for malformed data over HTTP)
    UNAUTHORIZED = "unauthorized"
    BAD_INIT_DATA = "bad_init_data"
    SIGN_IN_MISSING = "sign_in_missing"
    SIGN_IN_HEADER_MISSING = "sign_in_header_missing"
    SIGN_IN_TOO_LONG = "sign_in_too_long"
    SIGN_IN_NOT_TEXT = "sign_in_not_text"
    SIGN_IN_NOT_A_QUERY = "sign_in_not_a_query"
    SIGN_IN_REPEATS_FIELD = "sign_in_repeats_field"
    SIGN_IN_UNSIGNED = "sign_in_unsigned"
    SIGN_IN_FORGED = "sign_in_forged"
    SIGN_IN_BAD_DATE = "sign_in_bad_date"
    SIGN_IN_EXPIRED = "sign_in_expired"
    SIGN_IN_FROM_THE_FUTURE = "sign_in_from_the_future"
    SIGN_IN_NO_USER = "sign_in_no_user"
    SIGN_IN_BAD_USER_ID = "sign_in_bad_user_id"
    SIGN_IN_TEXT_NOT_UNICODE = "sign_in_text_not_unicode"
    NO_HELLO = "no_hello"
    HELLO_FIRST = "hello_first"
    HELLO_WITHOUT_INIT_DATA = "hello_without_init_data"
    # table sockets (webapp.ws, webapp.protocol, webapp.limits)
    MALFORMED_FRAME = "malformed_frame"
    FRAME_NOT_TEXT = "frame_not_text"
    FRAME_NOT_JSON = "frame_not_json"
    FRAME_TOO_DEEP = "frame_too_deep"
    FRAME_NOT_UNICODE = "frame_not_unicode"
    UNKNOWN_FRAME = "unknown_frame"
    BAD_REF = "bad_ref"
    ACT_WITHOUT_SEQ = "act_without_seq"
    ACT_WITHOUT_ACTION = "act_without_action"
    BAD_LOBBY_OP = "bad_lobby_op"
    FRAME_CHANGES_NOT_OBJECT = "frame_changes_not_object"
    BAD_PING = "bad_ping"
    BAD_LAST_SEQ = "bad_last_seq"
    TOO_LARGE = "too_large"
    FLOOD = "flood"
    FLOOD_DISCONNECTED = "flood_disconnected"
    TABLE_CROWDED = "table_crowded"
    TOO_MANY_SOCKETS = "too_many_sockets"
    TOO_MANY_PENDING = "too_many_pending"
    TOO_MANY_PENDING_HERE = "too_many_pending_here"
    # the shape of a move
    MALFORMED_ACTION = "malformed_action"
    ACTION_NOT_JSON = "action_not_json"
    ACTION_TOO_LARGE = "action_too_large"
    MOVE_WITHOUT_SEQ = "move_without_seq"
    CARDS_NOT_A_LIST = "cards_not_a_list"
    FIELD_NOT_A_WORD = "field_not_a_word"
    BID_NOT_A_NUMBER = "bid_not_a_number"
    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_CARD = "unknown_card"
    DUPLICATE_CARD = "duplicate_card"
    UNKNOWN_SPACE = "unknown_space"
    BAD_TRICK = "bad_trick"
    TRICK_NOT_THREE = "trick_not_three"
    TRICK_TOO_LONG = "trick_too_long"
    TRICK_REPEATS_CARD = "trick_repeats_card"
    # every game
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    WRONG_PHASE = "wrong_phase"
    # trick games (Sergeant Major)
    MUST_FOLLOW_SUIT = "must_follow_suit"
    BAD_BID = "bad_bid"
    BAD_COUNT = "bad_count"
    GIVE_COUNT = "give_count"
    DISCARD_COUNT = "discard_count"
    BAD_CALL = "bad_call"
    TRUMP_SUIT_ONLY = "trump_suit_only"
    CALL_USED = "call_used"
    BAD_SUIT = "bad_suit"
    # Kings in the Corner
    MUST_PLAY_DRAWN = "must_play_drawn"
    NO_PARTIAL_MOVES = "no_partial_moves"
    CARD_ON_BOARD = "card_on_board"
    SPACE_EMPTY = "space_empty"
    CORNER_NEEDS_KING = "corner_needs_king"
    SIDE_NEEDS_FILL = "side_needs_fill"
    NO_PILE_TO_MOVE_ONTO = "no_pile_to_move_onto"
    DOES_NOT_FIT = "does_not_fit"
    NOTHING_ON_ACE = "nothing_on_ace"
    NOT_ONE_LOWER = "not_one_lower"
    SAME_COLOUR = "same_colour"
    NOT_A_CORNER = "not_a_corner"
    NOT_A_SIDE = "not_a_side"
    NOT_A_KING = "not_a_king"
    PILE_NOT_KING = "pile_not_king"
    SPACE_NOT_EMPTY = "space_not_empty"
    KINGS_GO_TO_CORNERS = "kings_go_to_corners"
    SAME_SPACE = "same_space"
    CORNER_CANNOT_MOVE = "corner_cannot_move"
    KING_PILES_FIXED = "king_piles_fixed"
    KING_MUST_BE_PLACED = "king_must_be_placed"
    # settings
    BAD_OPTIONS = "bad_options"
    UNKNOWN_SETTING = "unknown_setting"
    SETTING_OUT_OF_RANGE = "setting_out_of_range"
    SETTING_NOT_A_CHOICE = "setting_not_a_choice"
    OPTION_NOT_UNDERSTOOD = "option_not_understood"
    BAD_FIRST_DEALER = "bad_first_dealer"
    NO_SUCH_SEAT = "no_such_seat"
    BAD_REMOVED_CARD = "bad_removed_card"
    OPTION_NOT_FOR_VARIANT = "option_not_for_variant"
    DRAW_UNTIL_PLAYABLE_AT_START = "draw_until_playable_at_start"
    PLAYER_COUNT_FIXED = "player_count_fixed"
    PLAYER_COUNT_RANGE = "player_count_range"


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
    C.UNKNOWN_GAME: (N_("There is no game called '{name}'; the games are: {games}."), ("name", "games")),
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
        N_("pass_rule 'draw_until_playable' happens at the end of a turn, so it cannot be combined with "
           "draw_timing 'start'."),
        (),
    ),
    C.PLAYER_COUNT_FIXED: (N_("{game} is for exactly {count} players, not {players}."), ("game", "count", "players")),
    C.PLAYER_COUNT_RANGE: (
        N_("{game} is for {minimum} to {maximum} players, not {players}."), ("game", "minimum", "maximum", "players")
    ),
}

# Specific codes that report a broader code on the wire (HTTP statuses and clients key on it).
FAMILY: dict[RefusalCode, RefusalCode] = {
    **{c: C.BAD_REQUEST for c in (C.BODY_NOT_JSON, C.BODY_NOT_OBJECT, C.UNKNOWN_OPERATION, C.NAME_REQUIRED,
                                  C.CREATE_SHAPE, C.CHANGES_NOT_OBJECT, C.BAD_PAGE_LIMIT, C.BAD_NUMBER,
                                  C.UNKNOWN_LANGUAGE)},
    C.NAME_NOT_TEXT: C.BAD_NAME,
    **{c: C.UNAUTHORIZED for c in (C.SIGN_IN_MISSING, C.SIGN_IN_HEADER_MISSING, C.SIGN_IN_TOO_LONG, C.SIGN_IN_NOT_TEXT,
                                   C.SIGN_IN_NOT_A_QUERY, C.SIGN_IN_REPEATS_FIELD, C.SIGN_IN_UNSIGNED,
                                   C.SIGN_IN_FORGED, C.SIGN_IN_BAD_DATE, C.SIGN_IN_EXPIRED, C.SIGN_IN_FROM_THE_FUTURE,
                                   C.SIGN_IN_NO_USER, C.SIGN_IN_BAD_USER_ID, C.SIGN_IN_TEXT_NOT_UNICODE, C.NO_HELLO,
                                   C.HELLO_FIRST, C.HELLO_WITHOUT_INIT_DATA)},
    **{c: C.MALFORMED_FRAME for c in (C.FRAME_NOT_TEXT, C.FRAME_NOT_JSON, C.FRAME_TOO_DEEP, C.FRAME_NOT_UNICODE,
                                      C.UNKNOWN_FRAME, C.BAD_REF, C.ACT_WITHOUT_SEQ, C.ACT_WITHOUT_ACTION,
                                      C.BAD_LOBBY_OP, C.FRAME_CHANGES_NOT_OBJECT, C.BAD_PING, C.BAD_LAST_SEQ)},
    C.FLOOD_DISCONNECTED: C.FLOOD,
    C.REQUEST_TOO_LARGE: C.TOO_LARGE,
    C.TOO_MANY_PENDING_HERE: C.TOO_MANY_PENDING,
    **{c: C.MALFORMED_ACTION for c in (C.ACTION_NOT_JSON, C.ACTION_TOO_LARGE, C.MOVE_WITHOUT_SEQ, C.CARDS_NOT_A_LIST,
                                       C.FIELD_NOT_A_WORD, C.BID_NOT_A_NUMBER)},
    **{c: C.BAD_TRICK for c in (C.TRICK_NOT_THREE, C.TRICK_TOO_LONG, C.TRICK_REPEATS_CARD)},
    **{c: C.BAD_COUNT for c in (C.GIVE_COUNT, C.DISCARD_COUNT)},
    C.TRUMP_SUIT_ONLY: C.BAD_CALL,
    C.CARD_ON_BOARD: C.NO_PARTIAL_MOVES,
    **{c: C.SPACE_EMPTY for c in (C.CORNER_NEEDS_KING, C.SIDE_NEEDS_FILL, C.NO_PILE_TO_MOVE_ONTO)},
    **{c: C.DOES_NOT_FIT for c in (C.NOTHING_ON_ACE, C.NOT_ONE_LOWER, C.SAME_COLOUR)},
    C.PILE_NOT_KING: C.NOT_A_KING,
    **{c: C.BAD_OPTIONS for c in (C.SETTING_NAME_TOO_LONG, C.SETTING_VALUE_SHAPE, C.TOO_MANY_OPTIONS,
                                  C.UNKNOWN_SETTING, C.SETTING_OUT_OF_RANGE, C.SETTING_NOT_A_CHOICE,
                                  C.OPTION_NOT_UNDERSTOOD, C.BAD_FIRST_DEALER, C.NO_SUCH_SEAT, C.BAD_REMOVED_CARD,
                                  C.OPTION_NOT_FOR_VARIANT, C.DRAW_UNTIL_PLAYABLE_AT_START, C.PLAYER_COUNT_FIXED,
                                  C.PLAYER_COUNT_RANGE)},
}


def placeholders(template: str) -> tuple[str, ...]:
    """The named fields of a template, in order of appearance."""
    return tuple(name for _, name, _, _ in Formatter().parse(template) if name)


def render(reason: RefusalCode, params: dict[str, Param], translate: Callable[[str], str] = N_) -> str:
    """The message for ``reason``: its template, translated by ``translate``, filled with ``params``."""
    return translate(MESSAGES[reason][0]).format(**params)


def listed(items: Iterable[object]) -> str:
    """A list parameter as wire text: its items joined by commas."""
    return ", ".join(str(item) for item in items)


class Refusal(Exception):
    """Something asked for was refused; nothing changed."""

    def __init__(self, reason: RefusalCode, /, **params: Param) -> None:
        template, names = MESSAGES[reason]
        if set(params) != set(names):
            raise TypeError(f"{reason} takes the parameters {names}, not {tuple(params)}")
        self.reason = reason
        self.code = FAMILY.get(reason, reason)
        self.params = params
        self.message = template.format(**params)
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, {self.params!r})"

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in another language: the translated template filled with the parameters."""
        return render(self.reason, self.params, translate)

    def as_dict(self) -> dict[str, object]:
        """The refusal as a JSON-ready value; ``reason`` appears only where it differs from ``code``."""
        out: dict[str, object] = {"code": str(self.code), "message": self.message, "params": dict(self.params)}
        if self.reason != self.code:
            out["reason"] = str(self.reason)
        return out


class IllegalAction(Refusal):
    """A well-formed move that the rules do not allow now."""


class MalformedAction(IllegalAction):
    """A move that is not well formed: wrong shape, unknown type, unknown card."""


class BadOptions(Refusal):
    """A table setting, or a combination of settings, that is not allowed (wire code ``bad_options``)."""
