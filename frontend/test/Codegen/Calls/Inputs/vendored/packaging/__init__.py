# A copy of a package on the module search path (as a vendored corpus has).
