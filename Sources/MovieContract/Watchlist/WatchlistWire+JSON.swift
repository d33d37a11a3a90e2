extension WatchlistWire.List {
    /// The answer's bytes: `{"entries":[…],"removed":[…]}`, keys in the order the types declare them.
    public var json: String {
        var output = "{\"entries\":["
        for (index, entry) in entries.enumerated() {
            if index > 0 { output += "," }
            entry.write(to: &output)
        }
        output += "]"
        if let removed {
            output += ",\"removed\":["
            for (index, removal) in removed.enumerated() {
                if index > 0 { output += "," }
                output += "{\"movieId\":\(removal.movieId),\"changedAt\":"
                ContractJSON.writeString(removal.changedAt, to: &output)
                output += "}"
            }
            output += "]"
        }
        return output + "}"
    }
}

extension WatchlistWire.Entry {
    /// `{"movieId":…,"note":…,"changedAt":…}`, with `title` and `year` when known.
    public func write(to output: inout String) {
        output += "{\"movieId\":\(movieId),\"note\":"
        ContractJSON.writeString(note, to: &output)
        output += ",\"changedAt\":"
        ContractJSON.writeString(changedAt, to: &output)
        if let title {
            output += ",\"title\":"
            ContractJSON.writeString(title, to: &output)
        }
        if let year { output += ",\"year\":\(year)" }
        output += "}"
    }
}

extension WatchlistWire.Results {
    /// The answer's bytes: `{"results":[{"id","movieId","outcome","changedAt","firstOutcome"}]}`.
    public var json: String {
        var output = "{\"results\":["
        for (index, result) in results.enumerated() {
            if index > 0 { output += "," }
            output += "{\"id\":"
            ContractJSON.writeString(result.id, to: &output)
            output += ",\"movieId\":\(result.movieId),\"outcome\":"
            ContractJSON.writeString(result.outcome, to: &output)
            if let changedAt = result.changedAt {
                output += ",\"changedAt\":"
                ContractJSON.writeString(changedAt, to: &output)
            }
            if let firstOutcome = result.firstOutcome {
                output += ",\"firstOutcome\":"
                ContractJSON.writeString(firstOutcome, to: &output)
            }
            output += "}"
        }
        return output + "]}"
    }
}
