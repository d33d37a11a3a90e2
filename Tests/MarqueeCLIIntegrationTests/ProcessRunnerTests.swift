import Foundation
import MarqueeTestSupport
import Testing

/// What the tests' process runner (Tests/Support, on swift-subprocess) promises the programs it
/// starts and the tests that read them: the CLI suites signal `marquee` and read its exit status,
/// and the servers that pg_ctl and tmux leave must hold nothing of the test process.
@Suite("Process runner", .timeLimit(.minutes(1)))
struct ProcessRunnerTests {
    let shell = URL(fileURLWithPath: "/bin/sh")
    let path = ["PATH": "/usr/bin:/bin"]

    /// Runs `command` with `sh -c` (which `exec`s into it) and returns its standard output.
    func output(of command: String) async throws -> String {
        let run = try await MarqueeProcess.run(shell, ["-c", "exec " + command], environment: path)
        #expect(run.status == 0, "\(command): \(run.standardError)")
        return run.standardOutput
    }

    @Test("a program starts as a shell starts a job: descriptors 0, 1 and 2 only, stdin from /dev/null, no signal blocked or ignored, a process group of its own")
    func startsClean() async throws {
        // ls's own descriptors: the three standard ones and the folder it reads.
        #expect(try await output(of: "ls /proc/self/fd").split(separator: "\n") == ["0", "1", "2", "3"])
        #expect(try await output(of: "readlink /proc/self/fd/0") == "/dev/null\n")
        // The masks of the standard signals, 1 to 31 (glibc's posix_spawn ignores its own internal
        // ones, 32 and 33, which the C library of the program takes back when it starts).
        let signals = try await output(of: "grep -E '^Sig(Blk|Ign):' /proc/self/status").split(separator: "\n")
        let masks = signals.compactMap { $0.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) } }
        #expect(masks.count == 2 && masks.allSatisfy { $0 & 0x7FFF_FFFF == 0 }, "\(signals)")
        let stat = try await output(of: "cat /proc/self/stat").split(separator: " ")
        #expect(stat.count > 4 && stat[0] == stat[4], "the process leads its group: \(stat.prefix(5))")
    }

    @Test("a run past its time limit is killed, and keeps what it printed")
    func timeLimit() async throws {
        let started = ContinuousClock.now
        let run = try await MarqueeProcess.run(shell, ["-c", "echo started; echo waiting >&2; exec sleep 30"], environment: path, timeLimit: .seconds(1))
        #expect(run.status == 128 + SIGKILL)
        #expect(run.standardOutput == "started\n")
        #expect(run.standardError == "waiting\n")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("a signal sent as soon as a process is launched reaches it, and its lines can be read after it exited")
    func childProcess() async throws {
        let sleeper = try ChildProcess(executable: shell, arguments: ["-c", "exec sleep 30"], environment: path)
        #expect(sleeper.isRunning)
        #expect(await sleeper.signal(SIGTERM) == SIGTERM)
        #expect(sleeper.termination == Termination(status: SIGTERM, reason: .uncaughtSignal))
        #expect(!sleeper.isRunning)

        let talker = try ChildProcess(executable: shell, arguments: ["-c", "echo one; echo two >&2; printf three; exit 3"], environment: path)
        #expect(await talker.waitForExit() == 3)
        #expect(await talker.nextOutputLine(containing: "three") == "three")
        #expect(await talker.nextOutputLine(containing: "") == nil)
        #expect(await talker.nextErrorLine(containing: "t") == "two")
        #expect(talker.lastOutput.contains("one"))
    }

    @Test("a detached run writes both streams to its file and reports its status as a shell does")
    func detached() async throws {
        let file = TestFolders.temporary.appendingPathComponent("detached-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        let status = await DetachedSpawn.run("/bin/sh", ["sh", "-c", "echo out; echo err >&2; kill -TERM $$"], outputPath: file.path)
        #expect(status == 128 + SIGTERM)
        #expect(try String(contentsOf: file, encoding: .utf8) == "out\nerr\n")
        #expect(await DetachedSpawn.run("/nonexistent/program", ["program"], outputPath: file.path) == -1)
    }
}
