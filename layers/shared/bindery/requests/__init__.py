"""Request bodies and shared field types, validated by pydantic before any domain code runs."""
