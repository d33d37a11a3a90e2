import Foundation
import MarqueeTestSupport
import Testing

/// `deploy/two-instances` itself, with stand-ins for `swift`, `marquee`, `nginx` and `curl` on
/// `PATH` that record how they were called: what it says it builds, where it writes, and that
/// Ctrl-C (SIGTERM here) stops what it started and removes its temporary folder. The real pair
/// of servers behind the real nginx.conf is `DeploySampleTests`.
@Suite("deploy/two-instances")
struct TwoInstancesScriptTests {
    static let repository = repositoryRoot

    @Test("without --marquee it says it builds a release binary, runs it twice and nginx, writes only into a temporary folder it removes on SIGTERM")
    func buildsAndCleansUp() async throws {
        let bench = try Bench()
        defer { bench.remove() }
        let run = try await bench.run([])

        #expect(run.status == 0, "\(run.log)")
        #expect(run.log.contains("building marquee in release mode (swift build -c release --product marquee)"), "\(run.log)")
        #expect(run.calls("swift") == ["build -c release --product marquee", "build -c release --show-bin-path"])
        let folder = try #require(run.log.firstMatch(of: /working folder (\S+) \(removed at the end\)/).map { String($0.1) }, "\(run.log)")
        #expect(folder.hasPrefix(bench.temporary.path), "mktemp honours TMPDIR: \(folder)")
        let servers = run.calls("marquee")
        #expect(servers.count == 2)
        for port in [8081, 8082] {
            let line = "serve --port \(port) --database postgres://marquee@127.0.0.1:5432/marquee --signing-keys \(folder)/signing-keys"
            #expect(servers.contains { $0.hasPrefix(line) }, "\(servers)")
        }
        #expect(run.calls("nginx") == ["-p \(folder) -c \(bench.checkout.path)/deploy/nginx.conf"])
        #expect(run.whileRunning.contains("signing-keys"), "the key file was made in the working folder: \(run.whileRunning)")
        #expect(!FileManager.default.fileExists(atPath: folder), "the temporary folder is removed at the end")
        #expect(run.stoppedChildren == 0, "no stand-in outlives the script")
        #expect(try bench.checkoutFiles() == ["deploy/nginx.conf", "deploy/two-instances"], "nothing is written into the checkout")
    }

    @Test("--dir keeps its folder and key file (mode 600) for the next run, which reuses the key; --marquee builds nothing")
    func keepsAGivenFolder() async throws {
        let bench = try Bench()
        defer { bench.remove() }
        let kept = bench.temporary.appendingPathComponent("kept")
        let first = try await bench.run(["--dir", kept.path, "--marquee", bench.marquee.path])
        #expect(first.status == 0, "\(first.log)")
        #expect(first.calls("swift").isEmpty)
        #expect(!first.log.contains("building"))
        #expect(first.log.contains("working folder \(kept.path)\n"), "\(first.log)")
        let keys = kept.appendingPathComponent("signing-keys")
        let key = try String(contentsOf: keys, encoding: .utf8)
        #expect(key.wholeMatch(of: /k1 [A-Za-z0-9+\/=]{40,}\n/) != nil, "a fresh key line: \(key.count) characters")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keys.path)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0, "the key file is the owner's only: \(String(mode, radix: 8))")

        let second = try await bench.run(["--dir", kept.path, "--marquee", bench.marquee.path])
        #expect(second.status == 0, "\(second.log)")
        #expect(try String(contentsOf: keys, encoding: .utf8) == key, "the second run reuses the key")
        #expect(try bench.checkoutFiles() == ["deploy/nginx.conf", "deploy/two-instances"])
    }

    @Test("a missing --database or an unknown option is one line and status 2, before anything starts")
    func refusesBadArguments() async throws {
        let bench = try Bench()
        defer { bench.remove() }
        let missing = try await bench.run([], database: nil)
        #expect(missing.status == 2)
        #expect(missing.log == "two-instances: --database URL is required\n")
        let unknown = try await bench.run(["--port", "9"])
        #expect(unknown.status == 2)
        #expect(unknown.log == "two-instances: unknown option --port\n")
        #expect(unknown.calls("swift").isEmpty && unknown.calls("marquee").isEmpty)
    }

    /// A copy of `deploy/` in a folder of its own (the "checkout"), stand-ins on `PATH`, and a
    /// driver that starts the script, waits for its ready line, sends SIGTERM and reports.
    struct Bench {
        let temporary: URL
        var checkout: URL { temporary.appendingPathComponent("checkout") }
        var tools: URL { temporary.appendingPathComponent("tools") }
        var release: URL { temporary.appendingPathComponent("release") }
        var records: URL { temporary.appendingPathComponent("records") }
        var marquee: URL { release.appendingPathComponent("marquee") }

