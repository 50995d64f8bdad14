"""Rendering: card images from SVG sized once per size shown (:mod:`~briscola.gui.render.assets`,
with fonts, sounds and textures), card sprites (:mod:`~briscola.gui.render.sprites`), tweens
(:mod:`~briscola.gui.render.tween`) and the table's backdrop
(:mod:`~briscola.gui.render.backdrop`).
"""
