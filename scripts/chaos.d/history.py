"""The campaign's history: every operation with its outcome, every fault, every line a window
printed, and the final states, as JSON lines with the seconds since the campaign began (`t`)."""
import json
import time


class History:
    def __init__(self, path):
        self.file = open(path, "w")
        self.began = time.monotonic()
        self.operations = 0
        self.faults = 0

    def now(self):
        return round(time.monotonic() - self.began, 4)

    def write(self, kind, **fields):
        if kind == "op":
            self.operations += 1
        elif kind == "fault":
            self.faults += 1
        fields.setdefault("t", self.now())
        self.file.write(json.dumps({"type": kind, **fields}, sort_keys=True) + "\n")
        self.file.flush()

    def close(self):
        self.file.close()
