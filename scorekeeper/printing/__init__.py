"""Printing: pages typeset as PDF through WeasyPrint, a hand's printed lines, print options."""
