# Helpers of the module end-to-end test, split over a package.
from .act import leaky  # noqa: F401
