"""Response shaping: domain objects to the wire format of @gitbook/api 0.146.0."""
