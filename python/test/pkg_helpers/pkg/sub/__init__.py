"""pkg.sub: a subpackage reached through attribute chains (pkg.sub.deep.negate)."""
from . import deep  # noqa: F401
