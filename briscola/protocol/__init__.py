"""What server and client share (no pygame, no I/O): the wire of ``briscola-net/1``, as
``websockets`` keeps its protocol core apart from its asyncio shell.
:mod:`~briscola.protocol.messages`: every message as a typed class, and the one codec
(``encode``, ``decode_client``, ``decode_server``: a frame that is no message is refused
there, with its code); :mod:`~briscola.protocol.errors`: the codes with their meanings
(refusals, a table's end, notices) and :class:`~briscola.protocol.errors.ProtocolError`;
:mod:`~briscola.protocol.wire`: the version, the default port, names, table codes and the
JSON form of engine events; :mod:`~briscola.protocol.lan`: tables on the local network
(zeroconf). Described in ``docs/network-protocol.md``, which a test holds to these modules.
"""
