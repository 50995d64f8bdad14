"""Command line of the game: ``python main.py --help``."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from briscola import __version__
from briscola.engine import PRESETS
from briscola.resources import asset_path
from briscola.storage import paths
from briscola.text import i18n
from briscola.text.i18n import _


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("invalid size {size}: expected WIDTHxHEIGHT such as 1280x720").format(size=repr(text))
        ) from None
    if not (320 <= width <= 16384 and 240 <= height <= 16384):
        raise argparse.ArgumentTypeError(_("size {size} is out of range").format(size=repr(text)))
    return width, height


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number, got {value}").format(value=repr(text))
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(
            _("expected a positive number, got {value}").format(value=value)
        )
    return value


def _language(text: str) -> str:
    code = i18n.normalise(text)
    if code not in i18n.LANGUAGES:
        raise argparse.ArgumentTypeError(
            _("unknown language {language}: choose one of {choices}").format(
                language=repr(text), choices=", ".join(i18n.LANGUAGES)
            )
        )
    return code


def _early_language(argv: Sequence[str]) -> str:
    """The language of the command line's own messages, before they are parsed: ``--lang``,
    else the saved setting, else the system's."""
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    from briscola.storage.settings import peek_language

    return peek_language()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="briscola",
        description=_("Briscola, the Italian card game."),
        epilog=_(
            "Settings, statistics and autosaves live in the per-user folders"
            " (BRISCOLA_HOME overrides them)."
        ),
    )
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument("--windowed", action="store_true", help=_("start in a window"))
    screen.add_argument("--fullscreen", action="store_true", help=_("start full screen"))
    parser.add_argument("--size", type=_size, metavar="WxH", help=_("window size, e.g. 1280x720"))
    from briscola.text.decks import deck_ids  # the decks whose manifests are good

    parser.add_argument("--deck", choices=deck_ids(), help=_("card faces (also in Settings)"))
    parser.add_argument(
        "--lang",
        type=_language,
        metavar="xx",
        help=_("language: {choices} (default: the system's)").format(
            choices=", ".join(i18n.LANGUAGES)
        ),
    )
    parser.add_argument(
        "--demo", action="store_true", help=_("computer players only: the game plays itself")
    )
    parser.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        help=_("configuration of the --demo game (default classic2)"),
    )
    parser.add_argument(
        "--frames", type=_positive, metavar="N", help=_("quit after N frames (smoke tests)")
    )
    parser.add_argument(
        "--turbo",
        action="store_true",
        help=_("do not wait for the frame clock: each frame advances 1/60 s (for tests)"),
    )
    parser.add_argument("--seed", type=int, help=_("shuffle seed (reproducible deals)"))
    parser.add_argument(
        "--watch",
        nargs=2,
        metavar=("ADDRESS", "CODE"),
        help=_("watch the public table CODE on the server at ADDRESS (host:port or ws://...)"),
    )
    parser.add_argument(
        "--self-check",
        action="store_true",
        help=_("load every card face, sound and font, report what is missing, and exit"),
    )
    parser.add_argument("--version", action="version", version=f"briscola {__version__}")
    return parser


def _setup_logging() -> None:
    terminal = logging.StreamHandler(sys.stderr)
    # Records marked ``log_only`` (a problem the game got over) go to the log file only.
    terminal.addFilter(lambda record: not getattr(record, "log_only", False))
    handlers: list[logging.Handler] = [terminal]
    try:
        log_path = paths.log_file()
        log_path.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, encoding="utf-8"))
    except OSError:
        pass
    logging.basicConfig(
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
    )


def _fatal(message: str) -> None:
    """Report a fatal problem: stderr, the log file, and a message box where possible."""
    logging.getLogger("briscola").error(message)
    try:
        import pygame

        if pygame.display.get_init() or os.environ.get("SDL_VIDEODRIVER") != "dummy":
            pygame.display.message_box("Briscola", message, message_type="error")
    except Exception:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    i18n.set_language(_early_language(sys.argv[1:] if argv is None else argv))
    args = build_parser().parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    _setup_logging()
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        logging.getLogger("briscola").debug("crash", exc_info=True)
        detail = "".join(traceback.format_exception(exc))
        try:
            path = paths.log_file()
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8") as out:
                out.write(detail)
            message = _(
                "Briscola stopped because of an unexpected problem: {problem}."
                " Details were written to {path}."
            ).format(problem=exc, path=path)
        except OSError:
            message = _("Briscola stopped because of an unexpected problem: {problem}.").format(
                problem=exc
            )
        _fatal(message)
        return 1


def _clean_user_folders() -> None:
    """Remove the temporary files that saves killed half-way left (only old ones, only the
    ``.<name>.json.XXXXXXXX.tmp`` files the game itself writes)."""
    from briscola.storage.files import clean_folder

    for folder in {paths.config_dir(), paths.data_dir(), paths.records_dir()}:
        clean_folder(folder)


