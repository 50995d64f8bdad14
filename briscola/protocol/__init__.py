"""What server and client share (no pygame): the wire format of ``briscola-net/1``
(:mod:`~briscola.protocol.wire`: messages, encoding, events as JSON, names,
:class:`~briscola.protocol.wire.ProtocolError`) and finding tables on the local network
(:mod:`~briscola.protocol.lan`, zeroconf). Described in ``docs/network-protocol.md``.
"""
