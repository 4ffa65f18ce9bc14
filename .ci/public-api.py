#!/usr/bin/env python3
"""What the library makes public, from its symbol graphs.

Usage: public-api.py SESSIONSTORE_GRAPH [OTHER_GRAPH ...]

Each argument is a *.symbols.json written by .ci/symbol-graph (public symbols,
no SPI). The first is the `SessionStore` product's graph (the module and the
four it re-exports); the others (`SessionSync`'s) are checked for GRDB only.
Prints how many public symbols each graph holds, and fails, listing the
offenders:
- when a public symbol of SessionStore's graph belongs to sync (its name or a
  name on its path starts with `Sync`, `Synced`, `Remote` or `sync`) and is
  not in ALLOWED below: sync's plumbing is `package`, for `SessionSync` and the
  `sessionstore` command only, or `@_spi(SyncInternals)` where the `Server/`
  package's tests need it. An entry of ALLOWED that is no longer public fails
  too, so the list stays the public sync API exactly;
- when a public symbol of any graph names a GRDB type (a `Cursor`, say) in its
  declaration, or conforms to a GRDB protocol: GRDB stays behind the storage
  layer.

A public `Sequence` (`TabListColumn`) gets, in the graph, the members GRDB's own
extensions add to every `Sequence` and `Collection` (`flatMap(_:) ->
FlattenCursor`, `joined(operator:)`): the storage layer loads GRDB. They are
not the library's: GRDB is imported `internal` throughout, so an app that
imports SessionStore does not see them. Those members (identified by a
standard protocol's extension declared in module GRDB) are left out.

Members the compiler synthesizes (`!=`, Codable's `init(from:)`, ...) follow
their type's conformances and are not listed.
"""
import json
import re
import sys

# The sync API an app sees through `import SessionStore`: what `SessionSync`'s
# public API takes or returns (`SyncClient`, `SyncPairing`, `OtherDevicesMediator`,
# `RemoteTabOpener`, `IncomingCommandApplier`), and the store's own sync state.
ALLOWED = {
    "SyncStorage": [
        "init(database:)", "state()", "rename(deviceName:)", "disable()",
        "remoteDevices()", "observeRemoteDevices(onChange:)", "setUploadsArchivedTabs(_:)",
    ],
    "SyncState": [
        "isEnabled", "accountID", "deviceID", "deviceName", "formFactor", "serverURL",
        "lastSyncAt", "lastError", "pendingCount", "uploadsArchivedTabs",
    ],
    "RemoteDevice": ["id", "name", "formFactor", "lastSeenAt", "windows", "closedTabs", "archivedTabs", "tabCount"],
    "RemoteWindow": ["id", "tabs"],
    "RemoteTab": ["id", "tabID", "isPinned", "groupTitle", "title", "url", "lastActiveAt", "splitID"],
    "RemoteClosedTab": ["id", "tabID", "closedAt", "title", "url"],
    "SyncCommand": ["sendTab(_:)", "closeTab(_:)", "init(from:)", "encode(to:)"],
    "SyncSendTab": ["url", "title", "navigations", "current", "init(url:title:navigations:current:)"],
    "SyncCloseTab": ["recordID", "tabID", "url"],
    "SyncOutgoingCommand": ["id", "targetDeviceID", "command", "createdAt", "sendAfter", "expiresAt"],
    "SyncedNavigation": ["url", "title", "virtualURL", "faviconURL", "time", "init(url:title:virtualURL:faviconURL:time:)"],
}

SYNC_NAME = re.compile(r"^(Sync|Synced|Remote|sync)(?=[A-Z_(]|$)")
GRDB_SPELLING = re.compile(r"\bGRDB\b|Cursor\b")


def load(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def synthesized(symbol):
    return "::SYNTHESIZED::" in symbol["identifier"]["precise"] or symbol.get("location") is None


def declaration_strings(value):
    """The spellings and identifiers of a symbol's declaration, its doc comment left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "docComment":
                continue
            if key in ("spelling", "preciseIdentifier", "precise", "rhs", "lhs") and isinstance(item, str):
                yield key, item
            else:
                yield from declaration_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from declaration_strings(item)


def names_grdb(key, text):
    if key in ("preciseIdentifier", "precise"):
        return "4GRDB" in text
    return GRDB_SPELLING.search(text) is not None


# A member that GRDB's extension of a standard protocol (`Sequence`, `Collection`,
# `BidirectionalCollection`, `RandomAccessCollection`) gives every conforming type.
GRDB_STANDARD_EXTENSION = re.compile(r"^s:(ST|Sl|SK|Sk)4GRDB")


def grdb_offenders(graph):
    offenders = []
    for symbol in graph["symbols"]:
        if GRDB_STANDARD_EXTENSION.match(symbol["identifier"]["precise"]):
            continue
        if any(names_grdb(key, text) for key, text in declaration_strings(symbol)):
            offenders.append(".".join(symbol["pathComponents"]))
    for rel in graph["relationships"]:
        if "4GRDB" in rel["target"] or rel.get("targetFallback", "").startswith("GRDB."):
            offenders.append(f"{rel['source']} {rel['kind']} {rel.get('targetFallback', rel['target'])}")
    return offenders


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    failed = False
    allowed = {(name,) for name in ALLOWED} | {(name, member) for name, members in ALLOWED.items() for member in members}

    store = load(sys.argv[1])
    module = store["module"]["name"]
    sync, unexpected = set(), []
    for symbol in store["symbols"]:
        path = tuple(symbol["pathComponents"])
        if not any(SYNC_NAME.match(name) for name in path) or synthesized(symbol):
            continue
        sync.add(path)
        if path not in allowed:
            unexpected.append(".".join(path))
    print(f"public API: {module}: {len(store['symbols'])} public symbols, {len(sync)} of sync's (synthesized members aside)")
    if unexpected:
        failed = True
        print(f"public API: {len(unexpected)} of sync's public symbols are not in ALLOWED (.ci/public-api.py);")
        print("  make them `package`, or list them if an app needs them through SessionSync's API:")
        for name in sorted(unexpected):
            print(f"  {name}")
    missing = sorted(".".join(path) for path in allowed - sync)
    if missing:
        failed = True
        print(f"public API: {len(missing)} entries of ALLOWED (.ci/public-api.py) are no longer public; remove them:")
        for name in missing:
            print(f"  {name}")

    for path in sys.argv[1:]:
        graph = store if path == sys.argv[1] else load(path)
        if graph is not store:
            print(f"public API: {graph['module']['name']}: {len(graph['symbols'])} public symbols")
        offenders = grdb_offenders(graph)
        if offenders:
            failed = True
            print(f"public API: {graph['module']['name']}: {len(offenders)} public symbols name a GRDB type:")
            for name in sorted(set(offenders)):
                print(f"  {name}")

    if not failed:
        print("public API: no sync plumbing, no GRDB type")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
