"""Keeps the public part of a swift-api-digester dump: drops every declaration the dump marks
internal (package-visible ones included), so that only what callers outside the package see is
compared. Usage: api-public.py IN.json OUT.json"""
import json
import sys


def public(node):
    children = [public(child) for child in node.get("children", []) if not child.get("isInternal")]
    if children:
        node["children"] = children
    else:
        node.pop("children", None)
    return node


dump = json.load(open(sys.argv[1]))
dump["ABIRoot"] = public(dump["ABIRoot"])
json.dump(dump, open(sys.argv[2], "w"), indent=1, sort_keys=True)
