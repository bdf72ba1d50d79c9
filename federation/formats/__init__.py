"""The site's date formats per language (``FORMAT_MODULE_PATH``); numbers keep Django's own separators."""
