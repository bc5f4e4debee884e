"""What catalogs print and how people write it: header words in many languages (``headers``),
prices as they are printed (``prices``), product codes and what merely looks like one (``codes``),
and what a single cell holds (``cells``). Pure functions, no I/O: the classifier and the extractor
share them, and they are domain knowledge, not an event contract.
"""
