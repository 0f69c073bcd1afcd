"""The rule cards' text and their worked examples, read from a ``Rules`` value."""
