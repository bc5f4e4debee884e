"""``skuflow train`` and ``skuflow eval --cross-validate``: the page reader learnt from labelled pages.

The corpus (``corpus``) is every labelled page we have: the real-catalog set, the golden set and the
pages annotators corrected. Each page is read by the extractor's stages up to the learned decision
(``skuflow_extractor.reading``); ``labels`` says which candidates the truth holds; ``fit`` trains and
calibrates the model and writes the artifact; ``crossval`` measures it on batches it did not learn from.
"""
