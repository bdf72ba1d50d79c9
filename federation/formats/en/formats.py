# Day, month name, year (28 Nov 2026): neither the American 11/28/2026 nor the ISO 2026-11-28 a reader must decode.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
