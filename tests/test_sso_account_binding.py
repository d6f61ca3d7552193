"""The account-binding rule of SAML logins (bindery.domain.sso.account_binding, docs/sso.md "Accounts"),
case by case: which account an organization's assertion signs in, and when it signs in none."""

from __future__ import annotations

import pytest

from bindery.domain.sso.account_binding import NOT_LINKED, NOT_YOURS, TAKEN, Decision, Facts, decide
from bindery.platform.errors import Forbidden


@pytest.mark.parametrize(("facts", "expected"), [
    # A first login: nobody holds the email, the identity is bound to the account it creates.
    (Facts(bound_user=None, email_owner=None, linking_user=None), Decision(user_id=None, bind=True)),
    # Later logins sign in the bound account, whoever holds the email now.
    (Facts(bound_user="u1", email_owner=None, linking_user=None), Decision(user_id="u1", bind=False)),
    (Facts(bound_user="u1", email_owner="u1", linking_user=None), Decision(user_id="u1", bind=False)),
    (Facts(bound_user="u1", email_owner="u2", linking_user=None), Decision(user_id="u1", bind=False)),
    # A link made while signed in binds the identity with the signed-in user's email to them.
    (Facts(bound_user=None, email_owner="u3", linking_user="u3"), Decision(user_id="u3", bind=True)),
    (Facts(bound_user="u3", email_owner="u3", linking_user="u3"), Decision(user_id="u3", bind=False)),
])
def test_the_account_a_login_signs_in(facts, expected):
    assert decide(facts) == expected


def test_an_email_held_by_an_unbound_account_signs_nothing_in_and_says_how_to_link():
    with pytest.raises(Forbidden) as refused:
        decide(Facts(bound_user=None, email_owner="victim", linking_user=None))
    assert refused.value.message == NOT_LINKED


def test_an_identity_bound_to_one_account_is_not_linked_to_another():
    with pytest.raises(Forbidden) as refused:
        decide(Facts(bound_user="u1", email_owner="u2", linking_user="u2"))
    assert refused.value.message == TAKEN


@pytest.mark.parametrize("owner", [None, "u2"])
def test_a_link_binds_only_the_identity_with_the_signed_in_users_email(owner):
    """Someone who starts a link and has another person finish it at the IdP binds nothing."""
    for bound in (None, "u3", owner):
        with pytest.raises(Forbidden) as refused:
            decide(Facts(bound_user=bound, email_owner=owner, linking_user="u3"))
        assert refused.value.message == NOT_YOURS
