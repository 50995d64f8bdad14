"""Translation catalogs: extract, update, compile and check (docs/translating.md).

::

    python -m tools.i18n extract    # write briscola/locale/briscola.pot from the source code
    python -m tools.i18n update     # extract, then merge the template into every .po
    python -m tools.i18n compile    # write a .mo beside every .po (or under --out DIR)
    python -m tools.i18n check      # fail on missing, fuzzy, empty or mismatched messages
    python -m tools.i18n init xx    # start a catalog for a new language

Messages are found with :mod:`ast` in ``briscola/`` and ``main.py``: the first argument of
``_()`` and ``N_()``, both arguments of ``ngettext()``, the context and message of
``pgettext()``. An argument that is not a literal string is skipped when it is a name (a
string marked elsewhere with ``N_``) and reported when it is built in place (an f-string, a
concatenation, ``%`` or ``.format`` inside the call): a translator must see whole sentences
with named placeholders. A ``# Translators:`` comment on the lines just above a call is
copied into the catalog as a note.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import string
import struct
import sys
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola.text.i18n import (  # noqa: E402
    CONTEXT_SEP,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PoEntry,
    parse_po,
    plural_forms,
)

POT = LOCALE_DIR / f"{DOMAIN}.pot"
#: Where messages are looked for, relative to the repository root.
SOURCES = ("briscola", "main.py")
#: Marker functions: name -> the roles of their leading arguments.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "_": ("msgid",),
    "N_": ("msgid",),
    "ngettext": ("msgid", "msgid_plural"),
    "pgettext": ("msgctxt", "msgid"),
}
#: Plural rules of the languages we ship (all three have one and many).
PLURALS = {"it": "nplurals=2; plural=(n != 1);", "de": "nplurals=2; plural=(n != 1);"}
PLURALS["es"] = PLURALS["it"]
WIDTH = 79


# ---------------------------------------------------------------------- extraction


@dataclass
class Message:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    #: Files that use the message (no line numbers: the template changes only when the
    #: messages do).
    references: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}{CONTEXT_SEP}{self.msgid}"


def source_files(root: Path = ROOT) -> list[Path]:
    files: list[Path] = []
    for entry in SOURCES:
        path = root / entry
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.is_file():
            files.append(path)
    return files


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _comments(source: str) -> dict[int, str]:
    """Comment text by line number, for comment-only lines."""
    found: dict[int, str] = {}
    lines = source.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                row = token.start[0]
                if lines[row - 1].strip().startswith("#"):
                    found[row] = token.string.lstrip("#").strip()
    except (tokenize.TokenError, IndentationError):
        pass
    return found


def _notes(comments: dict[int, str], line: int) -> list[str]:
    """A ``# Translators:`` comment block ending just above ``line`` (or on it)."""
    block: list[str] = []
    row = line - 1
    while row in comments:
        block.insert(0, comments[row])
        row -= 1
    for index, text in enumerate(block):
        if text.lower().startswith("translators:"):
            return [" ".join(block[index:])]
    return []


def extract_file(path: Path, root: Path = ROOT) -> tuple[list[Message], list[str]]:
    """Messages marked in one file, and problems (strings built in place)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    comments = _comments(source)
    where = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    messages: list[Message] = []
    problems: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name not in KEYWORDS:
            continue
        roles = KEYWORDS[name]
        if len(node.args) < len(roles):
            continue
        values: dict[str, str] = {}
        skip = False
        for role, arg in zip(roles, node.args, strict=False):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                values[role] = arg.value
            elif isinstance(arg, ast.JoinedStr | ast.BinOp | ast.Call):
                problems.append(
                    f"{where}:{node.lineno}: {name}() of a string built in place"
                    " (use one literal with named placeholders)"
                )
                skip = True
            else:
                skip = True  # a variable: marked with N_ where it is defined
        if skip:
            continue
        if values["msgid"] == "":
            problems.append(f"{where}:{node.lineno}: {name}('') (the empty string is the header)")
            continue
        messages.append(
            Message(
                values["msgid"],
                values.get("msgctxt"),
                values.get("msgid_plural"),
                [where],
                _notes(comments, node.lineno),
                node.lineno,
            )
        )
    messages.sort(key=lambda m: m.line)
    return messages, problems


def extract(root: Path = ROOT) -> tuple[list[Message], list[str]]:
    """Every message of the game in source order (merged), and problems."""
    merged: dict[str, Message] = {}
    problems: list[str] = []
    for path in source_files(root):
        messages, found = extract_file(path, root)
        problems += found
        for message in messages:
            known = merged.get(message.key)
            if known is None:
                merged[message.key] = message
                continue
            if known.msgid_plural != message.msgid_plural:
                problems.append(
                    f"{message.references[0]}:{message.line}: {message.msgid!r} used with two"
                    " plural forms"
                )
            known.references += [r for r in message.references if r not in known.references]
            known.notes += [note for note in message.notes if note not in known.notes]
    return list(merged.values()), problems


# ---------------------------------------------------------------------- writing .po files


def quote(text: str) -> str:
    """A C-quoted string for a ``.po`` file."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
    return f'"{escaped}"'


