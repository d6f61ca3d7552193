"""The Docker-free local runner: serves the routes of template.yaml in-process (see README)."""
