"""The platform glue every layer may use: configuration, AWS clients, observability, SnapStart, the clock,
ids, errors, encrypted cursors, queues and their messages, secrets, the stack's URLs, what Bindery may
fetch, and the admin command; it imports no API, domain, request body or engine (an import-linter
contract; the admin command hashes the tokens it issues with the domain's `access.auth`)."""
