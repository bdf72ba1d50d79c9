# One date in tables and prose alike: 28.11.2026; the long form for headings: 28 ноября 2026 г.
DATE_FORMAT = "j E Y г."
SHORT_DATE_FORMAT = "d.m.Y"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
