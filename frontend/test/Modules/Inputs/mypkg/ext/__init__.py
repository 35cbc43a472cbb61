# A subpackage: attribute access reaches its modules.
