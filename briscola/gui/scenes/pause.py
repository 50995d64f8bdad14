"""The pause menu over the table (Esc): resume, settings, rules, back to the menu, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.gui.scene import Scene
from briscola.gui.widgets import Button, WidgetGroup, draw_panel
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class PauseScene(Scene):
    opaque = False

    def __init__(self, app: Services, table: Scene) -> None:
        super().__init__(app)
        self.table = table
        self.buttons = [
            Button(lambda: _("Resume"), app.pop, name="resume"),
            Button(lambda: _("Settings"), self.settings, name="settings"),
            Button(lambda: _("Rules"), self.rules, name="rules"),
            Button(lambda: _("Main menu"), self.menu, name="menu"),
            Button(lambda: _("Quit game"), app.quit, name="quit"),
        ]
        self.group = WidgetGroup(self.buttons)
        self.group.keyboard_focus = True
        self.panel = pygame.Rect(0, 0, 10, 10)

    def settings(self) -> None:
        self.app.open("settings")

    def rules(self) -> None:
        self.app.open("rules")

    def menu(self) -> None:
        self.app.open("menu", mode="reset")

    def on_resize(self, size: tuple[int, int]) -> None:
        px = self.app.px
        bw, bh, gap = px(280), px(44), px(10)
        height = len(self.buttons) * (bh + gap) + px(90)
        self.panel = pygame.Rect(0, 0, bw + px(60), height)
        self.panel.center = (size[0] // 2, size[1] // 2)
        for i, button in enumerate(self.buttons):
            button.rect = pygame.Rect(
                self.panel.centerx - bw // 2, self.panel.y + px(70) + i * (bh + gap), bw, bh
            )

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return
        if self.group.handle_event(event) and event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.KEYDOWN,
        ):
            self.app.audio.play("click", 0.6)

    def next_frame_in(self) -> float | None:
        return None  # still until input

    def draw(self, surface: pygame.Surface) -> None:
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 150))
        surface.blit(veil, (0, 0))
        # Opaque: the table's cards and name chips do not show through the buttons.
        clip = surface.get_clip()
        surface.set_clip(self.panel.clip(clip))
        self.app.draw_backdrop(surface)
        surface.blit(veil, (0, 0))
        surface.set_clip(clip)
        draw_panel(surface, self.panel, self.app.theme)
        # A frame: where the dialog crosses a name chip it reads as lying over it.
        frame = max(1, self.app.px(2))
        pygame.draw.rect(
            surface, self.app.theme.button_hover, self.panel, width=frame, border_radius=14
        )
        title = self.app.assets.text(_("Paused"), self.app.px(30), self.app.theme.accent, bold=True)
        surface.blit(
            title, title.get_rect(midtop=(self.panel.centerx, self.panel.y + self.app.px(18)))
        )
        self.group.draw(surface, self.app.assets, self.app.theme)
