"""A hand as players enter it: the stored inputs and their scoring (``inputs``), the
form fields a hand is typed into (``fields``), and the way from a filled form to
stored inputs and back (``entry``). Shared by the variants and the pages."""
