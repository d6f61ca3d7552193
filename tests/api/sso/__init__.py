"""SAML providers, logins and the accounts they sign in."""
