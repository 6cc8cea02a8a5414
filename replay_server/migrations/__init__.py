"""The database's schema migrations (Alembic), run by ``lcn db upgrade`` or at the server's start.

Rules for a new step (docs/deployment.md, "Upgrades"): expand, then contract. A step adds
what the new code needs without taking away what the running release uses; it sets
``lcn_schema.version`` to its number and leaves ``compatible_from`` as it is. Only a later
step, once no server of the old release can be running, removes what that release used,
and raises ``compatible_from`` so that older servers refuse the database clearly.
"""
