"""Rendering: card images from SVG sized once per size shown (:mod:`~briscola.gui.render.assets`,
with fonts, sounds and textures), card sprites (:mod:`~briscola.gui.render.sprites`), tweens
(:mod:`~briscola.gui.render.tween`), the table's backdrop (:mod:`~briscola.gui.render.backdrop`),
the rectangles a partial frame draws again (:mod:`~briscola.gui.render.damage`), the window,
made for the screen's real pixels (:mod:`~briscola.gui.render.window`), and the scale of
high-DPI screens (:mod:`~briscola.gui.render.display`).
"""
