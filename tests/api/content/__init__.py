"""A space's content: reads, `if` evaluation, templates, link checks."""
