"""Country names in Russian and English for the two-letter codes the registry stores (ISO 3166-1 alpha-2).

The federation's players come from a few dozen countries; a code not in this table is shown as it is (the page
still reads, and adding a line here names it).
"""

from __future__ import annotations

# code: (English, Russian)
NAMES: dict[str, tuple[str, str]] = {
    "AM": ("Armenia", "Армения"),
    "AT": ("Austria", "Австрия"),
    "AU": ("Australia", "Австралия"),
    "AZ": ("Azerbaijan", "Азербайджан"),
    "BE": ("Belgium", "Бельгия"),
    "BG": ("Bulgaria", "Болгария"),
    "BR": ("Brazil", "Бразилия"),
    "BY": ("Belarus", "Беларусь"),
    "CA": ("Canada", "Канада"),
    "CH": ("Switzerland", "Швейцария"),
    "CN": ("China", "Китай"),
    "CY": ("Cyprus", "Кипр"),
    "CZ": ("Czechia", "Чехия"),
    "DE": ("Germany", "Германия"),
    "DK": ("Denmark", "Дания"),
    "EE": ("Estonia", "Эстония"),
    "ES": ("Spain", "Испания"),
    "FI": ("Finland", "Финляндия"),
    "FR": ("France", "Франция"),
    "GB": ("United Kingdom", "Великобритания"),
    "GE": ("Georgia", "Грузия"),
    "GR": ("Greece", "Греция"),
    "HR": ("Croatia", "Хорватия"),
    "HU": ("Hungary", "Венгрия"),
    "IE": ("Ireland", "Ирландия"),
    "IL": ("Israel", "Израиль"),
    "IN": ("India", "Индия"),
    "IT": ("Italy", "Италия"),
    "JP": ("Japan", "Япония"),
    "KG": ("Kyrgyzstan", "Киргизия"),
    "KR": ("South Korea", "Республика Корея"),
    "KZ": ("Kazakhstan", "Казахстан"),
    "LT": ("Lithuania", "Литва"),
    "LV": ("Latvia", "Латвия"),
    "MD": ("Moldova", "Молдова"),
    "MN": ("Mongolia", "Монголия"),
    "NL": ("Netherlands", "Нидерланды"),
    "NO": ("Norway", "Норвегия"),
    "PL": ("Poland", "Польша"),
    "PT": ("Portugal", "Португалия"),
    "RO": ("Romania", "Румыния"),
    "RS": ("Serbia", "Сербия"),
    "RU": ("Russia", "Россия"),
    "SE": ("Sweden", "Швеция"),
    "SI": ("Slovenia", "Словения"),
    "SK": ("Slovakia", "Словакия"),
    "TJ": ("Tajikistan", "Таджикистан"),
    "TM": ("Turkmenistan", "Туркменистан"),
    "TR": ("Turkey", "Турция"),
    "TW": ("Taiwan", "Тайвань"),
    "UA": ("Ukraine", "Украина"),
    "US": ("United States", "США"),
    "UZ": ("Uzbekistan", "Узбекистан"),
}


def country_name(code: str, language: str) -> str:
    names = NAMES.get((code or "").upper())
    if names is None:
        return code or ""
    return names[1] if language.startswith("ru") else names[0]
