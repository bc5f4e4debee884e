"""Classifier service: page type A-D, layout L1-L4 and text/image roles for each parsed page."""
