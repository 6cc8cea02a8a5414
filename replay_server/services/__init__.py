"""The site's use cases, called by its blueprints (pages, API, sharing, recorder, pictures).

- :mod:`.games`: find a stored game, and read a file (its games checked, replayed, outlined;
  computed once per text and cached), with the caps of what one request may replay;
- :mod:`.storing`: import a file of any format, check every game, store it;
- :mod:`.documents`: the JSON documents of a file (its validation, its games replayed);
- :mod:`.replays`: render the replay page of a game;
- :mod:`.annotations`: the annotation form's values, and a file annotated as posted;
- :mod:`.links`: self-contained links, the game carried in the link.

They import only downward (the store, the caches, the configuration, the library ``lcn``),
never a blueprint: the blueprints turn requests into calls of these and their results into
answers.
"""
