#!/usr/bin/env python3
"""The chaos campaign's checker: reads a history (JSON lines written by scripts/chaos) and reports
what went wrong, from the operations, the faults and the final states alone.

    check.py HISTORY.jsonl        exit 0 when nothing is wrong, 1 with the violations, 2 unreadable

- lost: a change a device accepted (its `watch --json` line names it) that never reached the
  server's journal; a movie whose final entry is not what the last change applied to it says; a
  movie whose final entry is not what the feed's last event of it says.
- duplicated: a change id twice in the journal; a note (each is unique) applied twice in the feed;
  a window that printed the same change twice.
- leaked: a note of one person anywhere another person's device, window, list or feed shows.
- out of order (causality): a device's change that lost to a change the device had already seen,
  whatever the clocks: it was acknowledged before a fetch of the device (a sync, or an online
  `watchlist` that reached the server) that ended before the device made its change; or the
  device's own earlier change.
- not converged: a device's store or an open window that does not show the server's list at the
  end. The figures are seconds from the end of the faults: for a device, to the end of its last
  sync (its store is read then); for a window, to the line from which on it showed the list.

The last line is the summary tools read:
`chaos: N operations, F faults, D devices, W windows: 0 lost, 0 duplicated, 0 leaked, 0 out of order, converged in X s (p99 Y s)`."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench.d"))
from benchkit import percentile  # noqa: E402

NOTE = re.compile(r"^(p\d+)-d\d+-\d+$")


def records(path):
    with open(path) as file:
        for number, line in enumerate(file, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as error:
                    raise SystemExit(f"check: {path}:{number} is not JSON ({error})") from None


def json_lines(text):
    for line in (text or "").splitlines():
        try:
            yield json.loads(line)
        except ValueError:
            continue


def document(text):
    try:
        return json.loads(text or "")
    except ValueError:
        return None


def entries_of(value):
    """The entries of a printed list (a `refetched` line names only their count)."""
    entries = value.get("entries") if isinstance(value, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def replay_window(lines):
    """A window's list as its lines add up to: the list it printed first, then each change; and the
    time of each line at which the list changed, as (t, list)."""
    view, steps = None, []
    for t, line in lines:
        if view is None:
            if isinstance(line.get("entries"), list):
                view = {e["movieId"]: e.get("note", "") for e in line["entries"] if e.get("pending") != "removing"}
                steps.append((t, dict(view)))
            continue
        if line.get("event") == "changed":
            if line.get("removed"):
                view.pop(line["movieId"], None)
            else:
                view[line["movieId"]] = line.get("note", "")
            steps.append((t, dict(view)))
    return view, steps


def window_lines(items):
    lines, closed = {}, set()
    for record in items:
        if record["type"] == "window-line":
            lines.setdefault(record["window"], []).append((record["t"], record["line"]))
        elif record["type"] == "window-closed":
            closed.add(record["window"])
        elif record["type"] == "op" and record.get("op") == "window-open":
            lines.setdefault(record["window"], [])
    return lines, closed


def window_views(path):
    """The list each window still open shows, by the lines it printed (the campaign waits on it)."""
    lines, closed = window_lines(list(records(path)))
    return {window: replay_window(got)[0] for window, got in lines.items() if window not in closed}


class Checker:
    def __init__(self, items):
        self.items = items
        self.violations = {"lost": [], "duplicated": [], "leaked": [], "out of order": [], "not converged": []}
        world = next((r for r in items if r["type"] == "world"), {"devices": {}})
        self.device_person = world.get("devices", {})
        self.ops = [r for r in items if r["type"] == "op"]
        self.accounts = {r["person"]: r for r in items if r["type"] == "server-list"}
        self.owner_person = {r["owner"]: r["person"] for r in self.accounts.values()}
        self.journal = next((r["rows"] for r in items if r["type"] == "journal"), [])
        self.feed = next((r["rows"] for r in items if r["type"] == "feed"), [])
        self.stopped_at = next((r["t"] for r in items if r["type"] == "faults-stopped"), None)
        self.changes = {}
        for op in self.ops:
            if op.get("op") in ("add", "remove") and op.get("exit") == 0:
                for line in json_lines(op.get("stdout")):
                    if line.get("changed") and line.get("changeId"):
                        self.changes[line["changeId"]] = {**line, "device": op["device"], "person": op["person"], "began": op["began"], "ended": op["ended"]}

    def flag(self, kind, text):
        self.violations[kind].append(text)

    def describe(self, change):
        what = f"note '{change['note']}'" if change["action"] == "add" and change.get("note") else change["action"]
        return f"{change['device']}'s change {change['changeId'][:8]} of movie {change['movieId']} ({what}, made at t={change['began']:.2f} s)"

    def run(self):
        self.check_lost()
        self.check_duplicated()
        self.check_leaked()
        self.check_causality()
        self.check_shelf()
        return self.check_converged()

    def check_shelf(self):
        """The shelf's kinds: each device ends with its person's ratings, diary and list exactly as
        the server holds them (the list in the server's order: by position, then movie), nothing
        pending; the diary holds each viewing logged once (a run killed midway may or may not
        have logged one); and no device holds another person's records."""
        servers = {r["person"]: r["records"] for r in self.items if r["type"] == "server-shelf"}
        if not servers:
            return
        for record in (r for r in self.items if r["type"] == "device-shelf"):
            device, person = record["device"], record["person"]
            server = [entry for entry in servers.get(person, []) if not entry["removed"]]
            ratings = {int(e["key"]): json.loads(e["value"])["score"] for e in server if e["kind"] == "ratings"}
            diary = {e["key"] for e in server if e["kind"] == "diary"}
            lists = {e["key"]: json.loads(e["value"])["name"] for e in server if e["kind"] == "lists"}
            chaos = [key for key, name in lists.items() if name == "chaos"]
            items = sorted(((json.loads(e["value"])["position"], int(e["key"].split("/")[1])) for e in server
                            if e["kind"] == "listItems" and chaos and e["key"].startswith(chaos[0] + "/")))
            order = [movie for _, movie in items]
            got_ratings, got_diary, got_list = record.get("ratings"), record.get("diary"), record.get("list")
            if not all(isinstance(part, dict) for part in (got_ratings, got_diary, got_list)):
                self.flag("not converged", f"{device}'s shelf could not be read at the end")
                continue
            shown = {r["movieId"]: r["score"] for r in got_ratings.get("ratings", [])}
            if got_ratings.get("pendingChanges") or shown != ratings:
                kind = "leaked" if set(shown) - set(ratings) else "not converged"
                self.flag(kind, f"{device}'s ratings are {shown} with {got_ratings.get('pendingChanges')} pending; the server's are {ratings}")
            logged = {e["entry"] for e in got_diary.get("entries", [])}
            if got_diary.get("pendingChanges") or logged != diary:
                kind = "leaked" if logged - diary else "not converged"
                self.flag(kind, f"{device}'s diary holds {len(logged)} entries with {got_diary.get('pendingChanges')} pending; the server's, {len(diary)}")
            list_order = [m["movieId"] for m in got_list.get("movies", [])]
            if list_order != order:
                self.flag("out of order" if sorted(list_order) == sorted(order) else "not converged",
                          f"{device}'s list 'chaos' is {list_order}; the server's order is {order}")
            if len(chaos) > 1:
                self.flag("duplicated", f"{person} has {len(chaos)} lists named 'chaos' on the server")
        for person, records in servers.items():
            logged = [op for op in self.ops if op["person"] == person and op.get("op") == "log"]
            done = sum(1 for op in logged if op.get("exit") == 0 and not op.get("killed"))
            maybe = sum(1 for op in logged if op.get("killed"))
            entries = sum(1 for e in records if e["kind"] == "diary")
            if entries < done:
                self.flag("lost", f"{person} logged {done} viewings; the server's diary holds {entries}")
            if entries > done + maybe:
                self.flag("duplicated", f"{person} logged {done} viewings (and {maybe} runs were killed); the server's diary holds {entries}")

    def check_lost(self):
        if not self.accounts:
            self.flag("not converged", "the history holds no final state of the server (the campaign did not finish)")
            return
        in_journal = {row["id"] for row in self.journal}
        for change in self.changes.values():
            if change["changeId"] not in in_journal:
                self.flag("lost", f"{self.describe(change)} was accepted ('{change.get('delivery')}') but never reached the server's journal")
        for account in self.accounts.values():
            final = {e["movieId"]: e for e in account["entries"]}
            last_applied = {}
            for row in self.journal:
                if row["owner"] == account["owner"] and row["outcome"] == "applied":
                    last_applied[row["movieId"]] = row
            for movie, row in last_applied.items():
                change = self.changes.get(row["id"])
                entry = final.get(movie)
                if change is None or entry is None:
                    if entry is None:
                        self.flag("lost", f"{account['person']}: change {row['id'][:8]} of movie {movie} was applied, and the server holds no entry for the movie")
                    continue
                shows = "absent" if entry["removed"] else f"note '{entry['note']}'"
                wanted = "absent" if change["action"] == "remove" else f"note '{change['note']}'"
                if shows != wanted:
                    self.flag("lost", f"{self.describe(change)} was the last applied to the movie, yet the server's list shows it {shows}")
            last_event = {}
            for row in self.feed:
                if row["owner"] == account["owner"] and row["kind"] == "watchlist":
                    data = json.loads(row["data"]) if isinstance(row["data"], str) else row["data"]
                    last_event[data["movieId"]] = data
            for movie, data in last_event.items():
                entry = final.get(movie)
                if entry is None or entry["removed"] != data["removed"] or (not data["removed"] and entry["note"] != data["note"]):
                    self.flag("lost", f"{account['person']}: the feed's last event for movie {movie} says {data}, the server's list says {entry}")

    def check_duplicated(self):
        seen = {}
        for row in self.journal:
            key = (row["owner"], row["id"])
            if key in seen:
                self.flag("duplicated", f"change {row['id'][:8]} is in the server's journal twice (sequences {seen[key]} and {row['sequence']})")
            seen[key] = row["sequence"]
        applied_notes = {}
        for row in self.feed:
            if row["kind"] != "watchlist":
                continue
            data = json.loads(row["data"]) if isinstance(row["data"], str) else row["data"]
            if data.get("removed") or not NOTE.match(data.get("note", "")):
                continue
            key = (row["owner"], data["note"])
            if key in applied_notes:
                self.flag("duplicated", f"the note '{data['note']}' was applied twice: feed events {applied_notes[key]} and {row['sequence']}")
            applied_notes[key] = row["sequence"]
        lines, _ = window_lines(self.items)
        for window, got in lines.items():
            printed = set()
            for t, line in got:
                if line.get("event") != "changed":
                    continue
                key = (line.get("movieId"), line.get("change"), line.get("note"), line.get("changedAt"))
                if key in printed:
                    self.flag("duplicated", f"window {window} printed the same change twice (movie {key[0]}, {key[1]}, note '{key[2]}', at t={t:.2f} s)")
                printed.add(key)

    def check_leaked(self):
        def look(person, where, notes):
            for note in notes:
                found = NOTE.match(note or "")
                if found and found.group(1) != person:
                    self.flag("leaked", f"{where}, of {person}, shows '{note}', a note of {found.group(1)}")
        for op in self.ops:
            notes = [e.get("note") for line in json_lines(op.get("stdout")) for e in entries_of(line)]
            notes += [line.get("note") for line in json_lines(op.get("stdout")) if "changeId" in line]
            look(op["person"], f"{op['device']}'s '{op['op']}' at t={op['began']:.2f} s", notes)
        for record in self.items:
            if record["type"] == "window-line":
                line = record["line"]
                look(record["person"], f"window {record['window']} at t={record['t']:.2f} s",
                     [line.get("note")] + [e.get("note") for e in entries_of(line)])
            elif record["type"] == "device-final" and record.get("list"):
                look(record["person"], f"{record['device']}'s store at the end", [e.get("note") for e in entries_of(record["list"])])
        for account in self.accounts.values():
            look(account["person"], "the server's list", [e["note"] for e in account["entries"]])
        for row in self.feed:
            if row["kind"] == "watchlist" and row["owner"] in self.owner_person:
                data = json.loads(row["data"]) if isinstance(row["data"], str) else row["data"]
                look(self.owner_person[row["owner"]], f"feed event {row['sequence']}", [data.get("note")])

    def acknowledged_at(self, change):
        if change.get("delivery") in ("sent", "superseded"):
            return change["ended"]
        syncs = [op["ended"] for op in self.ops if op["device"] == change["device"] and op.get("op") in ("sync", "final-sync")
                 and op.get("exit") == 0 and op["began"] >= change["ended"]]
        return min(syncs) if syncs else None

    @staticmethod
    def fetched(op):
        """Whether `op` surely fetched the server's list: a sync that succeeded, or an online
        `watchlist` that succeeded and said nothing of a server it could not reach."""
        if op.get("exit") != 0:
            return False
        if op.get("op") == "sync":
            return True
        return op.get("op") == "list" and "--offline" not in op.get("args", []) and not op.get("stderr")

    def check_causality(self):
        last_applied = {}
        for row in self.journal:
            key = (row["owner"], row["movieId"])
            if row["outcome"] == "superseded" and row["id"] in self.changes:
                lost = self.changes[row["id"]]
                winner = self.changes.get(last_applied.get(key, {}).get("id"))
                if winner is None:
                    continue
                if winner["device"] == lost["device"]:
                    if winner["ended"] <= lost["began"]:
                        self.flag("out of order", f"{self.describe(lost)} lost to the same device's earlier {self.describe(winner)}")
                    continue
                acknowledged = self.acknowledged_at(winner)
                if acknowledged is None:
                    continue
                seen = [op for op in self.ops if op["device"] == lost["device"] and self.fetched(op)
                        and op["began"] > acknowledged and op["ended"] < lost["began"]]
                if seen:
                    self.flag("out of order", f"{self.describe(lost)} lost to {self.describe(winner)}, which the server had acknowledged at "
                                              f"t={acknowledged:.2f} s and {lost['device']} had fetched by its '{seen[0]['op']}' at t={seen[0]['began']:.2f}–{seen[0]['ended']:.2f} s")
            if row["outcome"] == "applied":
                last_applied[key] = row

    def check_converged(self):
        times = []
        stopped = self.stopped_at or 0.0
        wanted = {person: {e["movieId"]: e["note"] for e in account["entries"] if not e["removed"]} for person, account in self.accounts.items()}
        for record in self.items:
            if record["type"] != "device-final":
                continue
            got = record.get("list")
            if not isinstance(got, dict):
                self.flag("not converged", f"{record['device']}'s store could not be read at the end")
                continue
            shows = {e["movieId"]: e["note"] for e in entries_of(got)}
            if got.get("pendingChanges", 0) or shows != wanted.get(record["person"], {}):
                self.flag("not converged", f"{record['device']}'s store shows {shows} with {got.get('pendingChanges')} pending; the server's list is {wanted.get(record['person'])}")
                continue
            syncs = [op["ended"] for op in self.ops if op["device"] == record["device"] and op.get("op") == "final-sync" and op.get("exit") == 0]
            times.append(max(0.0, (max(syncs) if syncs else record["t"]) - stopped))
        lines, closed = window_lines(self.items)
        person_of = {r["window"]: r["person"] for r in self.ops if r.get("op") == "window-open"}
        for window, got in lines.items():
            if window in closed or window not in person_of:
                continue
            view, steps = replay_window(got)
            target = wanted.get(person_of[window], {})
            if view != target:
                self.flag("not converged", f"window {window} shows {view}; the server's list is {target}")
                continue
            settled = stopped
            for t, shown in reversed(steps):
                if shown != target:
                    break
                settled = t
            times.append(max(0.0, settled - stopped))
        return times

    def summary(self, times):
        faults = sum(1 for r in self.items if r["type"] == "fault")
        windows = sum(1 for r in self.ops if r.get("op") == "window-open")
        counts = {kind: len(found) for kind, found in self.violations.items()}
        p50, p99 = (percentile(times, 0.5), percentile(times, 0.99)) if times else (0.0, 0.0)
        converged = f"converged in {p50:.1f} s (p99 {p99:.1f} s)" if not counts["not converged"] \
            else f"{counts['not converged']} not converged"
        return (f"chaos: {len(self.ops)} operations, {faults} faults, {len(self.device_person)} devices, {windows} windows: "
                f"{counts['lost']} lost, {counts['duplicated']} duplicated, {counts['leaked']} leaked, {counts['out of order']} out of order, {converged}")


def main(argv):
    if len(argv) != 2:
        print("usage: check.py HISTORY.jsonl", file=sys.stderr)
        return 2
    try:
        items = list(records(argv[1]))
    except OSError as error:
        print(f"check: cannot read {argv[1]}: {error.strerror}", file=sys.stderr)
        return 2
    checker = Checker(items)
    times = checker.run()
    failed = False
    for kind, found in checker.violations.items():
        if found:
            failed = True
            print(f"check: {len(found)} {kind}; the first: {found[0]}")
            for more in found[1:5]:
                print(f"check:   also: {more}")
    print(checker.summary(times))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
