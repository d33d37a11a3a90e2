import Logging
#if OpenTelemetry
import OTel
#endif
import ServiceLifecycle
import Tracing

/// Whether this process sends its traces to an OpenTelemetry collector, as OpenTelemetry's own
/// environment variables say: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) names a collector, off otherwise, and off when
/// `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. The rest (`OTEL_SERVICE_NAME`,
/// `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_SCHEDULE_DELAY`, …) is read by
/// swift-otel. Traces go over OTLP/HTTP (`http/protobuf` unless the protocol says `http/json`).
public struct TraceExport: Sendable {
    /// The service name spans carry unless `OTEL_SERVICE_NAME` says another.
    public var defaultServiceName: String
    private let environment: [String: String]

    /// The export the environment asks for; `nil` when it asks for none.
    public init?(environment: [String: String], defaultServiceName: String) {
        let names = ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]
        guard names.contains(where: { !(environment[$0] ?? "").isEmpty }) else { return nil }
        guard environment["OTEL_SDK_DISABLED"]?.lowercased() != "true",
              environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none" else { return nil }
        self.environment = environment
        self.defaultServiceName = defaultServiceName
    }

    /// Installs the OTLP tracer as the process's tracer (swift-distributed-tracing's
    /// `InstrumentationSystem`, once per process) and returns the service that exports its spans:
    /// run it beside the work it traces, and shut it down gracefully after that work, which sends
    /// the spans still queued.
    public func start(logger: Logger) throws(TraceExportError) -> any Service {
        #if OpenTelemetry
        let exporter = environment["OTEL_TRACES_EXPORTER"] ?? "otlp"
        let `protocol` = environment["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] ?? environment["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? "http/protobuf"
        // Checked here: swift-otel stops the process on a protocol it was built without (gRPC).
        guard exporter.lowercased() == "otlp", Self.protocols.contains(`protocol`.lowercased()) else {
            throw .unusable(exporter: exporter, protocol: `protocol`)
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = defaultServiceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        let backend: (factory: any Tracer, service: any Service)
        do {
            backend = try OTel.makeTracingBackend(configuration: configuration)
        } catch {
            throw .unusable(exporter: exporter, protocol: `protocol`)
        }
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
        #else
        throw .notBuiltIn
        #endif
    }

    /// The share of new traces `OTEL_TRACES_SAMPLER` (and `_ARG`) records, 0 to 1: its root
    /// sampler's ratio (`always_on` and the default `parentbased_always_on` 1, the `always_off`
    /// ones 0, the `traceidratio` ones their argument, 1 when it is missing or unreadable).
    public var rootRatio: Double {
        let sampler = (environment["OTEL_TRACES_SAMPLER"] ?? "parentbased_always_on").lowercased()
        switch sampler {
        case "always_off", "parentbased_always_off":
            return 0
        case "traceidratio", "parentbased_traceidratio":
            guard let argument = environment["OTEL_TRACES_SAMPLER_ARG"].flatMap({ Double($0) }), argument.isFinite else { return 1 }
            return min(max(argument, 0), 1)
        default:
            return 1
        }
    }

    private static let protocols: Set<String> = ["http/protobuf", "http/json"]
}

/// Tracing was asked for by the environment but cannot start: with its settings, or at all in a
/// build without the `OpenTelemetry` trait.
public enum TraceExportError: Error, CustomStringConvertible {
    case unusable(exporter: String, protocol: String)
    case notBuiltIn

    public var description: String {
        switch self {
        case let .unusable(exporter, `protocol`):
            "tracing cannot start with OTEL_TRACES_EXPORTER=\(exporter) and OTEL_EXPORTER_OTLP_PROTOCOL=\(`protocol`): Marquee sends traces by OTLP over HTTP (otlp, with http/protobuf or http/json)"
        case .notBuiltIn:
            "tracing cannot start: this marquee was built without OpenTelemetry (its OpenTelemetry trait); unset OTEL_EXPORTER_OTLP_ENDPOINT or use a default build"
        }
    }
}
