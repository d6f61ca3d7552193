"""Users function: the authenticated user and user profiles."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from bindery.api.responses.users import User
from bindery.api.route_params import Who
from bindery.api.wire.users import user_model
from bindery.domain import users as domain

app = create_app("users")


@app.get("/user")
def current_user(who: Who) -> User:
    return user_model(domain.get_user(who, who.user_id))


@app.get("/users/<userId>")
def get_user(userId: str, who: Who) -> User:
    return user_model(domain.get_user(who, userId))


lambda_handler = api_handler(app)
