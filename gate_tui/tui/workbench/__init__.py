"""The reply workbench: the reply pane, its preview, candidates, apply / clear / next
candidate and the model's ask / stream / retry, for every screen that shows a reply
(the gate editor, the contract editor, review's detail). See ``widget.py``."""
