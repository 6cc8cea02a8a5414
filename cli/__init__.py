"""The ``lcn`` command line: thin Click wrappers over the :mod:`lcn` library.

Installed as the package ``lcn_cli`` (this folder), never as a generic ``cli`` module.
"""
