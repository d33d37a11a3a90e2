// swift-tools-version:6.1
import Foundation
import PackageDescription

/// The main package is a path dependency, whose identity is its folder's name: whatever the clone is called.
let marquee = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

/// Marquee's benchmarks, kept out of the main package so `swift build` and `swift test` there
/// never build them. Run them with `scripts/bench` from the repository root.
let package = Package(
    name: "MarqueeBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        .executableTarget(
            name: "ClientBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Movies", package: marquee),
                .product(name: "Networking", package: marquee),
                .product(name: "MovieAPI", package: marquee),
                .product(name: "MovieServer", package: marquee),
                .product(name: "MovieContract", package: marquee),
            ],
            path: "Benchmarks/ClientBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Movies", package: marquee),
                .product(name: "MovieContract", package: marquee),
                .product(name: "MovieStore", package: marquee),
                .product(name: "MovieServer", package: marquee),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
