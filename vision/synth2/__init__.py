"""Second scene style, written apart from :mod:`vision.synth` and used only to evaluate.

Other card designs (dark borders, full-bleed art, other fonts and pips), tables made from
real photographs (scikit-image samples) and white, light-wood and patterned cloths, light
of several colour temperatures, glare, phone-camera noise and JPEG. No threshold of the
recogniser is chosen on these scenes. :mod:`vision.synth2.themes` lays the Pass Pass deck as
a French deck drawn by others (AisleRiot's card themes, some with scanned court cards).
"""