def _chunks(text: str, width: int) -> list[str]:
    """``text`` cut after spaces and newlines into pieces that quote within ``width``."""
    pieces: list[str] = []
    current = ""
    for part in _split_keep(text):
        if current and (len(quote(current + part)) > width or current.endswith("\n")):
            pieces.append(current)
            current = ""
        current += part
    if current:
        pieces.append(current)
    return pieces


def _split_keep(text: str) -> list[str]:
    """Words with their trailing spaces or newline kept."""
    parts: list[str] = []
    word = ""
    for char in text:
        word += char
        if char in " \n":
            parts.append(word)
            word = ""
    if word:
        parts.append(word)
    return parts


def format_field(keyword: str, value: str, prefix: str = "") -> list[str]:
    """``msgid "..."`` on one line, or ``msgid ""`` followed by wrapped pieces."""
    one = f"{prefix}{keyword} {quote(value)}"
    if len(one) <= WIDTH and "\n" not in value[:-1]:
        return [one]
    lines = [f'{prefix}{keyword} ""']
    lines += [f"{prefix}{quote(piece)}" for piece in _chunks(value, WIDTH - len(prefix))]
    return lines


def format_entry(entry: PoEntry, with_references: bool = True) -> list[str]:
    lines = [f"# {comment}".rstrip() for comment in entry.comments]
    lines += [f"#. {note}" for note in entry.extracted]
    if with_references and entry.references:
        refs = entry.references
        row = "#:"
        for ref in refs:
            if len(row) + 1 + len(ref) > WIDTH and row != "#:":
                lines.append(row)
                row = "#:"
            row += f" {ref}"
        lines.append(row)
    if entry.flags:
        lines.append("#, " + ", ".join(entry.flags))
    prefix = "#~ " if entry.obsolete else ""
    if entry.msgctxt is not None:
        lines += format_field("msgctxt", entry.msgctxt, prefix)
    lines += format_field("msgid", entry.msgid, prefix)
    if entry.msgid_plural is not None:
        lines += format_field("msgid_plural", entry.msgid_plural, prefix)
        for index, form in enumerate(entry.msgstr):
            lines += format_field(f"msgstr[{index}]", form, prefix)
    else:
        lines += format_field("msgstr", entry.msgstr[0], prefix)
    return lines


def format_po(entries: Sequence[PoEntry]) -> str:
    blocks = ["\n".join(format_entry(entry)) for entry in entries]
    return "\n\n".join(blocks) + "\n"


def header(language: str | None) -> PoEntry:
    fields = [
        "Project-Id-Version: briscola",
    ]
    if language is not None:
        fields += [f"Language: {language}", f"Language-Team: {LANGUAGES.get(language, language)}"]
    fields += [
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        f"Plural-Forms: {PLURALS.get(language or '', 'nplurals=2; plural=(n != 1);')}",
    ]
    comments = ["Translations of Briscola.", "This file is distributed under the MIT licence."]
    return PoEntry("", ["".join(f"{line}\n" for line in fields)], comments=comments)


def template(messages: Iterable[Message]) -> list[PoEntry]:
    entries = [header(None)]
    for message in messages:
        forms = ["", ""] if message.msgid_plural is not None else [""]
        entries.append(
            PoEntry(
                message.msgid,
                forms,
                message.msgctxt,
                message.msgid_plural,
                extracted=list(message.notes),
                references=list(message.references),
            )
        )
    return entries


