"""The card codec and the mask listings every game's views and rules read from."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.cards import FRENCH, SPANISH, Deck, PerCard, cards_in

DECKS = st.sampled_from([SPANISH, FRENCH])


@given(DECKS, st.data())
def test_a_masks_texts_name_its_cards_in_deck_order_and_parse_back(deck: Deck, data: st.DataObject) -> None:
    mask = data.draw(st.integers(min_value=0, max_value=deck.full))
    held = [card for card in range(deck.size) if mask >> card & 1]
    assert list(cards_in(mask)) == held
    texts = deck.texts(mask)
    assert texts == [f"{deck.rank_name(card)}-{deck.suit_name(card)}" for card in held]
    assert [deck.parse(text) for text in texts] == held


@given(st.integers(min_value=1, max_value=64), st.data())
def test_per_card_values_of_a_mask_are_those_of_its_cards_lowest_first(size: int, data: st.DataObject) -> None:
    values = [f"v{i}" for i in range(size)]
    mask = data.draw(st.integers(min_value=0, max_value=(1 << size) - 1))
    assert PerCard(values).of(mask) == [values[card] for card in range(size) if mask >> card & 1]
