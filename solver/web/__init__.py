"""``dipsat serve``: the rule lawyer's sandbox in the browser and its HTTP API (docs/serve.md).

:mod:`dipsat.web.inputs` and :mod:`dipsat.web.api` use the library only; :mod:`dipsat.web.app`
needs the ``web`` extra (Starlette, uvicorn). Only ``dipsat serve`` imports this package: the
rest of the command line starts without it.
"""
