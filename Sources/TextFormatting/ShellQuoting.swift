/// Words as a POSIX shell reads them, for commands the app tells a user to run.
public enum ShellQuoting {
    /// `word` as is when the shell would read it unchanged, single-quoted otherwise: `/tmp/a b` → `'/tmp/a b'`.
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+:,=@%".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
