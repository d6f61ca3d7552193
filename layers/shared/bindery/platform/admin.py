"""Administration that has no API endpoint: users, tokens, organizations and the first start.

    python -m bindery.platform.admin create-user --name "Ada" --email ada@example.com [--token T]
    python -m bindery.platform.admin create-token --user USER_ID
    python -m bindery.platform.admin create-org --owner USER_ID --title "Acme"
    python -m bindery.platform.admin set-site-hostname --site SITE_ID [--hostname docs.example.com]

It talks to the table named by BINDERY_TABLE (and BINDERY_DYNAMODB_ENDPOINT off AWS), so it works against
the local runner's engine and against a deployed stack alike.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from bindery.domain.access.auth import hash_token
from bindery.platform.clock import now_iso
from bindery.platform.ids import new_id, new_token
from bindery.store import orgs as org_store
from bindery.store import sites as site_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.users import User


@dataclass
class Issued:
    user_id: str
    token: str
    org_id: str | None = None


def create_user(display_name: str, email: str | None, *, token: str | None = None,
                email_verified: bool = True) -> Issued:
    user = user_store.create_user(User(id=new_id(), display_name=display_name, email=email,
                                       email_verified=email_verified))
    return Issued(user_id=user.id, token=create_token(user.id, token))


def create_token(user_id: str, token: str | None = None, label: str = "") -> str:
    token = token or new_token()
    user_store.create_token(hash_token(token), user_id, label)
    return token


def create_org(owner_id: str, title: str) -> str:
    owner = user_store.get_user(owner_id)
    if owner is None:
        raise SystemExit(f"no user {owner_id}")
    created = now_iso()
    org = Organization(id=new_id(), title=title, created_at=created, merge_rules={"type": "none"})
    org_store.create_org(org, Member.joining(org.id, owner, "admin", created))
    return org.id


def set_site_hostname(site_id: str, hostname: str | None) -> None:
    """Serve a site at a custom hostname (None: at none). Custom hostnames are an operator's business (the
    official API's are internal), as is pointing the hostname's DNS at the readers' API."""
    site = site_store.get_site(site_id)
    if site is None:
        raise SystemExit(f"no site {site_id}")
    try:
        table.transact(site_store.hostname_ops(site, hostname))
    except table.TransactionConflict:
        raise SystemExit(f"hostname {hostname!r} is taken by another site") from None


def bootstrap(token: str | None = None) -> Issued | None:
    """On a table never bootstrapped: an admin user, an organization and a token. None when done before."""
    if org_store.bootstrapped():
        return None
    issued = create_user("Admin", "admin@bindery.local", token=token)
    issued.org_id = create_org(issued.user_id, "Bindery")
    org_store.mark_bootstrapped(issued.user_id, issued.org_id, now_iso())
    return issued


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bindery.platform.admin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    user = commands.add_parser("create-user", help="create a user and an API token for it")
    user.add_argument("--name", required=True)
    user.add_argument("--email")
    user.add_argument("--token", help="use this token value instead of a generated one")
    user.add_argument("--unverified", action="store_true", help="the email is not verified")
    tok = commands.add_parser("create-token", help="issue another API token for a user")
    tok.add_argument("--user", required=True)
    org = commands.add_parser("create-org", help="create an organization with USER as its admin")
    org.add_argument("--owner", required=True)
    org.add_argument("--title", required=True)
    host = commands.add_parser("set-site-hostname", help="serve a site at a custom hostname (or at none)")
    host.add_argument("--site", required=True)
    host.add_argument("--hostname", help="omit to remove the site's custom hostname")
    args = parser.parse_args(argv)
    if args.command == "create-user":
        issued = create_user(args.name, args.email, token=args.token, email_verified=not args.unverified)
        print(json.dumps({"userId": issued.user_id, "token": issued.token}))
    elif args.command == "create-token":
        if user_store.get_user(args.user) is None:
            raise SystemExit(f"no user {args.user}")
        print(json.dumps({"userId": args.user, "token": create_token(args.user)}))
    elif args.command == "set-site-hostname":
        set_site_hostname(args.site, args.hostname)
        print(json.dumps({"siteId": args.site, "hostname": args.hostname}))
    else:
        print(json.dumps({"organizationId": create_org(args.owner, args.title)}))


if __name__ == "__main__":
    main()
