"""SAML single sign-on: an organization's providers and the logins they make (docs/sso.md)."""
