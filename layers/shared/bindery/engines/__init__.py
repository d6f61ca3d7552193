"""The engines: library code the domain drives, each a package named after what it does —
content (page trees, GitBook Markdown, the three-way merge, PDF), search (SQLite FTS5 indexes),
gitsync (repository format and transport), translation, insights (conversations' issues),
openapi (reading and validating specifications), site_pages (published sites as web pages),
saml (SAML SSO) and mcp_servers (the MCP servers); docs/architecture.md."""