def _run(args: argparse.Namespace) -> int:
    import pygame

    from briscola.gui.app import App
    from briscola.gui.options import AppOptions

    _clean_user_folders()

    options = AppOptions(
        size=args.size,
        fullscreen=True if args.fullscreen else False if args.windowed else None,
        deck=args.deck,
        lang=args.lang,
        demo=args.demo,
        preset=args.preset,
        frames=args.frames,
        turbo=args.turbo,
        seed=args.seed,
        self_check=args.self_check,
    )
    if args.self_check:
        return _self_check(options)
    watch_url: str | None = None
    if args.watch:
        from briscola.client.flow import address_url

        try:
            watch_url = address_url(args.watch[0])
        except ValueError:
            words = _("Cannot watch that table: {address} is not a server address (host:port).")
            _fatal(words.format(address=args.watch[0]))
            return 2
    if not asset_path("cards").is_dir():
        _fatal(
            _(
                "Briscola's card, sound and font files are missing ({path})."
                " Please reinstall the game."
            ).format(path=asset_path())
        )
        return 1
    from briscola.gui.render.display import request_high_dpi

    request_high_dpi()  # before the display starts: SDL reads its hints only then
    if _no_display(pygame):
        _fatal(
            _(
                "No display was found: Briscola needs a desktop session to open its window"
                " (over SSH, forward X with ssh -X, or start it on the computer itself)."
            )
        )
        return 1
    try:
        app = App(options)
    except pygame.error as exc:
        _fatal(_("Briscola could not open its window: {problem}").format(problem=exc))
        return 1
    from briscola.gui.scenes.menu import MenuScene

    first = MenuScene(app)
    if watch_url is not None:
        name = app.settings.player_name or _("Spectator")
        code = args.watch[1]
        return app.run(first, then=("watch", {"url": watch_url, "code": code, "name": name}))
    if args.demo:
        from briscola.game.setup import demo_setup
        from briscola.gui.scenes.table import TableScene

        table = TableScene(app, demo_setup(args.preset or "classic2", args.seed), demo=True)
        status = app.run(table)
        print(
            f"briscola demo: {table.hands_played} hands, {table.tricks_played} tricks"
            f" played in {app.frame} frames"
        )
        return status
    return app.run(first)


def _no_display(pygame: Any) -> bool:
    """SDL found no display and fell back on a driver that shows nothing (offscreen, dummy)
    although ``SDL_VIDEODRIVER`` did not ask for one (tests and smoke runs do)."""
    try:
        pygame.display.init()
    except pygame.error:
        return False  # the window's own error says what is wrong
    driver = str(pygame.display.get_driver())
    return driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver


def _online_check() -> str | None:
    """Online play works in this build (a frozen one included): an embedded server on the
    loopback address, keeping its tables and ratings on disk as a host's does, welcomes a
    client. Returns what went wrong, or None."""
    try:
        import ssl  # noqa: F401  (wss:// addresses)
        import tempfile

        import zeroconf  # noqa: F401  (tables on the local network)

        from briscola.client.connection import NetClient
        from briscola.server.app import ServerConfig
        from briscola.server.thread import ServerThread
    except ImportError as exc:
        return f"missing module: {exc}"
    folder = tempfile.TemporaryDirectory(prefix="briscola-check-")
    try:
        config = ServerConfig(host="127.0.0.1", port=0, keep=Path(folder.name))
        server = ServerThread(config).start()
    except ImportError as exc:  # (the keep's SQLite, the ratings' model)
        folder.cleanup()
        return f"missing module: {exc}"
    except OSError as exc:
        folder.cleanup()
        return f"no server on 127.0.0.1: {exc}"
    client = NetClient(server.url, "Check", reconnect=False).start()
    try:
        note = client.wait_for(lambda m: m["type"] == "status" and m["status"] != "connecting")
        if note["type"] != "status":
            return f"the server said {note['type']}"
        return None if note["status"] == "connected" else f"the client {note['status']}"
    except TimeoutError:
        return "the server did not answer in time"
    finally:
        client.close()
        server.stop()
        folder.cleanup()


def _self_check(options: object) -> int:
    """Load every asset; print a report; exit 1 if anything is missing."""
    import pygame

    from briscola.ai.check import players_check
    from briscola.gui.audio import Audio
    from briscola.gui.render.assets import BACK_NAMES, DECK_STYLES, SOUND_NAMES, Assets
    from briscola.resources import asset_path

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    assets = Assets()
    problems = assets.check_all()
    faces = sum(
        1
        for style in DECK_STYLES
        for path in asset_path("cards", style).glob("*.svg")
        if path.name != "back.svg"  # a deck's own back is not a face
    )
    audio = Audio(True, 0.5)
    loaded_sounds = 0
    if audio.available:
        for name in SOUND_NAMES:
            path = asset_path("sounds", f"{name}.wav")
            if audio._sound(name) is not None:
                loaded_sounds += 1
            elif path.is_file():  # present but unreadable (missing files are listed already)
                problems.append(f"sound did not load: {path}")
    print(f"briscola {__version__} self-check: assets in {asset_path()}")
    print(
        f"  card faces: {faces} of {40 * len(DECK_STYLES)} ({', '.join(DECK_STYLES)}),"
        f" backs: {len(BACK_NAMES)}, sounds loaded: {loaded_sounds} of {len(SOUND_NAMES)}"
        f"{'' if audio.available else ' (no audio device: files checked only)'}"
    )
    online = _online_check()
    print(f"  online play: {online or 'a server on this computer answered a client'}")
    if online:
        problems.append(f"online play: {online}")
    wrong, digest = players_check()
    print(f"  computer players: learned networks and every level's moves checked, {digest}")
    problems += wrong
    for problem in problems:
        print(f"  MISSING: {problem}")
    print("  result:", "OK" if not problems else f"{len(problems)} problem(s)")
    audio.close()
    pygame.display.quit()
    return 0 if not problems else 1
