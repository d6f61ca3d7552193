"""Which account an organization's SAML login may sign in (docs/sso.md, "Accounts").

An identity provider speaks for its own organization only: anyone who administers an organization can
register one with their own key and have it assert any email. So an assertion from organization X's
provider signs in only
  * the account X's identity (the asserted email) is bound to: bound by the identity's first login,
    which created that account, or by a link its holder made while signed in;
  * the signed-in user who started this very login to link the identity to their account (the
    AuthnRequest it answers names them: proof that the account's holder is the one at the IdP), when
    the asserted email is their account's: otherwise someone could start a link and have another person
    finish it at the IdP, binding that person's identity to their own account;
  * a new account, created for X, when the email belongs to no account yet.
An email that already belongs to an account the identity is not bound to never signs that account in:
the login is refused and says how to link. Emails stay unique, so no second account is created for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.platform.errors import Forbidden

NOT_LINKED = ("SAML login refused: an account with this email already exists and is not linked to this "
              "organization's single sign-on. Sign in to that account, then link it: POST "
              "/orgs/{organizationId}/saml/{samlProviderId}/link (as a member of the organization) and "
              "log in at the identity provider from the URL it answers")
NOT_YOURS = ("SAML login refused: the identity provider asserted an email that is not your account's; "
             "a link binds only the identity with your account's email")
TAKEN = ("SAML login refused: this identity of the organization is already linked to another account; "
         "sign in with that account")


@dataclass(frozen=True)
class Facts:
    """What the login knows, all of it read before deciding."""

    bound_user: str | None  # the existing account the organization's identity is bound to
    email_owner: str | None  # the existing account whose email the assertion names
    linking_user: str | None  # the signed-in user who started this login to link (None: a login)


@dataclass(frozen=True)
class Decision:
    user_id: str | None  # the account signed in; None: a new account is created
    bind: bool  # the identity gets bound to that account now


def decide(facts: Facts) -> Decision:
    """The account the login signs in, or Forbidden when it may sign in none."""
    if facts.linking_user is not None:
        if facts.email_owner != facts.linking_user:
            raise Forbidden(NOT_YOURS)
        if facts.bound_user is None:
            return Decision(user_id=facts.linking_user, bind=True)
        if facts.bound_user == facts.linking_user:
            return Decision(user_id=facts.linking_user, bind=False)
        raise Forbidden(TAKEN)
    if facts.bound_user is not None:
        return Decision(user_id=facts.bound_user, bind=False)
    if facts.email_owner is not None:
        raise Forbidden(NOT_LINKED)
    return Decision(user_id=None, bind=True)
