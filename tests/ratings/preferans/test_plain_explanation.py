"""``formatting.plain_explanation`` tries a rule only when the text holds its literal (issue 16: the preferans section
writes twenty explanations); the text it gives is the one every rule applied in turn gave, in both languages."""

import re

import pytest

from federation import formatting

RULES = [
    (r"\s*->\s*", " → "),
    (r"ceil\(((?:[^()]|\([^()]*\))*)\)", r"⌈\1⌉"),
    (r"floor\(((?:[^()]|\([^()]*\))*)\)", r"⌊\1⌋"),
    (r"\s//\s", " ÷ "),
]
WORDS = {
    "ru": [
        (r"\bbase\b", "основа"),
        (r"\bPro\b", "Профи"),
        (r"\bПро-лиг", "лиг"),
        (r"MAXK1 \+ … \+ MAXK(\d+)", r"\1 наибольших W·A всех учтённых турниров"),
        (r"\bMAXK\d*", "наибольшее W·A"),
        (r"переход в лигу навсегда", "переход в лигу профи навсегда"),
    ],
    "en": [
        (r"\bbase\b", "basis"),
        (r"\bPro\b", "Professional"),
        (r"MAXK1 \+ … \+ MAXK(\d+)", r"the \1 largest W·A of all tournaments counted"),
        (r"\bMAXK\d*", "largest W·A"),
    ],
}
TEXTS = [
    "Rs = 1579.3406, висты Vs = -2; рейтинг стола Rt = 1237.269; Kd = 2/(1 + log10(1 + 342.0716/100)), = 1.2154; "
    "новый рейтинг 1579.3406 → 1576.6437",
    "reached 1800: promoted to the Pro league for good; достигнут рейтинг 1800: переход в Про-лигу навсегда",
    "n = ceil(5/(4 - 1)) = 2: 100 -> 103, m = 9 // 2, k = floor(7/2)->3, a//b",
    "MAXK1 + … + MAXK4 = 12; MAXK = 3; MAXK7; baseline base; Professional Pro-league; Pro.",
    "Про-лига, в Про-лигу; переход в лигу навсегда, переход в лигу навсегда",
    "",
]


def rules_in_turn(text, language):
    if not text:
        return ""
    for pattern, replacement in RULES + WORDS[language]:
        text = re.sub(pattern, replacement, text)
    return formatting.localized_numbers(text, language)  # and the numbers the reader's way (issue 28)


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("text", TEXTS)
def test_the_text_every_rule_in_turn_gave(text, language):
    assert formatting.plain_explanation(text, language) == rules_in_turn(text, language)
