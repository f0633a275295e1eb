"""What the bench/ scripts' table printers share: reading a session's JSON files."""
import json


def load(path):
    """The JSON object in PATH, or {} when the file is missing or not JSON."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def get(j, *path):
    """j[path[0]][path[1]]..., or None where a key is missing or its value is null."""
    for k in path:
        if not isinstance(j, dict) or j.get(k) is None:
            return None
        j = j[k]
    return j
