"""File formats at the edge: case files, dipsat JSON, the ``diplomacy`` package's saved games,
Droidippy/godip game histories, recorded games whatever their format (:mod:`.records`), and
text files as people save them (:mod:`.textfile`)."""
