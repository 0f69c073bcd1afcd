"""Club nights: several tables, one evening, one board."""
