import HTTP1
import Web

/// almanac's middleware pipeline, composed once at start-up. Outer to inner:
///
/// 1. `MetricsStep`: outermost, so it times the whole answer and records the status clients
///    see (a 304 as a 304).
/// 2. `CORSStep`: the policy's fields on public routes' answers, after every other field, and
///    its own answer to `OPTIONS`.
/// 3. `CachingHeadersStep`: a cached representation's fields (`ETag`, `Cache-Control`, `Age`,
///    `Cache-Status`, …), written last of the three caching steps, from what they decided.
/// 4. `ConditionalRequestStep`: a 200 whose tag `If-None-Match` names becomes a 304.
/// 5. `ContentCodingStep`: innermost, the gzip twin or the identity.
///
/// `finish` runs inner first: the coding is chosen (it changes the body and the tag), then the
/// 304 is decided on the chosen tag, then the caching fields are written for what is sent, then
/// CORS adds its fields, then metrics records the final status. Routes render only a body and
/// its `Representation` (`HTTPCaching.response`).
public enum AlmanacPipeline {
    typealias Steps = MiddlewarePair<MetricsStep, MiddlewarePair<CORSStep, MiddlewarePair<CachingHeadersStep,
        MiddlewarePair<ConditionalRequestStep, ContentCodingStep>>>>

    static func steps(router: Router, metrics: HTTPMetrics, cors: CORSPolicy) -> Steps {
        MetricsStep(router: router, metrics: metrics)
            .then(CORSStep(cors)
                .then(CachingHeadersStep()
                    .then(ConditionalRequestStep()
                        .then(ContentCodingStep(variants: HTTPCaching.gzipVariants)))))
    }

    /// The server's responder: `router` through the pipeline.
    public static func responder(router: Router, metrics: HTTPMetrics,
                          cors: CORSPolicy = CORSPolicy(allowedOrigins: ["*"], problemTypes: .almanac)) -> HTTPServer.Responder {
        PipelineResponder(router: router, steps: steps(router: router, metrics: metrics, cors: cors)).responder
    }
}