        init() throws {
            temporary = TestFolders.temporary.appendingPathComponent("marquee-two-instances-\(UUID().uuidString)")
            let files = FileManager.default
            for folder in [checkout.appendingPathComponent("deploy"), tools, release, records] {
                try files.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            for name in ["two-instances", "nginx.conf"] {
                try files.copyItem(at: TwoInstancesScriptTests.repository.appendingPathComponent("deploy/\(name)"), to: checkout.appendingPathComponent("deploy/\(name)"))
            }
            let record = #"printf '%s\n' "$*" >> "$MARQUEE_TEST_RECORDS/$(basename "$0")""#
            try script(tools.appendingPathComponent("swift"), """
                \(record)
                case "$*" in *--show-bin-path*) echo "\(release.path)" ;; esac
                """)
            try script(tools.appendingPathComponent("curl"), "exit 0")
            let stayUp = #"echo $$ >> "$MARQUEE_TEST_RECORDS/pids"; exec sleep 300"#
            try script(tools.appendingPathComponent("nginx"), "\(record)\n\(stayUp)")
            try script(marquee, "\(record)\n\(stayUp)")
            try script(temporary.appendingPathComponent("driver"), """
                set -u
                cd "$MARQUEE_TEST_CHECKOUT"
                deploy/two-instances "$@" 2> "$MARQUEE_TEST_RECORDS/log" &
                pid=$!
                for _ in $(seq 1 300); do
                    grep -q 'stops all' "$MARQUEE_TEST_RECORDS/log" 2>/dev/null && break
                    kill -0 "$pid" 2>/dev/null || break
                    sleep 0.1
                done
                folder="$(sed -n 's/^two-instances: working folder \\([^ ]*\\).*/\\1/p' "$MARQUEE_TEST_RECORDS/log")"
                [ -z "$folder" ] || ls "$folder" > "$MARQUEE_TEST_RECORDS/while-running"
                kill -TERM "$pid" 2>/dev/null
                wait "$pid"
                echo $? > "$MARQUEE_TEST_RECORDS/status"
                left=0
                for started in $(cat "$MARQUEE_TEST_RECORDS/pids" 2>/dev/null); do
                    kill -0 "$started" 2>/dev/null && { left=$((left + 1)); kill -KILL "$started"; }
                done
                echo "$left" > "$MARQUEE_TEST_RECORDS/left"
                """)
        }

        private func script(_ url: URL, _ body: String) throws {
            try "#!/usr/bin/env bash\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }

        struct Run {
            let status: Int?
            let log: String
            let whileRunning: String
            let stoppedChildren: Int?
            let records: URL

            func calls(_ tool: String) -> [String] {
                ((try? String(contentsOf: records.appendingPathComponent(tool), encoding: .utf8)) ?? "")
                    .split(separator: "\n").map(String.init)
            }
        }

        /// Runs the script once through the driver, under `timeout` and with no blocked signal
        /// (the test process's threads block SIGTERM, and a child would inherit that).
        func run(_ arguments: [String], database: String? = "postgres://marquee@127.0.0.1:5432/marquee") async throws -> Run {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? [] {
                try FileManager.default.removeItem(at: records.appendingPathComponent(name))
            }
            let environment = [
                "PATH=\(tools.path):/usr/bin:/bin", "TMPDIR=\(temporary.path)",
                "MARQUEE_TEST_RECORDS=\(records.path)", "MARQUEE_TEST_CHECKOUT=\(checkout.path)",
            ]
            let options = (database.map { ["--database", $0] } ?? []) + arguments
            let status = await DetachedSpawn.run(
                "/usr/bin/env", ["env", "-i"] + environment + ["timeout", "60", "bash", temporary.appendingPathComponent("driver").path] + options,
                outputPath: temporary.appendingPathComponent("driver.out").path
            )
            #expect(status == 0, "the driver finished: \((try? String(contentsOf: temporary.appendingPathComponent("driver.out"), encoding: .utf8)) ?? "")")
            func read(_ name: String) -> String { (try? String(contentsOf: records.appendingPathComponent(name), encoding: .utf8)) ?? "" }
            return Run(
                status: Int(read("status").trimmingCharacters(in: .whitespacesAndNewlines)),
                log: read("log"), whileRunning: read("while-running"),
                stoppedChildren: Int(read("left").trimmingCharacters(in: .whitespacesAndNewlines)),
                records: records
            )
        }

        func checkoutFiles() throws -> [String] {
            let root = checkout.path + "/"
            let enumerator = FileManager.default.enumerator(atPath: checkout.path)
            var files: [String] = []
            while let path = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: root + path, isDirectory: &isFolder), !isFolder.boolValue { files.append(path) }
            }
            return files.sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: temporary) }
    }
}
