import HTTP1
import Web

/// almanac's middleware pipeline, composed once at start-up: metrics outermost (it times the
/// whole answer and records the status clients see), then CORS on public routes. Cache headers
/// and gzip variants are made where the cached representation is known (`HTTPCaching.response`,
/// called by `CachedEndpoint`'s render step), which asks `ConditionalRequestStep` whether the
/// answer is a 304.
public enum AlmanacPipeline {
    static func steps(router: Router, metrics: HTTPMetrics, cors: CORSPolicy) -> MiddlewarePair<MetricsStep, CORSStep> {
        MetricsStep(router: router, metrics: metrics).then(CORSStep(cors))
    }

    /// The server's responder: `router` through the pipeline.
    public static func responder(router: Router, metrics: HTTPMetrics,
                          cors: CORSPolicy = CORSPolicy(allowedOrigins: ["*"], problemTypes: .almanac)) -> HTTPServer.Responder {
        PipelineResponder(router: router, steps: steps(router: router, metrics: metrics, cors: cors)).responder
    }
}