def merge(old: Sequence[PoEntry], pot: Sequence[PoEntry], language: str) -> list[PoEntry]:
    """``pot``'s messages with the translations of ``old`` (as msgmerge does): messages gone
    from the code are kept as obsolete (``#~``); a new message close to an obsolete or
    vanished one gets its translation, marked fuzzy for the translator to review."""
    head = next((e for e in old if e.msgid == "" and e.msgctxt is None), None) or header(language)
    nplurals = plural_forms(head.msgstr[0])[0]
    known = {e.key: e for e in old if e.msgid or e.msgctxt is not None}
    used: set[str] = set()
    merged: list[PoEntry] = [head]
    for new in pot[1:]:
        previous = known.get(new.key)
        if previous is not None and not previous.obsolete:
            used.add(new.key)
            entry = PoEntry(
                new.msgid,
                _forms(previous.msgstr, new.msgid_plural is not None, nplurals),
                new.msgctxt,
                new.msgid_plural,
                flags=list(previous.flags),
                references=list(new.references),
                extracted=list(new.extracted),
                comments=list(previous.comments),
            )
        else:
            entry = PoEntry(
                new.msgid,
                [""] * (nplurals if new.msgid_plural is not None else 1),
                new.msgctxt,
                new.msgid_plural,
                references=list(new.references),
                extracted=list(new.extracted),
            )
            if previous is not None:
                used.add(new.key)
                entry.msgstr = _forms(previous.msgstr, new.msgid_plural is not None, nplurals)
                entry.flags = ["fuzzy"]
        merged.append(entry)
    pot_keys = {e.key for e in pot}
    leftovers = [e for key, e in known.items() if key not in pot_keys and any(e.msgstr)]
    for entry in merged[1:]:
        if any(entry.msgstr) or not leftovers:
            continue
        close = difflib.get_close_matches(
            entry.msgid, [e.msgid for e in leftovers], n=1, cutoff=0.8
        )
        if close:
            source = next(e for e in leftovers if e.msgid == close[0])
            entry.msgstr = _forms(source.msgstr, entry.msgid_plural is not None, nplurals)
            entry.flags = ["fuzzy"]
            used.add(source.key)  # it lives on in the fuzzy entry
    for entry in leftovers:
        if entry.key in used:
            continue
        entry.obsolete = True
        entry.references = []
        entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
        merged.append(entry)
    return merged


def _forms(msgstr: list[str], plural: bool, nplurals: int) -> list[str]:
    if not plural:
        return [msgstr[0]]
    forms = list(msgstr[:nplurals])
    return forms + [forms[-1] if forms else ""] * (nplurals - len(forms))


# ---------------------------------------------------------------------- compiling


def mo_bytes(entries: Iterable[PoEntry]) -> bytes:
    """A GNU ``.mo`` catalog of the translated entries (fuzzy and empty ones left out)."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.obsolete:
            continue
        if entry.msgid == "" and entry.msgctxt is None:
            pairs[b""] = entry.msgstr[0].encode("utf-8")
            continue
        if not entry.translated:
            continue
        key = entry.key
        if entry.msgid_plural is not None:
            key += "\0" + entry.msgid_plural
        pairs[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    originals = 28
    translations = originals + 8 * count
    data_start = translations + 8 * count
    blob = bytearray()
    orig_table: list[tuple[int, int]] = []
    trans_table: list[tuple[int, int]] = []
    for original in keys:
        orig_table.append((len(original), data_start + len(blob)))
        blob += original + b"\0"
    for original in keys:
        value = pairs[original]
        trans_table.append((len(value), data_start + len(blob)))
        blob += value + b"\0"
    out = bytearray(struct.pack("<7I", 0x950412DE, 0, count, originals, translations, 0, 0))
    for length, offset in orig_table + trans_table:
        out += struct.pack("<2I", length, offset)
    return bytes(out + blob)


def po_files(root: Path = LOCALE_DIR) -> list[tuple[str, Path]]:
    return sorted(
        (path.parent.parent.name, path) for path in root.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
    )


def compile_all(out: Path | None = None, root: Path = LOCALE_DIR) -> list[Path]:
    """A ``.mo`` for every ``.po`` (beside it, or under ``out/<lang>/LC_MESSAGES``)."""
    written = []
    for language, po in po_files(root):
        entries = parse_po(po.read_text(encoding="utf-8"), str(po))
        folder = (out / language / "LC_MESSAGES") if out is not None else po.parent
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{DOMAIN}.mo"
        target.write_bytes(mo_bytes(entries))
        written.append(target)
    return written


# ---------------------------------------------------------------------- checking


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of ``text`` (with their format specs), sorted; raises
    ValueError for unbalanced braces."""
    fields = []
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            fields.append(
                f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
            )
    return sorted(set(fields))


