import Logging
import MovieAPI
import Networking

/// The comment lines `--curl` prints before its commands: how to get a token for the
/// placeholder, and, for the embedded server, that its port is gone when `marquee` exits.
enum CurlNotes {
    static func lines(for environment: APIEnvironment) -> [String] {
        let base = environment.baseURL.absoluteString
        var lines: [String] = []
        switch environment.identity {
        case .production:
            lines.append("# ${MARQUEE_ACCESS_TOKEN} is the text of: curl -s '\(base)auth'")
        case .embedded, .custom, .stub:
            lines.append("# ${MARQUEE_ACCESS_TOKEN} is the access_token of: curl -s --user \"$MARQUEE_CLIENT_ID:$MARQUEE_CLIENT_SECRET\" --data grant_type=client_credentials '\(base)auth/token'")
        }
        if environment.identity == .embedded {
            lines.append("# \(base) is the embedded server of this run: it stops when marquee exits. To replay these commands, run 'marquee serve' and use its address instead.")
        }
        return lines
    }

    static func print(for environment: APIEnvironment) {
        let logger = Logger(label: "marquee")
        for line in lines(for: environment) {
            logger.debug("\(line)", metadata: [APIClient.curlMetadataKey: "true"])
        }
    }
}
