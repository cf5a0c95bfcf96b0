"""Refusal codes: every code has an English template, and each template takes exactly its declared parameters."""

from __future__ import annotations

import pytest

from engine.core.errors import FAMILY, MESSAGES, BadOptions, IllegalAction, Refusal, RefusalCode, placeholders


def test_every_refusal_code_has_a_template() -> None:
    assert set(MESSAGES) == set(RefusalCode)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_refusal_template_takes_exactly_its_declared_parameters(code: RefusalCode) -> None:
    template, names = MESSAGES[code]
    assert sorted(placeholders(template)) == sorted(names)
    message = Refusal(code, **{name: f"<{name}>" for name in names}).message
    assert message.endswith(".") and all(f"<{name}>" in message for name in names)


def test_refusal_builds_its_message_from_the_template_and_parameters() -> None:
    refused = IllegalAction(RefusalCode.MUST_FOLLOW_SUIT, suit="clubs")
    assert refused.as_dict() == {
        "code": "must_follow_suit",
        "message": "You must follow suit: clubs were led and you hold some.",
        "params": {"suit": "clubs"},
    }


def test_refusal_with_a_family_reports_the_family_code_and_its_own_reason() -> None:
    refused = BadOptions(RefusalCode.UNKNOWN_SETTING, name="colour", settings="target_score, first_dealer")
    assert (refused.code, refused.reason) == ("bad_options", "unknown_setting")
    assert refused.as_dict()["reason"] == "unknown_setting"
    assert all(family in MESSAGES and family not in FAMILY for family in FAMILY.values())


def test_refusal_renders_in_another_language_through_the_translated_template() -> None:
    refused = IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card="9-clubs")
    assert refused.render(lambda template: template.replace("You do not hold", "Nie masz")) == "Nie masz 9-clubs."


def test_refusal_refuses_parameters_its_template_does_not_declare() -> None:
    with pytest.raises(TypeError):
        Refusal(RefusalCode.NOT_YOUR_TURN, seat=1)
