"""One scenario test per card of the packaged card set, grouped by card file."""