def entry_problems(entry: PoEntry) -> list[str]:
    """What is wrong with one entry of a language catalog (nothing: an empty list)."""
    label = f"{entry.msgid!r}" + (f" [{entry.msgctxt}]" if entry.msgctxt else "")
    if entry.fuzzy:
        return [f"fuzzy: {label}"]
    if not all(entry.msgstr):
        return [f"untranslated: {label}"]
    problems = []
    try:
        wanted = placeholders(entry.msgid)
        plural = placeholders(entry.msgid_plural) if entry.msgid_plural is not None else wanted
    except ValueError as exc:
        return [f"bad braces in the English {label}: {exc}"]
    for index, form in enumerate(entry.msgstr):
        try:
            found = placeholders(form)
        except ValueError as exc:
            problems.append(f"bad braces in the translation of {label}: {exc}")
            continue
        expected = plural if (entry.msgid_plural is not None and index > 0) else wanted
        allowed = set(wanted) | set(plural)
        if entry.msgid_plural is not None and index == 0:
            ok = set(found) <= allowed and set(wanted) - {"{n}"} <= set(found)
        else:
            ok = found == expected
        if not ok:
            problems.append(f"placeholders {found} instead of {expected} in {form!r} ({label})")
    return problems


def check(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> tuple[list[str], list[str]]:
    """``(errors, warnings)`` for the template and every catalog."""
    messages, errors = extract(root)
    warnings: list[str] = []
    pot = locale_dir / f"{DOMAIN}.pot"
    fresh = format_po(template(messages))
    if not pot.is_file() or pot.read_text(encoding="utf-8") != fresh:
        warnings.append(f"{pot.name} is out of date: run python -m tools.i18n update")
    wanted = {m.key: m for m in messages}
    languages = po_files(locale_dir)
    missing_languages = set(LANGUAGES) - {"en"} - {lang for lang, _path in languages}
    errors += [f"no catalog for {lang}" for lang in sorted(missing_languages)]
    for language, path in languages:
        try:
            entries = parse_po(path.read_text(encoding="utf-8"), str(path))
        except ValueError as exc:
            errors.append(str(exc))
            continue
        where = f"{language}: "
        have = {e.key: e for e in entries if not e.obsolete and (e.msgid or e.msgctxt)}
        for key, message in wanted.items():
            entry = have.get(key)
            if entry is None:
                errors.append(f"{where}missing: {message.msgid!r}")
            elif (entry.msgid_plural is None) != (message.msgid_plural is None):
                errors.append(f"{where}plural form differs: {message.msgid!r}")
        for key, entry in have.items():
            if key not in wanted:
                errors.append(f"{where}not used by the code: {entry.msgid!r}")
            errors += [where + problem for problem in entry_problems(entry)]
        obsolete = [e for e in entries if e.obsolete]
        if obsolete:
            warnings.append(f"{where}{len(obsolete)} obsolete entries (#~) can be deleted")
        head = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
        if head is None:
            errors.append(f"{where}no header")
    return errors, warnings


# ---------------------------------------------------------------------- commands


def write_template(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> list[Message]:
    messages, problems = extract(root)
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    locale_dir.mkdir(parents=True, exist_ok=True)
    (locale_dir / f"{DOMAIN}.pot").write_text(format_po(template(messages)), encoding="utf-8")
    return messages


def update(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> None:
    messages = write_template(root, locale_dir)
    pot = template(messages)
    for language, path in po_files(locale_dir):
        old = parse_po(path.read_text(encoding="utf-8"), str(path))
        merged = merge(old, pot, language)
        path.write_text(format_po(merged), encoding="utf-8")
        missing = sum(1 for e in merged[1:] if not e.obsolete and not e.translated)
        print(f"{language}: {len(merged) - 1} entries, {missing} to translate")


def init(language: str, root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> Path:
    po = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        raise SystemExit(f"{po} exists already: use update")
    messages = write_template(root, locale_dir)
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text(format_po(merge([header(language)], template(messages), language)), "utf-8")
    return po


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.i18n", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="write the template briscola/locale/briscola.pot")
    commands.add_parser("update", help="extract, then merge the template into every .po")
    build = commands.add_parser("compile", help="compile every .po to a .mo")
    build.add_argument("--out", type=Path, help="write LANG/LC_MESSAGES/briscola.mo under OUT")
    commands.add_parser("check", help="report missing, fuzzy, empty or mismatched messages")
    new = commands.add_parser("init", help="start the catalog of a new language")
    new.add_argument("language", help="language code, e.g. fr")
    args = parser.parse_args(argv)
    if args.command == "extract":
        messages = write_template()
        print(f"{POT.relative_to(ROOT)}: {len(messages)} messages")
    elif args.command == "update":
        update()
    elif args.command == "compile":
        for path in compile_all(args.out):
            print(path)
    elif args.command == "init":
        print(init(args.language))
    else:
        errors, warnings = check()
        for warning in warnings:
            print(f"warning: {warning}")
        for error in errors:
            print(f"error: {error}")
        print(f"{len(errors)} error(s), {len(warnings)} warning(s)")
        return 1 if errors else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
