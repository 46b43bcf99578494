"""Logbook sources beyond a local folder: Spaces and datasets on the Hub, published URLs, and finding them.

`open_source(text)` turns any SOURCE argument into a local folder to read (downloading when needed) and says
where it came from; `find_logbooks(orid)` lists the challenge's Spaces for a paper.
"""
