// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Marquee",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "marquee", targets: ["marquee"]),
        .library(name: "MovieContract", targets: ["MovieContract"]),
        .library(name: "Movies", targets: ["Movies"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "MovieAPI", targets: ["MovieAPI"]),
        .library(name: "MovieServer", targets: ["MovieServer"]),
        .library(name: "MovieServerDatabases", targets: ["MovieServerDatabases"]),
        .library(name: "MovieStore", targets: ["MovieStore"]),
        .library(name: "MovieBrowser", targets: ["MovieBrowser"]),
        .library(name: "TextFormatting", targets: ["TextFormatting"]),
    ],
    traits: [
        .trait(
            name: "OpenTelemetry",
            description: "Traces exported by OTLP/HTTP when the OTEL_* environment asks (swift-otel). Without it, that environment is refused in one line; the ThreadSanitizer run of .ci/run builds without it, as swift-otel does not compile under the sanitizer."
        ),
        .default(enabledTraits: ["OpenTelemetry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/Swinject/Swinject.git", from: "2.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        // OTLP over HTTP only: the gRPC exporter would build gRPC and HTTP/2 for nothing Marquee uses.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .target(name: "MovieContract"),
        .target(
            name: "IMDbDataSets",
            dependencies: [
                "MovieContract",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(name: "Movies", dependencies: ["MovieContract"]),
        .target(name: "FileLocking"),
        .target(
            name: "Networking",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "MovieAPI",
            dependencies: [
                "Movies", "MovieContract", "Networking", "FileLocking", "TextFormatting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MovieStore",
            dependencies: [
                "Movies", "MovieContract", "FileLocking", "FTS5Search", "SearchPlanning", "TextFormatting", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "TextFormatting"),
        .target(name: "SearchPlanning", dependencies: ["MovieContract"]),
        .target(name: "FTS5Search", dependencies: ["MovieContract", "SearchPlanning", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "MovieBrowser", dependencies: ["Movies", "MovieStore", "TextFormatting"]),
        .target(
            name: "MovieServer",
            dependencies: [
                "MovieContract", "SearchPlanning", "TextFormatting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources/catalog.json"), .copy("Resources/openapi.yaml"), .copy("Resources/pages"), .copy("Resources/passwords")]
        ),
        .target(
            name: "MovieServerSQLite",
            dependencies: [
                "MovieContract", "MovieServer", "MovieServerSQL", "SearchPlanning", "FTS5Search",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MovieServerPostgres",
            dependencies: [
                "MovieContract", "MovieServer", "MovieServerSQL", "SearchPlanning",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(name: "MovieServerSQL", dependencies: ["MovieContract", "MovieServer", "SearchPlanning"]),
        .target(
            name: "MovieServerDatabases",
            dependencies: ["MovieServer", "MovieServerSQLite", "MovieServerPostgres", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "ReferenceAPI", dependencies: ["Networking"], resources: [.copy("Resources/api")]),
        .target(
            name: "Telemetry",
            dependencies: [
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OpenTelemetry"])),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "marquee",
            dependencies: [
                "Movies", "Networking", "MovieAPI", "MovieServer", "MovieServerDatabases", "MovieStore", "MovieBrowser", "ReferenceAPI", "TextFormatting",
                "Telemetry", "IMDbDataSets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Tests. A target whose name ends in IntegrationTests starts servers, opens sockets or runs
        // processes; every other test target is a unit target (scripts/unit-tests runs those alone).
        .target(
            name: "MarqueeTestSupport",
            dependencies: [
                "Movies", "MovieAPI", "Networking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            path: "Tests/Support/Common"
        ),
        .target(
            name: "NetworkTestSupport",
            dependencies: [
                "MarqueeTestSupport", "Networking", "ReferenceAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/Support/Network",
            resources: [.copy("Fixtures")]
        ),
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "MarqueeTestSupport", "NetworkTestSupport", "MovieServer", "MovieServerDatabases", "ReferenceAPI", "IMDbDataSets",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            path: "Tests/Support/Server"
        ),
        .executableTarget(
            name: "marquee-store-crash-writer",
            dependencies: ["Movies", "MovieStore"],
            path: "Tests/StoreCrashWriter"
        ),
        .testTarget(name: "MoviesTests", dependencies: ["Movies", "MovieContract"]),
        .testTarget(name: "MovieBrowserTests", dependencies: ["MovieBrowser", "MovieStore", "Movies", "MarqueeTestSupport", "TextFormatting"]),
        .testTarget(
            name: "MovieStoreTests",
            dependencies: [
                "MovieStore", "Movies", "MovieContract", "SearchPlanning", "FileLocking", "MarqueeTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "MovieStoreIntegrationTests",
            dependencies: [
                "MovieStore", "Movies", "FileLocking", "MarqueeTestSupport", "marquee-store-crash-writer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "Networking", "MarqueeTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "NetworkingIntegrationTests",
            dependencies: [
                "Networking", "MarqueeTestSupport", "NetworkTestSupport", "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MovieAPITests",
            dependencies: [
                "MovieAPI", "MovieContract", "MovieServer", "MovieStore", "Movies", "Networking", "ReferenceAPI", "MarqueeTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MovieAPIIntegrationTests",
            dependencies: [
                "MovieAPI", "MovieContract", "MovieServer", "MovieStore", "Movies", "Networking", "ReferenceAPI",
                "MarqueeTestSupport", "NetworkTestSupport", "ServerTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MovieServerTests",
            dependencies: [
                "MovieServer", "MovieContract", "MovieServerDatabases", "SearchPlanning", "MarqueeTestSupport", "ServerTestSupport", "IMDbDataSets",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "MovieServerIntegrationTests",
            dependencies: [
                "MovieServer", "MovieServerDatabases", "MovieServerSQLite", "MovieServerPostgres", "MovieContract", "SearchPlanning", "ReferenceAPI", "IMDbDataSets",
                "MarqueeTestSupport", "NetworkTestSupport", "ServerTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MarqueeCLITests",
            dependencies: [
                "marquee", "MarqueeTestSupport", "MovieAPI", "MovieServer", "MovieStore", "Movies", "Networking",
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
        .testTarget(
            name: "MarqueeCLIIntegrationTests",
            dependencies: [
                "marquee", "MarqueeTestSupport", "NetworkTestSupport", "ServerTestSupport",
                "MovieAPI", "MovieServer", "MovieServerDatabases", "MovieStore", "MovieBrowser", "Movies", "Networking", "ReferenceAPI", "TextFormatting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Swinject", package: "Swinject"),
            ]
        ),
    ]
)
