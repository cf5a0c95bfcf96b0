"""Every reason anything is refused, as one closed set of codes, and the broader code some report on the wire.

A few specific codes report a broader code on the wire (``FAMILY``): every refused setting
is ``bad_options``, every shapeless move ``malformed_action``.
"""

from __future__ import annotations

from enum import StrEnum


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
    MOVING = "moving"  # this process stopped serving the table (cut off from the others): the socket reconnects
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_LANGUAGE = "unknown_language"
    # the deal of the day (engine.service.daily)
    DAILY_DONE = "daily_done"
    DAILY_NOT_FINISHED = "daily_not_finished"
    DAILY_NOT_CLOSED = "daily_not_closed"
    BAD_DATE = "bad_date"
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
    TOO_MANY_NEW_TABLES_YOURS = "too_many_new_tables_yours"
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
    SIGN_IN_ENDED = "sign_in_ended"
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

# Specific codes that report a broader code on the wire (HTTP statuses and clients key on it).
FAMILY: dict[RefusalCode, RefusalCode] = {
    **{c: C.BAD_REQUEST for c in (C.BODY_NOT_JSON, C.BODY_NOT_OBJECT, C.UNKNOWN_OPERATION, C.NAME_REQUIRED,
                                  C.CREATE_SHAPE, C.CHANGES_NOT_OBJECT, C.BAD_PAGE_LIMIT, C.BAD_NUMBER,
                                  C.UNKNOWN_LANGUAGE, C.BAD_DATE)},
    C.NAME_NOT_TEXT: C.BAD_NAME,
    **{c: C.UNAUTHORIZED for c in (C.SIGN_IN_MISSING, C.SIGN_IN_HEADER_MISSING, C.SIGN_IN_TOO_LONG, C.SIGN_IN_NOT_TEXT,
                                   C.SIGN_IN_NOT_A_QUERY, C.SIGN_IN_REPEATS_FIELD, C.SIGN_IN_UNSIGNED,
                                   C.SIGN_IN_FORGED, C.SIGN_IN_BAD_DATE, C.SIGN_IN_EXPIRED, C.SIGN_IN_ENDED,
                                   C.SIGN_IN_FROM_THE_FUTURE, C.SIGN_IN_NO_USER, C.SIGN_IN_BAD_USER_ID,
                                   C.SIGN_IN_TEXT_NOT_UNICODE, C.NO_HELLO,
                                   C.HELLO_FIRST, C.HELLO_WITHOUT_INIT_DATA)},
    **{c: C.MALFORMED_FRAME for c in (C.FRAME_NOT_TEXT, C.FRAME_NOT_JSON, C.FRAME_TOO_DEEP, C.FRAME_NOT_UNICODE,
                                      C.UNKNOWN_FRAME, C.BAD_REF, C.ACT_WITHOUT_SEQ, C.ACT_WITHOUT_ACTION,
                                      C.BAD_LOBBY_OP, C.FRAME_CHANGES_NOT_OBJECT, C.BAD_PING, C.BAD_LAST_SEQ)},
    C.FLOOD_DISCONNECTED: C.FLOOD,
    C.REQUEST_TOO_LARGE: C.TOO_LARGE,
    C.TOO_MANY_PENDING_HERE: C.TOO_MANY_PENDING,
    C.TOO_MANY_NEW_TABLES_YOURS: C.TOO_MANY_NEW_TABLES,
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

